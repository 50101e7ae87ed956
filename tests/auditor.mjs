#!/usr/bin/env node
// The auditor's view of a PoG chain, through @polkadot/api: GPU profiles, miners and their claims,
// challenges with roots, sampled openings and verdicts, and scores with their components and
// weight shares. Storage is read with `api.query.pog.*`, the derived views with the pallet's
// runtime API (`api.call.pogApi.*`, no custom RPC).
//
//   node tests/auditor.mjs [ws://127.0.0.1:9944] [--json]
//
// Exported as `audit(api)` for the integration tests.
import { ApiPromise, WsProvider } from '@polkadot/api';
import { pathToFileURL } from 'node:url';

const text = (bytes) => Buffer.from(bytes.toU8a(true)).toString();
const ppb = (perbill) => perbill.toNumber();
const pct = (n) => `${(n / 1e7).toFixed(2)}%`;

/** Everything an auditor reads, as plain JSON. */
export async function audit(api) {
  const head = await api.rpc.chain.getHeader();
  const config = (await api.query.pog.configuration()).toJSON();
  const profiles = (await api.call.pogApi.profiles()).map(([id, p]) => ({
    id: id.toNumber(),
    name: text(p.name),
    vramMib: p.vramMib.toNumber(),
    gflops: p.gflops.map((g) => g.toNumber()),
    baseScore: p.baseScore.toNumber(),
    tolerancePercent: p.tolerancePercent.toNumber(),
  }));
  const validators = (await api.query.pog.validators()).map((v) => v.toString());

  const miners = [];
  for (const [key] of await api.query.pog.miners.entries()) {
    const who = key.args[0].toString();
    const view = (await api.call.pogApi.miner(who)).unwrap();
    miners.push({
      miner: who,
      claimed: view.claimed.map(([profile, uuid]) => ({ profile: profile.toNumber(), uuid: uuid.toHex() })),
      hardware: view.hardware.toJSON(),
      deposit: view.deposit.toString(),
      nextDue: view.nextDue.toNumber(),
      currentRound: view.currentRound.map((c) => c.toNumber()),
      verified: view.verified.map((c) => ({
        uuid: c.uuid.toHex(), profile: c.profile.toNumber(), points: c.points.toNumber(), challenge: c.challenge.toNumber(),
      })),
      score: {
        verifiedGpus: view.score.verifiedGpus.toNumber(),
        gpuPoints: view.score.gpuPoints.toNumber(),
        gpu: ppb(view.score.gpu), cpu: ppb(view.score.cpu), ram: ppb(view.score.ram), disk: ppb(view.score.disk),
        total: ppb(view.score.total),
      },
      share: ppb(view.share),
    });
  }

  const challenges = [];
  for (const [key] of await api.query.pog.challenges.entries()) {
    const id = key.args[0].toNumber();
    const c = (await api.call.pogApi.challenge(id)).unwrap();
    const openings = await api.query.pog.openings(id);
    challenges.push({
      id,
      miner: c.miner.toString(),
      uuid: c.uuid.toHex(),
      profile: c.profile.toNumber(),
      precision: c.precision.toString(),
      dims: [c.dims.m.toNumber(), c.dims.n.toNumber(), c.dims.k.toNumber()],
      deadlineMs: c.deadlineMs.toNumber(),
      root: c.root.isSome ? c.root.unwrap().toHex() : null,
      elapsedMs: c.report.isSome ? c.report.unwrap().elapsedMs.toNumber() : null,
      sampleSeed: c.sampleSeed.isSome ? c.sampleSeed.unwrap().toHex() : null,
      openedLeaves: openings.isSome ? openings.unwrap().map((o) => o.leaf.toNumber()) : [],
      verdicts: c.votes.map(([v, verdict]) => ({
        validator: v.toString(),
        passed: verdict.passed.isTrue,
        entriesChecked: verdict.entriesChecked.toNumber(),
        worstPermille: verdict.worstPermille.toNumber(),
      })),
      status: c.status.toString(),
    });
  }
  challenges.sort((a, b) => a.id - b.id);

  const ranking = (await api.call.pogApi.ranking()).map((r) => ({
    miner: r.miner.toString(), total: ppb(r.score.total), share: ppb(r.share),
  }));
  return { block: head.number.toNumber(), config, validators, profiles, miners, challenges, ranking };
}

function print(a) {
  console.log(`PoG chain at block #${a.block}; validators: ${a.validators.join(', ')}`);
  console.log(`\nGPU profiles (${a.profiles.length})`);
  for (const p of a.profiles) {
    console.log(`  ${String(p.id).padStart(2)} ${p.name.padEnd(28)} ${String(p.vramMib).padStart(7)} MiB  base ${p.baseScore}  GFLOPS ${p.gflops.join('/')}`);
  }
  console.log(`\nMiners (${a.miners.length})`);
  for (const m of a.miners) {
    const s = m.score;
    console.log(`  ${m.miner}: ${m.claimed.length} GPU(s) claimed, ${m.verified.length} verified; score ${pct(s.total)} `
      + `(gpu ${pct(s.gpu)}, cpu ${pct(s.cpu)}, ram ${pct(s.ram)}, disk ${pct(s.disk)}); share ${pct(m.share)}`);
  }
  console.log(`\nChallenges (${a.challenges.length})`);
  for (const c of a.challenges) {
    const votes = c.verdicts.map((v) => `${v.passed ? 'pass' : 'FAIL'}(${v.worstPermille}‰)`).join(' ');
    console.log(`  #${c.id} ${c.miner.slice(0, 8)}… ${c.precision} ${c.dims.join('×')} ${c.status}`
      + `${c.root ? ` root ${c.root.slice(0, 18)}…` : ''}${c.openedLeaves.length ? ` opened ${c.openedLeaves.length}` : ''}${votes ? ` verdicts ${votes}` : ''}`);
  }
  console.log('\nRanking');
  a.ranking.forEach((r, i) => console.log(`  ${i + 1}. ${r.miner} score ${pct(r.total)} share ${pct(r.share)}`));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const url = args.find((a) => !a.startsWith('--')) || 'ws://127.0.0.1:9944';
  const api = await ApiPromise.create({ provider: new WsProvider(url, false), noInitWarn: true, throwOnConnect: true })
    .catch((e) => { console.error(`cannot reach a PoG node at ${url}: ${e.message}`); process.exit(1); });
  try {
    const a = await audit(api);
    if (args.includes('--json')) console.log(JSON.stringify(a, null, 2));
    else print(a);
  } finally {
    await api.disconnect();
  }
}
