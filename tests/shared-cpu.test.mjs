// One processor cannot answer two accounts' challenges of one round: both open at the round's
// start, and each takes more than half of its window. A dev chain measures this machine's CPU
// prover in round 1, root adds a profile claiming that rate (so one challenge alone fits its
// window), and in round 2 two accounts claiming it are answered by two agents on the same
// cores: at least one of them misses its deadline. In round 3 one account claims two units of that
// profile and answers both with the same CPU: one of the two misses. (Sixteen units that one CPU
// can answer all pass: tests/dev-node.test.mjs.)
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@polkadot/api';
import { connect, runAgent, sendAndWait, startNode, stopAll, waitFinalized, waitForEvent, waitSettled } from './lib/node.mjs';

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

test('one CPU serving two accounts, or two claimed units, misses at least one of their challenges', { timeout: 900_000 }, async () => {
  node = await startNode(['--dev', '--tmp'], { name: 'dev', logDir: dir });
  api = await connect(node.url);
  await waitFinalized(api, 1, 90_000);
  const alice = keyring.addFromUri('//Alice');
  // Root's call: 'Ok', or the name of the error it was refused with.
  const sudoOutcome = async (call) => {
    const events = await sendAndWait(api, api.tx.sudo.sudo(call), alice);
    const result = events.find(({ event }) => api.events.sudo.Sudid.is(event)).event.data[0];
    if (result.isOk) return 'Ok';
    return result.asErr.isModule ? api.registry.findMetaError(result.asErr.asModule).name : result.asErr.toString();
  };
  const sudo = async (call) => assert.equal(await sudoOutcome(call), 'Ok', 'root call succeeded');
  // 10 s challenges with 2 s of slack: a window is expected / (1 − tolerance) + 2 s.
  const config = (await api.query.pog.configuration()).toJSON();
  await sudo(api.tx.pog.setConfig({ ...config, targetMs: 10_000, slackMs: 2_000 }));

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
  // (1 − tolerance) + 2 s, at r√2 × expected: alone fits with √2 to spare, and two on one CPU (2r)
  // miss it by as much. (A claim rounded to the nearest GFLOPS once made r 1.285 on a CI machine
  // measuring 1.56 GFLOPS, and left one challenge alone no room in a 10% window.) Without a memory
  // phase, the GEMM is sized to the target plus the walks' time.
  const [, { figures: reference }] = (await api.call.pogApi.profiles())
    .find(([, p]) => Buffer.from(p.name.toU8a(true)).toString() === 'cpu-reference');
  const claimed = Math.ceil(gflops);
  const gemmTargetMs = 10_000 + config.memory.walkMs;
  const tolerance = Math.round(100 * (1 - 1 / ((claimed / gflops) * Math.SQRT2 - 2_000 / gemmTargetMs)));
  await sudo(api.tx.pog.addProfile({ name: 'cpu-measured', figures: { vramMib: reference.vramMib, gflops: Array(5).fill(claimed), int8Gops: 0, tolerancePercent: tolerance, perCore: false } }));
  for (const [suri, name] of [['//Dave', 'dave'], ['//Eve', 'eve']]) {
    const up = await runAgent(['register', '--update', '--url', node.url, '--suri', suri, '--backend', 'cpu', '--profile', 'cpu-measured'],
      { name: `${name}-update`, logDir: dir });
    assert.equal(up.code, 0, readFileSync(up.log, 'utf8'));
  }
  await sampled;

  // Round 2: two accounts, one CPU.
  const both = Promise.all([dave, eve].map((who) => waitSettled(api, who, 360_000, `${who} in round ${round + 1}`, () => true, round + 1)));
  const closed = waitForEvent(api, (e) => (api.events.pog.SampleDrawn.is(e) && e.data.round.toNumber() === round + 1 ? e : null),
    360_000, `round ${round + 1} sample`);
  const agents2 = [run('//Dave', 'dave'), run('//Eve', 'eve')];
  // Round 3's miner registers once round 2's commit window has closed (its GEMMs are done), so
  // that it takes part in the very next round: registered after round 2 is settled, it once
  // missed round 3's start by a block and waited two more rounds.
  await closed;
  const ferdie = await register('//Ferdie', 'ferdie', 'cpu-measured', ['--adversary-extra-gpus', '1']);
  const [d, e] = await both;
  const outcomes = [d.outcome, e.outcome];
  assert.ok(outcomes.includes('MissedCommit'), `one CPU cannot answer both: ${outcomes} (measured ${gflops.toFixed(1)} GFLOPS, claimed ${claimed})`);
  for (const a of agents2) await a.stop();

  // Round 3: one account claims two units of the measured profile and answers both with the one
  // CPU (`--adversary-extra-gpus 1`: the second claim is a made-up UUID served by the same
  // prover), alone on the machine. A claimed unit is the profile's compute inside the window,
  // not a device: two units take twice the time, and the second misses its deadline.
  const ferdieMiner = (await api.query.pog.miners(ferdie)).unwrap();
  assert.equal(ferdieMiner.claims.reduce((s, c) => s + c.count.toNumber(), 0), 2, 'two units claimed');
  const third = ferdieMiner.firstRound.toNumber();
  assert.equal(third, round + 2, 'the extra-GPU account takes part in the round after round 2');
  const settled = waitSettled(api, ferdie, 360_000, `${ferdie} in round ${third}`, () => true, third);
  run('//Ferdie', 'ferdie');
  const f = await settled;
  assert.equal(f.outcomes.length, 2);
  assert.ok(f.outcomes.includes('MissedCommit'), `one CPU cannot answer two claimed units: ${f.outcomes} (measured ${gflops.toFixed(1)} GFLOPS, claimed ${claimed} per unit)`);

  // The sizing did what it says: alone, a challenge takes more than half its window and less
  // than all of it, at the rate measured in round 1. A missed challenge has no record; the next
  // round's has the same shape, every precision of the profile claiming the same rate. It is read
  // from whichever of Dave, Eve and Ferdie is challenged next: a CI run waited for Dave's alone
  // until its timeout, when Dave and Eve had both missed round 2 and Dave was not challenged again.
  let view;
  for (;;) {
    for (const who of [dave, eve, ferdie]) {
      [view] = await api.call.pogApi.challengesOf(who);
      if (view) break;
    }
    if (view) break;
    await new Promise((r) => setTimeout(r, 3_000));
  }
  const dims = view.params.dims;
  const aloneMs = (2 * dims.m.toNumber() * dims.n.toNumber() * dims.k.toNumber()) / gflops / 1e6;
  const windowMs = (view.params.expectedMs.toNumber() * 100) / (100 - tolerance) + 2_000;
  assert.ok(aloneMs > windowMs / 2 && aloneMs < windowMs,
    `alone ${aloneMs.toFixed(0)} ms of a ${windowMs.toFixed(0)} ms window (measured ${gflops.toFixed(2)} GFLOPS, claimed ${claimed}, tolerance ${tolerance}%)`);
});
