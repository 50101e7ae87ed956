#!/usr/bin/env node
// Load benchmark (run by hand; not part of CI): registers N miners (default 1,000) with G GPUs
// each (default 10) on a fresh dev chain, one of them a real CPU-backend agent, and follows one
// whole network-wide round — the chain starts it, every loaded miner commits all its roots in
// one signed extrinsic (random roots), the sample is drawn, the agent reveals and Alice's
// committee verifies, selected loaded GPUs miss their reveal, and every miner is settled —
// reporting block production times and the largest block weight.
//
//   node tests/load.mjs [N] [--gpus G] [--json FILE]   (needs the release pog-node and offchain-gpu)
import { writeFileSync } from 'node:fs';
import { Keyring } from '@polkadot/api';
import { connect, runAgent, startNode, waitFinalized } from './lib/node.mjs';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) || 1000);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const G = args.includes('--gpus') ? Number(args[args.indexOf('--gpus') + 1]) : 10;
const UNIT = 10n ** 12n;
const log = (...m) => console.log(`[load ${new Date().toISOString().slice(11, 19)}]`, ...m);

const node = await startNode(['--dev', '--tmp', '--rpc-max-connections', '2000', '--pool-limit', '20000', '--pool-kbytes', '200000'], { name: 'load' });
const api = await connect(node.url);
try {
  await waitFinalized(api, 1, 90_000);
  const keyring = new Keyring({ type: 'sr25519' });
  const alice = keyring.addFromUri('//Alice');
  const cpuRef = (await api.call.pogApi.profiles()).find(([, p]) => Buffer.from(p.name.toU8a(true)).toString() === 'cpu-reference')[0];

  // Blocks: timestamp and weight of each.
  const blocks = [];
  // Per round: the sample, each GPU's outcome, the miners slashed.
  const rounds = {};
  const roundOf = (r) => (rounds[r] ??= { sample: null, outcomes: {}, slashedMiners: 0, settled: false, startedAt: null });
  const maxRef = api.consts.system.blockWeights.maxBlock.refTime.toBigInt();
  const unsub = await api.rpc.chain.subscribeNewHeads(async (h) => {
    const at = await api.at(h.hash);
    const [now, weight, events] = await Promise.all([at.query.timestamp.now(), at.query.system.blockWeight(), at.query.system.events()]);
    const ref = weight.normal.refTime.toBigInt() + weight.operational.refTime.toBigInt() + weight.mandatory.refTime.toBigInt();
    const count = (name) => events.filter(({ event }) => event.section === 'pog' && event.method === name).length;
    for (const { event } of events) {
      if (event.section !== 'pog' || !('round' in event.data)) continue;
      const r = roundOf(event.data.round.toNumber());
      if (api.events.pog.RoundStarted.is(event)) r.startedAt = h.number.toNumber();
      if (api.events.pog.SampleDrawn.is(event)) r.sample = { block: h.number.toNumber(), committed: event.data.committed.toNumber(), capacity: event.data.capacity.toNumber(), probability: event.data.probability.toHuman() };
      if (api.events.pog.RoundSettled.is(event)) r.settled = true;
      if (api.events.pog.MinerSettled.is(event)) {
        for (const [, o] of event.data.outcomes) { const k = JSON.stringify(o.toJSON()); r.outcomes[k] = (r.outcomes[k] || 0) + 1; }
        if (event.data.slashed.toBigInt() > 0n) r.slashedMiners += 1;
      }
    }
    blocks.push({
      number: h.number.toNumber(), ms: now.toNumber(), refTime: Number(ref), percent: Number((ref * 10000n) / maxRef) / 100,
      registered: count('MinerRegistered'), started: count('RoundStarted'), commits: count('RootsCommitted'),
      sample: count('SampleDrawn'), revealed: count('OpeningsRevealed'), verdicts: count('VerdictSubmitted'),
      settled: count('MinerSettled'), roundSettled: count('RoundSettled'),
    });
  });

  // Fund N accounts from Alice, then each registers one cpu-reference GPU.
  const miners = Array.from({ length: N - 1 }, (_, i) => keyring.addFromUri(`//load//${i}`));
  let nonce = (await api.rpc.system.accountNextIndex(alice.address)).toNumber();
  for (const m of miners) await api.tx.balances.transferKeepAlive(m.address, BigInt(20 + 2 * G) * UNIT).signAndSend(alice, { nonce: nonce++ });
  for (;;) {
    const b = await api.query.system.account(miners[miners.length - 1].address);
    if (b.data.free.toBigInt() > 0n) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  log(`funded ${miners.length} accounts`);
  const hw = { cpuCores: 16, cpuModel: 'load test', ramMib: 65536, diskGib: 1000 };
  for (const [i, m] of miners.entries()) {
    const uuids = Array.from({ length: G }, (_, g) => '0x' + i.toString(16).padStart(24, '0') + g.toString(16).padStart(8, '0'));
    await api.tx.pog.registerMiner([{ profile: cpuRef, count: G, uuids }], hw).signAndSend(m, { nonce: 0 });
  }
  // The one real miner.
  const reg = await runAgent(['register', '--url', node.url, '--suri', '//Charlie', '--backend', 'cpu'], { name: 'register' });
  if (reg.code !== 0) throw new Error(`agent register failed: see ${reg.log}`);
  for (;;) {
    if ((await api.query.pog.minerCount()).toNumber() >= N) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  const registeredAt = blocks.length ? blocks[blocks.length - 1].number : 0;
  log(`${N} miners registered by block #${registeredAt}`);
  const agent = runAgent(['run', '--url', node.url, '--suri', '//Charlie', '--backend', 'cpu', '--exit-after', '1', '--state-dir', `/tmp/pog-load-${process.pid}`], { name: 'miner', background: true });

  // The next round to start (every loaded miner takes part in it, whenever it registered):
  // every loaded miner commits G random memory roots, then G random GEMM roots, in one extrinsic
  // each, signed ahead so that all of them are submitted within the first seconds of the commit
  // window.
  const first = (await api.call.pogApi.round()).index.toNumber() + 1;
  const signed = [];
  for (const [i, m] of miners.entries()) {
    const roots = Array.from({ length: G }, (_, g) => ({ gpu: g, root: '0x' + (i * G + g + 1).toString(16).padStart(64, '0'), report: { elapsedMs: 1, intervalMs: 1000, traceGflops: [] } }));
    const memory = roots.map(({ gpu, root }) => ({ gpu, root }));
    signed.push(await api.tx.pog.commitMemory(first, memory).signAsync(m, { nonce: 1, era: 256 }));
    signed.push(await api.tx.pog.commitRoots(first, roots).signAsync(m, { nonce: 2, era: 256 }));
  }
  for (;;) {
    const r = await api.call.pogApi.round();
    if (r.index.toNumber() >= first && r.phase.toString() === 'Commit') break;
    await new Promise((res) => setTimeout(res, 500));
  }
  log(`round ${first} started; committing ${(N - 1) * G} roots`);
  await Promise.all(signed.map((tx) => api.rpc.author.submitExtrinsic(tx)));
  log('commits submitted');
  // Follow the round until it is settled.
  while (!roundOf(first).settled) await new Promise((r) => setTimeout(r, 3000));
  unsub();
  await agent.stop();

  const after = blocks.filter((b) => b.number >= roundOf(first).startedAt);
  const gaps = blocks.slice(1).map((b, i) => b.ms - blocks[i].ms);
  const sum = (k) => after.reduce((s, b) => s + b[k], 0);
  const heaviestOf = (list) => list.reduce((a, b) => (b.percent > a.percent ? b : a));
  const result = {
    miners: N, gpusPerMiner: G, blocks: blocks.length, round: first, roundBlocks: [after[0].number, after[after.length - 1].number],
    blockTimeMs: { mean: Math.round(gaps.reduce((a, b) => a + b, 0) / gaps.length), max: Math.max(...gaps), min: Math.min(...gaps) },
    heaviestBlock: heaviestOf(blocks), heaviestBlockOfTheRound: heaviestOf(after),
    commitExtrinsics: sum('commits'), revealed: sum('revealed'), verdicts: sum('verdicts'), minersSettled: sum('settled'),
    ...roundOf(first),
  };
  log(JSON.stringify(result, null, 2));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ result, rounds, blocks }, null, 2));
} finally {
  await api.disconnect();
  await node.stop();
}
