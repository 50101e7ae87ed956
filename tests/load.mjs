#!/usr/bin/env node
// Load benchmark (run by hand; not part of CI; benchmarking/load/README.md): N miners with G GPUs
// each (default 1,000 × 10) on a one-validator dev chain, every GPU committed with a real root and
// verified in the same round (p = 1), one real `offchain-gpu` miner among them. It follows the
// round block by block and reports block times, the heaviest block and every GPU's outcome.
//
//   node tests/load.mjs [N] [--gpus G] [--validators 1|4] [--slack-s S] [--verdict-window W] [--json FILE]
//
// Needs the release pog-node, offchain-gpu and pog-load
// (`cargo build --release -p offchain-gpu --features load --bin pog-load`).
//
// The chain is the dev preset (one validator, Alice) or with --validators 4 the local preset (Alice,
// Bob, Charlie and Dave, each on every committee, three verdicts deciding), with two changes in
// its genesis, so that one 2-core machine can
// answer 10,000 GPUs: a `load` profile (1 MiB, 4 GFLOPS fp16: one point, the least a profile may score; no memory phase) whose challenge is
// the smallest the protocol allows (C 512×256, k = 256: 67 MFLOP, 29 ms on this machine's two
// cores), and a configuration whose GEMM target and walk time are 1 ms (so every challenge is that
// small) with a slack long enough for one CPU to compute all of them (S, default 540 s), a reveal
// window of 10 blocks for one process to open all of them, and mainnet's verdict window (W,
// default 20 blocks; 180 before spec_version 117, when one validator sent 64 verdicts a block),
// its per-validator figure at the runtime's ceiling (1,024 a block from the draw to the verdict
// deadline: 1,024 × (10 + W)). It follows the round until its miners are paid.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@polkadot/api';
import { chainSpec, connect, freePort, loadBinary, runAgent, startNode, waitFinalized } from './lib/node.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const N = Number(args.find((a) => /^\d+$/.test(a)) || 1000);
const G = Number(flag('--gpus', 10));
const V = Number(flag('--validators', 1));
if (V !== 1 && V !== 4) throw new Error('--validators is 1 (the dev preset) or 4 (the local preset)');
const slackS = Number(flag('--slack-s', 540));
const verdictWindow = Number(flag('--verdict-window', 20));
const jsonOut = flag('--json', null);
const UNIT = 10n ** 12n;
const PROFILE = 'load';
const log = (...m) => console.log(`[load ${new Date().toISOString().slice(11, 19)}]`, ...m);
const dir = mkdtempSync(join(tmpdir(), 'pog-load-'));

// The dev chain spec with the load profile and the benchmark's configuration.
const spec = chainSpec(V === 1 ? 'dev' : 'local');
const pog = spec.genesis.runtimeGenesis.patch.pog;
pog.profiles.push({
  name: PROFILE, vramMib: 1, gflops: [0, 0, 4, 0, 0], int8Gops: 0, tolerancePercent: 50, perCore: false, memReadMps: 0, memParentMps: 0,
});
Object.assign(pog.config, {
  // Round 1 starts at block 57–60, after every registration (about 40 blocks).
  period: 60,
  targetMs: 1,
  slackMs: slackS * 1000,
  // One process opens all 10,000 (mainnet's is 40 blocks).
  revealWindow: 10,
  verdictWindow,
  // The ceiling: the worker verifies up to 1,024 served GPUs a block from the draw on.
  verificationsPerValidator: 1024 * (10 + verdictWindow),
});
pog.config.memory.walkMs = 1;
const specFile = join(dir, 'spec.json');
writeFileSync(specFile, JSON.stringify(spec));
log(`chain spec ${specFile}: profile '${PROFILE}', slack ${slackS} s, verdict window ${verdictWindow} blocks`);

// Alice's node takes the clients; the others (with --validators 4) boot from it.
const who = ['alice', 'bob', 'charlie', 'dave'].slice(0, V);
const nodeArgs = (i) => ['--chain', specFile, `--${who[i]}`, '--base-path', join(dir, who[i]), '--node-key', (i + 1).toString(16).padStart(64, '0'),
  '--pool-limit', '20000', '--pool-kbytes', '200000', ...(V === 1 ? ['--force-authoring'] : [])];
const node = await startNode([...nodeArgs(0), '--rpc-max-connections', '2000', '--rpc-max-subscriptions-per-connection', '4096'],
  { name: 'load-node', logDir: dir });
