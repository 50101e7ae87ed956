// Integration test: launching a network as docs/chain-runner.md's "Launching a network" says. The
// `production` preset's placeholder keys are refused for a live chain; scripts/production-spec.sh
// writes a spec with fresh keys, and a validator started from it with its keys inserted authors
// and finalises blocks, sits in the session and on PoG's committees, bonded; a light client joins
// from the raw spec the script writes, its bootnode the validator's websocket address.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, freePort, lightClient, nodeBinary, startNode, stopAll, waitFinalized } from './lib/node.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
let node;
let api;

after(() => stopAll({ api, node }));

test("a live chain naming the production preset's placeholder keys is refused", { timeout: 120_000 }, async () => {
  const res = spawnSync(nodeBinary(), ['--chain', 'production', '--tmp', '--rpc-port', String(await freePort())], {
    encoding: 'utf8',
    timeout: 100_000,
  });
  assert.notEqual(res.status, 0, 'the node refuses to start');
  assert.match(res.stderr, /public dev key of Alice/);
  assert.match(res.stderr, /scripts\/production-spec\.sh/);
  assert.match(res.stderr, /--allow-dev-keys/);
});

test('a validator launched from scripts/production-spec.sh authors, finalises and sits, bonded', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pog-launch-'));
  const keys = join(dir, 'keys');
  const ports = [await freePort(), await freePort(), await freePort()];
  const wsPort = await freePort();
  execFileSync(join(repo, 'scripts/production-spec.sh'), ['1', keys, '127.0.0.1'],
    { env: { ...process.env, POG_NODE: nodeBinary(), POG_P2P_PORT: String(ports[1]), POG_P2P_WS_PORT: String(wsPort) } });
  const spec = join(keys, 'spec.json');
  const validator = JSON.parse(readFileSync(join(keys, 'validator-1.json'), 'utf8'));
  assert.ok(!readFileSync(spec, 'utf8').includes('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'), 'no Alice');
  const base = join(dir, 'validator');
  // the printed commands: the pog! key is the phrase's //pog derivation
  for (const [type, scheme, suri] of [['babe', 'sr25519', ''], ['pog!', 'sr25519', '//pog'], ['gran', 'ed25519', '']]) {
    execFileSync(nodeBinary(), ['key', 'insert', '--base-path', base, '--chain', spec, '--key-type', type, '--scheme', scheme,
      '--suri', validator.secretPhrase + suri]);
  }
  // as the script prints it: its own network key, peers on TCP and on a websocket
  node = await startNode(['--chain', spec, '--base-path', base, '--validator', '--node-key-file', join(keys, 'validator-1.node-key'),
    '--listen-addr', `/ip4/127.0.0.1/tcp/${ports[1]}`, '--listen-addr', `/ip4/127.0.0.1/tcp/${wsPort}/ws`],
  { name: 'launched', ports });
  api = await connect(node.url);
  assert.ok(await waitFinalized(api, 2, 120_000) >= 2, 'it authors and GRANDPA finalises');
  const account = validator.ss58Address;
  assert.deepEqual((await api.query.session.validators()).map((v) => v.toString()), [account]);
  const pog = JSON.parse(readFileSync(join(keys, 'validator-1.pog.json'), 'utf8')).ss58Address;
  assert.notEqual(pog, account, "the pog! account is not the validator's");
  assert.deepEqual((await api.query.pogValidators.validators()).map((v) => v.toString()), [pog], 'on PoG committees');
  assert.deepEqual((await api.query.pogValidators.seated()).map((s) => s.map((a) => a.toString())), [[account, pog]]);
  assert.equal((await api.query.system.account(pog)).data.free.toBigInt(), 10n * 10n ** 12n, 'its pog! account pays duties');
  const bond = (await api.query.pogValidators.validatorBonds(account)).unwrap();
  assert.equal(bond.held.toBigInt(), 100n * 10n ** 12n, 'its 100 POG bond is held');

  // A light client joins from spec.raw.json alone (its bootnodes the validator's addresses), checks
  // the blocks itself and reads the validator set with proofs.
  const raw = JSON.parse(readFileSync(join(keys, 'spec.raw.json'), 'utf8'));
  const peer = readFileSync(join(keys, 'validator-1.peer-id'), 'utf8').trim();
  assert.deepEqual(raw.bootNodes, [`/ip4/127.0.0.1/tcp/${ports[1]}/p2p/${peer}`, `/ip4/127.0.0.1/tcp/${wsPort}/ws/p2p/${peer}`]);
  const light = await lightClient(JSON.stringify(raw));
  try {
    assert.deepEqual((await light.query.session.validators()).map((v) => v.toString()), [account], 'read through the light client');
    assert.ok((await light.rpc.chain.getHeader()).number.toNumber() >= 2, 'it follows the chain');
  } finally {
    await light.disconnect();
  }
});
