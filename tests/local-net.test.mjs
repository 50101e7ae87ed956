// Integration test: the four validators of the `local_testnet` preset on 127.0.0.1. With one of
// them killed, the other three still finalise (GRANDPA needs more than two thirds) and a CPU
// miner's challenge still reaches a quorum-of-three verdict; the killed validator restarts on its
// database and catches up with nothing lost.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@polkadot/api';
import { connect, runAgent, startNode, waitFinalized, waitSettled } from './lib/node.mjs';

const dir = mkdtempSync(join(tmpdir(), 'pog-local-'));
const nodes = {};
const apis = [];
let miner;

after(async () => {
  if (miner) await miner.stop();
  for (const api of apis) await api.disconnect().catch(() => {});
  for (const n of Object.values(nodes)) await n.stop().catch(() => {});
});

function start(who, index, bootnodes, ports) {
  const key = (index + 1).toString(16).padStart(64, '0');
  return startNode([
    '--chain', 'local', `--${who}`, '--base-path', join(dir, who), '--node-key', key,
    ...(bootnodes ? ['--bootnodes', bootnodes] : []),
  ], { name: who, logDir: dir, ports });
}

async function finalizedNumber(api) {
  return (await api.rpc.chain.getHeader(await api.rpc.chain.getFinalizedHead())).number.toNumber();
}

test('a validator dies: blocks still finalise and committees reach three of four; it restarts and catches up', { timeout: 720_000 }, async () => {
  nodes.alice = await start('alice', 0);
  const alice = await connect(nodes.alice.url);
  apis.push(alice);
  const peerId = (await alice.rpc.system.localPeerId()).toString();
  const boot = `/ip4/127.0.0.1/tcp/${nodes.alice.p2pPort}/p2p/${peerId}`;
  for (const [i, who] of ['bob', 'charlie', 'dave'].entries()) nodes[who] = await start(who, i + 1, boot);
  await waitFinalized(alice, 3, 180_000);
  assert.equal((await alice.query.pog.validators()).length, 4);

  // Dave dies (no clean shutdown).
  const davePorts = [nodes.dave.rpcPort, nodes.dave.p2pPort, nodes.dave.promPort];
  nodes.dave.proc.kill('SIGKILL');
  await nodes.dave.exited;
  delete nodes.dave;
  const before = await finalizedNumber(alice);
  await waitFinalized(alice, before + 3, 120_000);

  // A CPU miner answers its challenge; three live validators make the quorum of three.
  const eve = new Keyring({ type: 'sr25519' }).addFromUri('//Eve');
  const common = ['--url', nodes.alice.url, '--suri', '//Eve'];
  const reg = await runAgent(['register', ...common, '--backend', 'cpu'], { name: 'register', logDir: dir });
  assert.equal(reg.code, 0, readFileSync(reg.log, 'utf8'));
  const passed = waitSettled(alice, eve.address, 420_000, "Eve's GPU to pass with three of four validators",
    (o) => o === 'Passed');
  miner = runAgent(['run', ...common, '--backend', 'cpu', '--state-dir', join(dir, 'state'), '--exit-after', '1'],
    { name: 'miner', logDir: dir, background: true });
  const ev = await passed;
  const ch = (await alice.call.pogApi.challenge(ev.round, eve.address, 0)).unwrap();
  assert.equal(ch.verification.unwrap().toString(), 'Passed');
  assert.equal(ch.committee.length, 4, 'the committee is all four validators');
  assert.ok(ch.votes.length >= 3, `three matching verdicts (got ${ch.votes.length})`);
  const root = ch.commitment.unwrap().root.toHex();
  await miner.done;
  miner = undefined;

  // Dave restarts on his database and catches up with the others.
  nodes.dave = await start('dave', 3, boot, davePorts);
  const dave = await connect(nodes.dave.url);
  apis.push(dave);
  const target = await finalizedNumber(alice);
  await waitFinalized(dave, target, 180_000);
  const seen = (await dave.call.pogApi.challenge(ev.round, eve.address, 0)).unwrap();
  assert.equal(seen.verification.unwrap().toString(), 'Passed');
  assert.equal(seen.commitment.unwrap().root.toHex(), root);
  const hashAlice = await alice.rpc.chain.getBlockHash(target);
  const hashDave = await dave.rpc.chain.getBlockHash(target);
  assert.equal(hashDave.toHex(), hashAlice.toHex(), 'same finalized chain');
});
