// One processor cannot answer two accounts' challenges of one round: both open at the round's
// start, and each takes more than half of its window. A dev chain measures this machine's CPU
// prover in round 1, root adds a profile claiming that rate (so one challenge alone fits its
// window), and in round 2 two accounts claiming it are answered by two agents on the same
// cores: at least one of them misses its deadline. In round 3 one account claims two units of that
// profile and answers both with the same CPU: one of the two misses. (If the CPU ran much faster
// in rounds 2 and 3 than in round 1, both are repeated once at the rate they ran at.) Sixteen
// units that one CPU can answer all pass: tests/dev-node.test.mjs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@polkadot/api';
import { connect, devChain, runAgent, sendAndWait, startNode, stopAll, waitFinalized, waitForEvent, waitSettled } from './lib/node.mjs';

const dir = mkdtempSync(join(tmpdir(), 'pog-shared-'));
const keyring = new Keyring({ type: 'sr25519' });
let node;
let api;
const agents = [];

after(() => stopAll({ agents, api, node }));

async function register(suri, name, profile, extra = []) {
  const reg = await runAgent(['register', '--url', node.url, '--suri', suri, '--backend', 'cpu', ...(profile ? ['--profile', profile] : []), ...extra],
    { name: `${name}-register`, logDir: dir });
  assert.equal(reg.code, 0, readFileSync(reg.log, 'utf8'));
  return keyring.addFromUri(suri).address;
}

function run(suri, name, extra = []) {
  const a = runAgent(['run', '--url', node.url, '--suri', suri, '--backend', 'cpu', '--state-dir', join(dir, name), ...extra],
    { name, logDir: dir, background: true });
  agents.push(a);
  return a;
}

