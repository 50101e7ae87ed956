#!/usr/bin/env node
// The auditor's view of a PoG chain, through @polkadot/api: GPU profiles, miners and their claims,
// the current round, challenges with roots, sampled openings, committees and verdicts, each
// GPU's standing (credit or why none), validators' committee records, and scores with their components and
// weight shares. Storage is read with `api.query.pog.*`, the derived views with the pallet's
// runtime API (`api.call.pogApi.*`, no custom RPC).
//
//   node tests/auditor.mjs [ws://127.0.0.1:9944] [--json]
//   node tests/auditor.mjs --light <chain spec file> [--json]
//
// With --light it trusts no node: smoldot, a light client, syncs from the spec's bootnodes, checks
// BABE and GRANDPA itself and reads everything with proofs (docs/auditor.md).
// Exported as `audit(api)` for the integration tests.
import { ApiPromise, WsProvider } from '@polkadot/api';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { lightClient } from './lib/node.mjs';

// What the script prints goes to stdout through `say`; with --light the light client's own log
// (smoldot writes to the console) is sent to stderr, so that `--json` stays parseable.
const say = console.log.bind(console);

const text = (bytes) => Buffer.from(bytes.toU8a(true)).toString();
const ppb = (perbill) => perbill.toNumber();
const pct = (n) => `${(n / 1e7).toFixed(2)}%`;

