// Integration test: a dev node (`--dev --tmp`) produces and finalises blocks; a miner registers
// through @polkadot/api with a signed extrinsic, and Alice's off-chain worker issues that miner's
// challenge (events on chain); auditors read it through the PogApi runtime API; the node stops
// cleanly.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Keyring } from '@polkadot/api';
import { connect, sendAndWait, startNode, stopAll, waitFinalized, waitForEvent } from './lib/node.mjs';

let node;
let api;

after(() => stopAll({ api, node }));

test('a dev node finalises blocks and starts a round that challenges a new miner', { timeout: 300_000 }, async () => {
  node = await startNode(['--dev', '--tmp'], { name: 'dev' });
  api = await connect(node.url);
  assert.equal((await api.rpc.system.chain()).toString(), 'PoG Development');

  const finalized = await waitFinalized(api, 2, 90_000);
  assert.ok(finalized >= 2, 'GRANDPA finalises');

  // The genesis profile table and configuration are on chain, with doc comments in metadata.
  const profiles = await api.call.pogApi.profiles();
  const names = profiles.map(([, p]) => Buffer.from(p.name.toU8a(true)).toString());
  assert.ok(names.includes('NVIDIA H100 80GB HBM3'));
  const cpuRef = profiles.find(([, p]) => Buffer.from(p.name.toU8a(true)).toString() === 'cpu-reference');
  assert.ok(cpuRef, 'cpu-reference profile');
  const validators = await api.query.pog.validators();
  const keyring = new Keyring({ type: 'sr25519' });
  const alice = keyring.addFromUri('//Alice');
  const bob = keyring.addFromUri('//Bob');
  assert.deepEqual(validators.map((v) => v.toString()), [alice.address]);
  assert.match(api.query.pog.round.creator.meta.docs.join(' '), /round/);

  const uuid = '0x' + 'b0'.repeat(16);
  const tx = api.tx.pog.registerMiner(
    [{ profile: cpuRef[0], count: 1, uuids: [uuid] }],
    { cpuCores: 8, cpuModel: 'test CPU', ramMib: 16384, diskGib: 100 },
  );
  const events = await sendAndWait(api, tx, bob);
  const registered = events.map(({ event }) => event).find((e) => api.events.pog.MinerRegistered.is(e));
  assert.ok(registered, 'MinerRegistered');
  const firstRound = registered.data.firstRound.toNumber();
  const started = await waitForEvent(
    api,
    (e) => (api.events.pog.RoundStarted.is(e) && e.data.round.toNumber() === firstRound ? e.data : null),
    180_000,
    `the chain to start round ${firstRound} by itself`,
  );
  assert.equal(started.round.toNumber(), firstRound);
  const round = await api.call.pogApi.round();
  assert.equal(round.index.toNumber(), firstRound);
  const mine = await api.call.pogApi.challengesOf(bob.address);
  assert.equal(mine.length, 1, "Bob's one GPU is challenged");
  const view = mine[0];
  assert.equal(view.miner.toString(), bob.address);
  assert.equal(view.params.uuid.toHex(), uuid);
  assert.ok(view.params.dims.k.toNumber() >= 256);
  assert.ok(view.params.deadlineMs.toNumber() > round.startMs.toNumber(), 'a deadline after the round start');
  assert.ok(view.commitment.isNone);
  const miner = (await api.call.pogApi.miner(bob.address)).unwrap();
  assert.equal(miner.standing[0].zeroReason.unwrap().toString(), 'WaitingForRound');
});

test('the node stops cleanly on SIGINT', { timeout: 60_000 }, async () => {
  await api.disconnect();
  api = undefined;
  const { code, signal } = await node.stop();
  node = undefined;
  assert.ok(code === 0 || signal === 'SIGINT', `exit code ${code}, signal ${signal}`);
});