test('one CPU serving two accounts, or two claimed units, misses at least one of their challenges', { timeout: 1_200_000 }, async () => {
  // Root's calls and the three registrations are in by block 8: round 1 starts by block 15,
  // the period the test keeps.
  node = await startNode(devChain({ period: 15 }), { name: 'dev', logDir: dir });
  api = await connect(node.url);
  await waitFinalized(api, 1, 90_000);
  const alice = keyring.addFromUri('//Alice');
  // Root's call: 'Ok', or the name of the error it was refused with. Alice is also the dev
  // chain's validator, whose worker votes from her pog! account: her calls land at any time.
  const sudoOutcome = async (call) => {
    const events = await sendAndWait(api, api.tx.sudo.sudo(call), alice);
    const result = events.find(({ event }) => api.events.sudo.Sudid.is(event)).event.data[0];
    if (result.isOk) return 'Ok';
    return result.asErr.isModule ? api.registry.findMetaError(result.asErr.asModule).name : result.asErr.toString();
  };
  const sudo = async (call) => assert.equal(await sudoOutcome(call), 'Ok', 'root call succeeded');
  // 10 s challenges with 2 s of slack: a window is expected / (1 − tolerance) + 2 s. The rounds
  // after the first are shorter than dev's: the shortest reveal and verdict windows (nothing here
  // is revealed or voted on that an assertion reads) make a round about 13 blocks, and the
  // genesis `period` of 15 (above) starts the next one within two blocks of its end.
  const config = (await api.query.pog.configuration()).toJSON();
  assert.equal(config.period, 15, 'the genesis period');
  await sudo(api.tx.pog.setConfig({ ...config, targetMs: 10_000, slackMs: 2_000, revealWindow: 2, verdictWindow: 3 }));

  // Round 1: the CPU prover alone, on all cores as the two agents will run, measures this
  // machine's GEMM (a profile like cpu-reference without its memory phase, so that the GEMM alone
  // is timed and nothing else is due in a 2 s slack). The two accounts register now and answer
  // nothing in round 1.
  const [, { figures: ref }] = (await api.call.pogApi.profiles())
    .find(([, p]) => Buffer.from(p.name.toU8a(true)).toString() === 'cpu-reference');
  await sudo(api.tx.pog.addProfile({ name: 'cpu-gemm', figures: { vramMib: ref.vramMib, gflops: ref.gflops, int8Gops: 0, tolerancePercent: ref.tolerancePercent, perCore: false } }));
  const solo = await register('//Charlie', 'solo', 'cpu-gemm');
  const [dave, eve] = [await register('//Dave', 'dave'), await register('//Eve', 'eve')];
  const committed = waitForEvent(api, (e) => (api.events.pog.RootsCommitted.is(e) && e.data.miner.toString() === solo ? e.data : null),
    300_000, 'the measuring commitment');
  run('//Charlie', 'solo', ['--exit-after', '1']);
  const ev = await committed;
  const round = ev.round.toNumber();
  // Round 1's sample, watched from now: the profile and the two updates below can outlast round
  // 1's commit window (the sample was once drawn before a watch set up after them began).
  const sampled = waitForEvent(api, (e) => (api.events.pog.SampleDrawn.is(e) && e.data.round.toNumber() === round ? e : null),
    300_000, 'round 1 sample');
  const c = (await api.call.pogApi.challenge(round, solo, 0)).unwrap();
  const { m, n, k } = c.params.dims;
  const elapsedMs = c.commitment.unwrap().report.elapsedMs.toNumber();
  const gflops = (2 * m.toNumber() * n.toNumber() * k.toNumber()) / elapsedMs / 1e6;

  // A profile claiming the measured rate, rounded up to whole GFLOPS: at r = claimed / measured
  // (1 ≤ r < 2), a challenge alone takes r × expected. Its tolerance puts the window, expected /
  // (1 − tolerance) + 2 s, at SPARE × r × expected: alone fits with 20% to spare, and two on one CPU
  // (2r) miss it unless the CPU runs 2 / SPARE ≈ 1.67× faster than measured. (What is checked live
  // is only that two miss; one alone passing is tests/dev-node.test.mjs's.) Without a memory phase,
  // the GEMM is sized to the target plus the walks' time.
  const SPARE = 1.2;
  const [, { figures: reference }] = (await api.call.pogApi.profiles())
    .find(([, p]) => Buffer.from(p.name.toU8a(true)).toString() === 'cpu-reference');
  const gemmTargetMs = 10_000 + config.memory.walkMs;
  const addMeasuredProfile = async (name, rate) => {
    const claim = Math.ceil(rate);
    const tolerance = Math.max(0, Math.round(100 * (1 - 1 / ((claim / rate) * SPARE - 2_000 / gemmTargetMs))));
    await sudo(api.tx.pog.addProfile({ name, figures: { vramMib: reference.vramMib, gflops: Array(5).fill(claim), int8Gops: 0, tolerancePercent: tolerance, perCore: false } }));
    return { name, rate, claim, tolerance };
  };
  let profile = await addMeasuredProfile('cpu-measured', gflops);
  for (const [suri, name] of [['//Dave', 'dave'], ['//Eve', 'eve']]) {
    const up = await runAgent(['register', '--update', '--url', node.url, '--suri', suri, '--backend', 'cpu', '--profile', profile.name],
      { name: `${name}-update`, logDir: dir });
    assert.equal(up.code, 0, readFileSync(up.log, 'utf8'));
  }
  await sampled;

  // The test holds while the CPU runs at the rate it was measured at. A CI machine once measured
  // 1.4 GFLOPS in round 1 and answered both units of the last round (its cores were busier in
  // round 1). So the premise is checked where it can fail: when every root of a round lands, the
  // agents' own GEMM times give the CPU's rate in that round (two accounts at once: each at half
  // of it; two units of one account: each alone, one after the other). At 0.9 × 2 / SPARE of the
  // claimed rate's measure or above, the CPU ran faster than measured: the rate is measured again
  // and both rounds repeated once, with fresh accounts claiming it. Below, the test fails: the
  // chain let two units through a CPU that runs as claimed.
  const records = async (r, who, gpus) => Promise.all(gpus.map(async (g) => (await api.call.pogApi.challenge(r, who, g)).unwrap()));
  const rateOf = (recs, share) => (recs.every((c) => c.commitment.isSome)
    ? Math.min(...recs.map(({ params: { dims }, commitment }) =>
      (2 * dims.m.toNumber() * dims.n.toNumber() * dims.k.toNumber()) / commitment.unwrap().report.elapsedMs.toNumber() / 1e6 * share))
    : null);
  const fasterThanMeasured = (rate) => rate !== null && rate >= 0.9 * (2 / SPARE) * profile.rate;
  const tries = [
    { pair: [['//Dave', 'dave', dave], ['//Eve', 'eve', eve]], units: ['//Ferdie', 'ferdie'] },
    { pair: [['//Dave//stash', 'dave-stash'], ['//Eve//stash', 'eve-stash']], units: ['//Ferdie//stash', 'ferdie-stash'] },
  ];
  let first = round + 1;
  let lastUnits;
  let failure = null;
  for (const [attempt, { pair, units }] of tries.entries()) {
    if (attempt > 0) {
      // Registered once the last round's commit window has closed: they take part in the next.
      for (const p of pair) p[2] = await register(p[0], p[1], profile.name);
      first = (await api.query.pog.miners(pair[0][2])).unwrap().firstRound.toNumber();
    }
    // Two accounts, one CPU.
    const [d, e] = pair.map(([, , who]) => who);
    const both = Promise.all([d, e].map((who) => waitSettled(api, who, 360_000, `${who} in round ${first}`, () => true, first)));
    const closed = waitForEvent(api, (ev) => (api.events.pog.SampleDrawn.is(ev) && ev.data.round.toNumber() === first ? ev : null),
      360_000, `round ${first} sample`);
    const pairAgents = pair.map(([suri, name]) => run(suri, name));
    // Once this round's commit window has closed, the two agents are stopped (their GEMMs are
    // done: a root that landed is read now, and its reveal does not matter), and the two-unit
    // account registers and starts, so that it takes part in the very next round and sees its
    // challenges open: registered after this round is settled, it once missed the next round's
    // start by a block and waited two more rounds.
    await closed;
    const pairRate = rateOf([...await records(first, d, [0]), ...await records(first, e, [0])], 2);
    for (const agent of pairAgents) await agent.stop();
    // One account claims two units of the profile and answers both with the one CPU
    // (`--adversary-extra-gpus 1`: the second claim is a made-up UUID served by the same prover),
    // alone on the machine. A claimed unit is the profile's compute inside the window, not a
    // device: two units take twice the time, and the second misses its deadline.
    const two = await register(units[0], units[1], profile.name, ['--adversary-extra-gpus', '1']);
    const info = (await api.query.pog.miners(two)).unwrap();
    assert.equal(info.claims.reduce((sum, cl) => sum + cl.count.toNumber(), 0), 2, 'two units claimed');
    assert.equal(info.firstRound.toNumber(), first + 1, 'the two-unit account takes part in the next round');
    const settled = waitSettled(api, two, 360_000, `${two} in round ${first + 1}`, () => true, first + 1);
    const drawn = waitForEvent(api, (ev) => (api.events.pog.SampleDrawn.is(ev) && ev.data.round.toNumber() === first + 1 ? ev : null),
      360_000, `round ${first + 1} sample`);
    const unitAgent = run(units[0], units[1]);
    const outcomes = (await both).map((x) => x.outcome);
    await drawn;
    // The commit window closed: a unit without a root missed it.
    const unitRecords = await records(first + 1, two, [0, 1]);
    const unitRate = rateOf(unitRecords, 1);
    lastUnits = unitRecords;
    const what = `(${profile.rate.toFixed(2)} GFLOPS measured, ${profile.claim} claimed, tolerance ${profile.tolerance}%; ` +
      `${pairRate?.toFixed(2) ?? '-'} and ${unitRate?.toFixed(2) ?? '-'} GFLOPS in rounds ${first} and ${first + 1} where every root landed)`;
    const missed = outcomes.includes('MissedCommit') && unitRecords.some((c) => c.commitment.isNone);
    const faster = [pairRate, unitRate].filter(fasterThanMeasured);
    if (missed || faster.length === 0 || attempt === tries.length - 1) {
      const f = await settled;
      failure = missed && f.outcomes.includes('MissedCommit') ? null
        : `one CPU answered two accounts (${outcomes}) or two claimed units (${f.outcomes}) ${what}`;
      break;
    }
    console.log(`the CPU ran faster than measured: rounds ${first} and ${first + 1} repeated ${what}`);
    await unitAgent.stop();
    profile = await addMeasuredProfile(`cpu-measured-${attempt + 1}`, Math.min(...faster));
  }
  assert.equal(failure, null);

  // The sizing did what it says: alone, a challenge takes more than half its window and less
  // than all of it, at the rate measured: the two-unit account's last challenge, of the profile
  // claiming that rate (a missed challenge keeps its parameters; every precision of the profile
  // claims the same rate).
  const view = lastUnits[0];
  const dims = view.params.dims;
  const aloneMs = (2 * dims.m.toNumber() * dims.n.toNumber() * dims.k.toNumber()) / profile.rate / 1e6;
  const windowMs = (view.params.expectedMs.toNumber() * 100) / (100 - profile.tolerance) + 2_000;
  assert.ok(aloneMs > windowMs / 2 && aloneMs < windowMs,
    `alone ${aloneMs.toFixed(0)} ms of a ${windowMs.toFixed(0)} ms window (measured ${profile.rate.toFixed(2)} GFLOPS, claimed ${profile.claim}, tolerance ${profile.tolerance}%)`);
});