/** Everything an auditor reads, as plain JSON. */
export async function audit(api) {
  const head = await api.rpc.chain.getHeader();
  const config = (await api.query.pog.configuration()).toJSON();
  const profiles = (await api.call.pogApi.profiles()).map(([id, { name, figures: f }]) => ({
    id: id.toNumber(),
    name: text(name),
    vramMib: f.vramMib.toNumber(),
    gflops: f.gflops.map((g) => g.toNumber()),
    int8Gops: f.int8Gops.toNumber(),
    perCore: f.perCore.isTrue,
    tolerancePercent: f.tolerancePercent.toNumber(),
    memReadMps: f.memReadMps.toNumber(),
    memParentMps: f.memParentMps.toNumber(),
  }));
  const validators = (await api.query.pogValidators.validators()).map((v) => v.toString());
  // Each seated validator: its account, the `pog!` account that sits on committees, its bond and strikes.
  const seated = [];
  for (const [validator, pogAccount] of await api.query.pogValidators.seated()) {
    const bond = await api.query.pogValidators.validatorBonds(validator);
    seated.push({
      validator: validator.toString(),
      pogAccount: pogAccount.toString(),
      bond: bond.isSome ? bond.unwrap().held.toString() : '0',
      strikes: bond.isSome ? bond.unwrap().strikes.toNumber() : 0,
    });
  }

  const round = (await api.call.pogApi.round()).toJSON();
  const miners = [];
  for (const [key] of await api.query.pog.miners.entries()) {
    const who = key.args[0].toString();
    const view = (await api.call.pogApi.miner(who)).unwrap();
    const standing = view.standing.map((s) => ({
      uuid: s.uuid.toHex(),
      profile: s.profile.toNumber(),
      points: s.points.toNumber(),
      verifiedRound: s.verifiedRound.isSome ? s.verifiedRound.unwrap().toNumber() : null,
      zeroReason: s.zeroReason.isSome ? s.zeroReason.unwrap().toString() : null,
    }));
    miners.push({
      miner: who,
      claimed: view.claimed.map(([profile, uuid]) => ({ profile: profile.toNumber(), uuid: uuid.toHex() })),
      hardware: view.hardware.toJSON(),
      deposit: view.deposit.toString(),
      slashed: view.slashed.toString(),
      firstRound: view.firstRound.toNumber(),
      leaving: view.leaving.isTrue,
      standing,
      verified: standing.filter((s) => s.zeroReason === null),
      score: {
        verifiedGpus: view.score.verifiedGpus.toNumber(),
        gpuPoints: view.score.gpuPoints.toNumber(),
        gpu: ppb(view.score.gpu), hardware: ppb(view.score.hardware),
        total: ppb(view.score.total),
      },
      share: ppb(view.share),
      earnings: {
        paid: view.paid.toString(), vesting: view.vesting.toString(),
        released: view.released.toString(), unvestedBurned: view.unvestedBurned.toString(),
      },
    });
  }

  // Every committed challenge of the rounds still in storage (the last few; events hold the rest).
  const challenges = [];
  for (const [key, slots] of await api.query.pog.commitments.entries()) {
    const [r, who] = [key.args[0].toNumber(), key.args[1].toString()];
    for (let gpu = 0; gpu < slots.unwrap().length; gpu += 1) {
      const view = await api.call.pogApi.challenge(r, who, gpu);
      if (view.isNone) continue;
      const c = view.unwrap();
      const commitment = c.commitment.isSome ? c.commitment.unwrap() : null;
      const openings = await api.query.pog.openings(r, who, gpu);
      const walks = await api.query.pog.walkResults(r, who, gpu);
      const memory = c.params.memory.isSome ? c.params.memory.unwrap() : null;
      const memoryCommitment = c.memoryCommitment.isSome ? c.memoryCommitment.unwrap() : null;
      challenges.push({
        round: r,
        miner: who,
        gpu,
        uuid: c.params.uuid.toHex(),
        profile: c.params.profile.toNumber(),
        precision: c.params.precision.toString(),
        dims: [c.params.dims.m.toNumber(), c.params.dims.n.toNumber(), c.params.dims.k.toNumber()],
        deadlineMs: c.params.deadlineMs.toNumber(),
        memory: memory && {
          seed: memory.challenge.spec.seed.toHex(),
          datasetItems: memory.challenge.spec.datasetItems.toString(),
          parents: memory.challenge.spec.parents.toNumber(),
          // a per-core CPU unit's phase: its lanes (0: a GPU's walks), whose links are the walks
          lanes: memory.challenge.spec.lanes.toNumber(),
          walks: memory.challenge.walks.toString(),
          deadlineMs: memory.deadlineMs.toNumber(),
          root: memoryCommitment ? memoryCommitment.root.toHex() : null,
          committedMs: memoryCommitment ? memoryCommitment.committedMs.toNumber() : null,
        },
        root: commitment ? commitment.root.toHex() : null,
        elapsedMs: commitment ? commitment.report.elapsedMs.toNumber() : null,
        sampleSeed: c.sampleSeed.isSome ? c.sampleSeed.unwrap().toHex() : null,
        committee: c.committee.map((v) => v.toString()),
        openedLeaves: openings.isSome ? openings.unwrap().map((o) => o.leaf.toNumber()) : [],
        openedWalks: walks.isSome ? walks.unwrap().map(([w]) => w.toString()) : [],
        verdicts: c.votes.map(([v, verdict]) => ({
          validator: v.toString(),
          passed: verdict.passed.isTrue,
          entriesChecked: verdict.reported.entriesChecked.toNumber(),
          worstPermille: verdict.reported.worstPermille.toNumber(),
          walksChecked: verdict.reported.walksChecked.toNumber(),
          failedWalk: verdict.failedWalk.isSome ? verdict.failedWalk.unwrap().toString() : null,
        })),
        status: c.verification.isSome ? c.verification.unwrap().toString() : (commitment ? 'Committed' : 'Issued'),
      });
    }
  }
  challenges.sort((a, b) => a.round - b.round || a.miner.localeCompare(b.miner) || a.gpu - b.gpu);
  const validatorStats = (await api.query.pogValidators.validatorStats.entries()).map(([k, v]) => ({
    validator: k.args[0].toString(), ...v.toJSON(),
  }));

  const ranking = (await api.call.pogApi.ranking()).map((r) => ({
    miner: r.miner.toString(), total: ppb(r.score.total), share: ppb(r.share),
  }));
  const r = await api.call.pogApi.rewards();
  const rewards = {
    rules: r.rules.toJSON(),
    emitted: r.emitted.toString(),
    nextEmission: r.nextEmission.toString(),
    last: r.last.isSome ? r.last.unwrap().toJSON() : null,
    treasury: r.treasury.toString(),
    treasuryBalance: r.treasuryBalance.toString(),
  };
  return {
    block: head.number.toNumber(), config, validators, seated, profiles, round, miners, challenges, validatorStats, ranking, rewards,
  };
}