const others = [];
const api = await connect(node.url);
const boot = `/ip4/127.0.0.1/tcp/${node.p2pPort}/p2p/${(await api.rpc.system.localPeerId()).toString()}`;
for (let i = 1; i < V; i++) others.push(await startNode([...nodeArgs(i), '--bootnodes', boot], { name: `load-${who[i]}`, logDir: dir }));
let load;
let agent;
try {
  await waitFinalized(api, 1, 90_000);
  const keyring = new Keyring({ type: 'sr25519' });
  const alice = keyring.addFromUri('//Alice');
  const profileId = (await api.call.pogApi.profiles()).find(([, p]) => Buffer.from(p.name.toU8a(true)).toString() === PROFILE)[0];

  // Every block: its time, weight and PoG events; every round: its sample and outcomes.
  const blocks = [];
  const rounds = {};
  const roundOf = (r) => (rounds[r] ??= { startedAt: null, sample: null, settled: false, settledAt: null, paidAt: null });
  const maxRef = api.consts.system.blockWeights.maxBlock.refTime.toBigInt();
  const unsub = await api.rpc.chain.subscribeNewHeads(async (h) => {
    const at = await api.at(h.hash);
    const [now, weight, events] = await Promise.all([at.query.timestamp.now(), at.query.system.blockWeight(), at.query.system.events()]);
    const ref = weight.normal.refTime.toBigInt() + weight.operational.refTime.toBigInt() + weight.mandatory.refTime.toBigInt();
    const n = h.number.toNumber();
    const count = (name, section = 'pog') => events.filter(({ event }) => event.section === section && event.method === name).length;
    // Outcomes by block: with several authors a block may be on a fork, and only the canonical
    // chain's blocks are counted at the end.
    const outcomes = {};
    let slashedMiners = 0;
    for (const { event } of events) {
      if (!['pog', 'pogRewards'].includes(event.section) || !('round' in event.data)) continue;
      const r = roundOf(event.data.round.toNumber());
      if (api.events.pog.RoundStarted.is(event)) r.startedAt = n;
      if (api.events.pog.SampleDrawn.is(event)) {
        r.sample = { block: n, committed: event.data.committed.toNumber(), capacity: event.data.capacity.toNumber(), probability: event.data.probability.toHuman() };
      }
      if (api.events.pog.RoundSettled.is(event)) { r.settled = true; r.settledAt = n; }
      if (api.events.pogRewards.MinerPaid.is(event)) r.paidAt = n;
      if (api.events.pog.MinerSettled.is(event)) {
        for (const [, o] of event.data.outcomes) { const k = JSON.stringify(o.toJSON()); outcomes[k] = (outcomes[k] || 0) + 1; }
        if (event.data.slashed.toBigInt() > 0n) slashedMiners += 1;
      }
    }
    blocks.push({
      number: n, hash: h.hash.toHex(), outcomes, slashedMiners, ms: now.toNumber(), refTime: Number(ref), percent: Number((ref * 10000n) / maxRef) / 100,
      registered: count('MinerRegistered'), started: count('RoundStarted'), commits: count('RootsCommitted'),
      sample: count('SampleDrawn'), verdicts: count('VerdictSubmitted'), decided: count('VerificationFinished'),
      // a served GPU's passes land in its members' attestations, decided at settlement
      attestations: count('Attested'),
      settled: count('MinerSettled'), roundSettled: count('RoundSettled'), paid: count('MinerPaid', 'pogRewards'),
      // pallet-session charges a whole block for a session rotation (every epoch, 100 blocks).
      newSession: events.some(({ event }) => event.section === 'session' && event.method === 'NewSession'),
    });
  });

  // N − 1 load miners, funded from Alice, each registering G GPUs of the load profile.
  const miners = Array.from({ length: N - 1 }, (_, i) => keyring.addFromUri(`//load//${i}`));
  let nonce = (await api.rpc.system.accountNextIndex(alice.address)).toNumber();
  for (const m of miners) await api.tx.balances.transferKeepAlive(m.address, 100n * UNIT).signAndSend(alice, { nonce: nonce++ });
  while ((await api.query.system.account(miners[miners.length - 1].address)).data.free.toBigInt() === 0n) {
    await new Promise((r) => setTimeout(r, 2000));
  }
  log(`funded ${miners.length} accounts`);
  const hw = { cpuCores: 16, cpuModel: 'load test', ramMib: 65536, diskGib: 1000 };
  for (const [i, m] of miners.entries()) {
    const uuids = Array.from({ length: G }, (_, g) => '0x' + i.toString(16).padStart(24, '0') + g.toString(16).padStart(8, '0'));
    await api.tx.pog.registerMiner([{ profile: profileId, count: G, uuids }], hw).signAndSend(m, { nonce: 0 });
  }
  // The one real miner: the agent on its CPU backend, one GPU of the load profile, served.
  const reg = await runAgent(['register', '--url', node.url, '--suri', '//Eve', '--backend', 'cpu', '--profile', PROFILE], { name: 'register', logDir: dir });
  if (reg.code !== 0) throw new Error(`agent register failed: see ${reg.log}`);
  while ((await api.query.pog.minerCount()).toNumber() < N) await new Promise((r) => setTimeout(r, 2000));
  log(`${N} miners registered by block #${blocks.at(-1)?.number}`);

  const agentPort = await freePort();
  agent = runAgent(['run', '--url', node.url, '--suri', '//Eve', '--backend', 'cpu', '--exit-after', '1', '--state-dir', join(dir, 'agent-state'),
    '--serve-openings', `127.0.0.1:${agentPort}`, '--openings-url', `http://127.0.0.1:${agentPort}/pog`], { name: 'miner', logDir: dir, background: true });
  const loadPort = await freePort();
  const loadLog = join(dir, 'pog-load.log');
  load = spawn(loadBinary(), ['--url', node.url, '--accounts', String(N - 1), '--serve-openings', `127.0.0.1:${loadPort}`, '--openings-url', `http://127.0.0.1:${loadPort}`, '--rounds', '1'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: 'info', NO_COLOR: '1' } });
  const out = createWriteStream(loadLog);
  load.stdout.pipe(out);
  load.stderr.pipe(out);
  const loadDone = new Promise((resolve) => load.on('exit', (code) => resolve(code)));
  log(`pog-load started (${loadLog})`);

  // The measured round: the first one, which must start after every miner named its endpoint.
  const first = (await api.call.pogApi.round()).index.toNumber() + 1;
  if (first !== 1) throw new Error(`round ${first - 1} started before every miner was registered: raise the period`);
  while (!roundOf(first).startedAt) await new Promise((r) => setTimeout(r, 1000));
  const endpoints = (await api.query.pog.openingsEndpoints.entries()).length;
  log(`round ${first} started at #${roundOf(first).startedAt}; ${endpoints} endpoints named`);
  while (!roundOf(first).settled) await new Promise((r) => setTimeout(r, 3000));
  // The miners' pay: a page a block from the block after the last settlement.
  while ((await api.query.pogRewards.pendingPayout()).isSome || blocks.at(-1).number <= roundOf(first).settledAt) {
    await new Promise((r) => setTimeout(r, 3000));
  }
  unsub();
  const loadCode = await Promise.race([loadDone, new Promise((r) => setTimeout(() => r('still running'), 60_000))]);
  const agentResult = await agent.stop();

  const r = roundOf(first);
  // The canonical chain's blocks only, in order (with several authors, forks are seen too).
  const seen = blocks.length;
  const canonical = [];
  for (const b of blocks) if ((await api.rpc.chain.getBlockHash(b.number)).toHex() === b.hash) canonical.push(b);
  blocks.length = 0;
  blocks.push(...canonical.sort((a, b) => a.number - b.number));
  const inRound = blocks.filter((b) => b.number >= r.startedAt && b.number <= (r.paidAt ?? r.settledAt));
  const gaps = blocks.slice(1).map((b, i) => b.ms - blocks[i].ms);
  // The heaviest block apart from the session rotations, which pallet-session charges in full.
  const heaviest = (list) => list.filter((b) => !b.newSession).reduce((a, b) => (b.percent > a.percent ? b : a));
  const sum = (k) => inRound.reduce((s, b) => s + b[k], 0);
  const votingBlocks = inRound.filter((b) => b.decided > 0 || b.attestations > 0).map((b) => b.number);
  const outcomes = {};
  for (const b of inRound) for (const [k, v] of Object.entries(b.outcomes)) outcomes[k] = (outcomes[k] || 0) + v;
  const result = {
    validators: V, miners: N, gpusPerMiner: G, realMinerGpus: 1, slackS, verdictWindow, blocks: blocks.length, forkBlocks: seen - blocks.length, round: first,
    roundBlocks: [r.startedAt, r.settledAt], paidBy: r.paidAt,
    blockTimeMs: { mean: Math.round(gaps.reduce((a, b) => a + b, 0) / gaps.length), max: Math.max(...gaps), min: Math.min(...gaps) },
    heaviestBlock: heaviest(blocks), heaviestBlockOfTheRound: heaviest(inRound),
    sessionRotations: blocks.filter((b) => b.newSession).map(({ number, percent, commits, verdicts }) => ({ number, percent, commits, verdicts })),
    commitExtrinsics: sum('commits'), verdicts: sum('verdicts'), decided: sum('decided'), attestations: sum('attestations'),
    votesFrom: votingBlocks.length ? Math.min(...votingBlocks) : null, votesTo: votingBlocks.length ? Math.max(...votingBlocks) : null,
    minersSettled: sum('settled'), sample: r.sample, outcomes, slashedMiners: sum('slashedMiners'),
    minersPaid: sum('paid'), payoutBlocks: inRound.filter((b) => b.paid > 0).map(({ number, paid, percent }) => ({ number, paid, percent })),
    loadMinerExit: loadCode, agentExit: agentResult.code,
  };
  log(JSON.stringify(result, null, 2));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ result, rounds, blocks }, null, 2));
} finally {
  if (load && load.exitCode === null) load.kill('SIGINT');
  if (agent) await agent.stop();
  await api.disconnect();
  for (const n of others) await n.stop();
  await node.stop();
  log(`logs in ${dir}`);
}