function print(a) {
  say(`PoG chain at block #${a.block}; validators: ${a.validators.join(', ')}`);
  for (const v of a.seated) {
    say(`  ${v.validator} (pog! ${v.pogAccount}): bond ${v.bond}, strikes ${v.strikes}`);
  }
  say(`\nGPU profiles (${a.profiles.length})`);
  for (const p of a.profiles) {
    say(`  ${String(p.id).padStart(2)} ${p.name.padEnd(28)} ${String(p.vramMib).padStart(7)} MiB  GFLOPS ${p.gflops.join('/')}  int8 GOPS ${p.int8Gops}`
      + `${p.memReadMps ? `  memory ${p.memReadMps}/${p.memParentMps} M reads/parents a second` : '  no memory phase'}${p.perCore ? '  (per CPU core)' : ''}`);
  }
  say(`\nMiners (${a.miners.length})`);
  for (const m of a.miners) {
    const s = m.score;
    say(`  ${m.miner}: ${m.claimed.length} GPU(s) claimed, ${m.verified.length} verified, slashed ${m.slashed}; score ${pct(s.total)} `
      + `(gpu ${pct(s.gpu)}, declared memory and disk ${pct(s.hardware)}); share ${pct(m.share)}`);
    const e = m.earnings;
    say(`      earnings: paid ${e.paid}, vesting ${e.vesting}, released ${e.released}, burned for failures ${e.unvestedBurned}`);
    for (const g of m.standing) say(`      ${g.uuid} ${g.zeroReason ? `0 points: ${g.zeroReason}` : `${g.points} points (verified in round ${g.verifiedRound})`}`);
  }
  say(`\nRound ${a.round.index} (${a.round.phase})`);
  say(`\nChallenges (${a.challenges.length})`);
  for (const c of a.challenges) {
    const votes = c.verdicts.map((v) => `${v.passed ? 'pass' : 'FAIL'}(${v.worstPermille}‰)`).join(' ');
    say(`  round ${c.round} ${c.miner.slice(0, 8)}… GPU ${c.gpu} ${c.precision} ${c.dims.join('×')} ${c.status}`
      + `${c.memory?.root ? ` memory root ${c.memory.root.slice(0, 18)}… (${c.memory.walks} walks)` : ''}`
      + `${c.root ? ` root ${c.root.slice(0, 18)}…` : ''}${c.openedLeaves.length ? ` opened ${c.openedLeaves.length}` : ''}`
      + `${c.openedWalks.length ? ` walks ${c.openedWalks.length}` : ''}${votes ? ` verdicts ${votes}` : ''}`);
  }
  const w = a.rewards;
  say(`\nRewards: ${w.emitted} minted so far, ${w.nextEmission} next round; split miners ${w.rules.miners} validators `
    + `${w.rules.validators} treasury ${w.rules.treasury} (parts per billion), vesting over ${w.rules.vestingRounds} rounds`);
  if (w.last) say(`  round ${w.last.round}: ${w.last.emission} = miners ${w.last.miners} + validators ${w.last.validators} + treasury ${w.last.treasury}`);
  say(`  treasury ${w.treasury}: ${w.treasuryBalance}`);
  say('\nRanking');
  a.ranking.forEach((r, i) => say(`  ${i + 1}. ${r.miner} score ${pct(r.total)} share ${pct(r.share)}`));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const light = args.indexOf('--light');
  const url = light >= 0 ? args[light + 1] : args.find((a) => !a.startsWith('--')) || 'ws://127.0.0.1:9944';
  const connect = async () => {
    if (light < 0) return ApiPromise.create({ provider: new WsProvider(url, 2_000), noInitWarn: true, throwOnConnect: true });
    if (!url) throw new Error('--light needs a chain spec file');
    for (const level of ['log', 'info', 'debug', 'warn']) console[level] = console.error.bind(console);
    return lightClient(readFileSync(url, 'utf8'));
  };
  const api = await connect().catch((e) => { console.error(`cannot reach a PoG chain at ${url}: ${e.message}`); process.exit(1); });
  // a light client reads with proofs, each from a peer: the whole audit is bounded all the same
  const deadline = setTimeout(() => { console.error('the audit read nothing more in 600 s'); process.exit(1); }, 600_000);
  try {
    const a = await audit(api);
    clearTimeout(deadline);
    if (args.includes('--json')) say(JSON.stringify(a, null, 2));
    else print(a);
  } finally {
    await api.disconnect();
  }
}
