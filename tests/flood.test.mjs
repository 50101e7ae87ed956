// Integration test (issue 11): a flood of tipped remarks that fills the ordinary space of every
// block does not keep an honest miner's commit, its reveal or the validator's verdict out of their
// windows. Commits, reveals and verdicts are Operational duties with the highest pool priority
// (pallet-pog's CheckDuty); the remarks tip 1 POG each, which outranked any zero-tip commit before.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Keyring } from '@polkadot/api';
import { connect, runAgent, startNode, stopAll, waitFinalized, waitSettled } from './lib/node.mjs';

const UNIT = 10n ** 12n;
/** Bytes per remark: 39 of them fill the 3.75 MiB that ordinary transactions may use in a block. */
const REMARK_BYTES = 100_000;
/** Remarks kept waiting in the pool: about two blocks' worth, so every block is filled. */
const QUEUED = 80;
/** The flood is bounded: never more than this many remarks in all. */
const MAX_REMARKS = 1_500;
/** A block's ordinary length: 75% of 5 MiB. */
const ORDINARY_BYTES = 0.75 * 5 * 1024 * 1024;

let node;
let api;
let miner;
let unsubscribe = () => {};
let stopped = false;
let busy = false;

/** Stops the flood and waits for its block handler to finish, so nothing runs after the test. */
async function stopFlood() {
  stopped = true;
  unsubscribe();
  while (busy) await new Promise((r) => setTimeout(r, 50));
}

after(async () => {
  await stopFlood();
  await stopAll({ agents: miner ? [miner] : [], api, node });
});

test('a flood of tipped remarks does not delay PoG duties past their windows', { timeout: 540_000 }, async () => {
  node = await startNode(['--dev', '--tmp'], { name: 'dev-flood' });
  api = await connect(node.url);
  await waitFinalized(api, 1, 90_000);
  const keyring = new Keyring({ type: 'sr25519' });
  const charlie = keyring.addFromUri('//Charlie');
  const common = ['--url', node.url, '--suri', '//Charlie'];
  const reg = await runAgent(['register', ...common, '--backend', 'cpu'], { name: 'register' });
  assert.equal(reg.code, 0, readFileSync(reg.log, 'utf8'));

  const flooders = ['//Dave', '//Eve', '//Ferdie', '//Bob'].map((u) => keyring.addFromUri(u));
  const nonces = [];
  const before = [];
  for (const f of flooders) {
    nonces.push((await api.rpc.system.accountNextIndex(f.address)).toNumber());
    before.push((await api.query.system.account(f.address)).data.free.toBigInt());
  }
  const remark = `0x${'77'.repeat(REMARK_BYTES)}`;
  let sent = 0;
  let included = 0;
  /** Per block: its number, the round's index and phase after it, and the ordinary bytes it used. */
  const blocks = [];
  unsubscribe = await api.rpc.chain.subscribeNewHeads(async (header) => {
    if (busy || stopped) return;
    busy = true;
    try {
      const hash = header.hash;
      const [block, round] = await Promise.all([api.rpc.chain.getBlock(hash), api.query.pog.round.at(hash)]);
      const remarks = block.block.extrinsics.filter((x) => x.method.section === 'system' && x.method.method === 'remark');
      included += remarks.length;
      const bytes = remarks.reduce((n, x) => n + x.encodedLength, 0);
      const r = round.unwrap();
      blocks.push({ number: header.number.toNumber(), round: r.index.toNumber(), phase: r.phase.toString(), bytes });
      for (let want = QUEUED - (sent - included); want > 0 && sent < MAX_REMARKS && !stopped; want -= 1) {
        const k = sent % flooders.length;
        const tx = api.tx.system.remark(remark);
        await tx.signAsync(flooders[k], { nonce: nonces[k]++, tip: UNIT });
        tx.send().catch(() => {});
        sent += 1;
      }
    } catch (e) {
      if (!stopped) throw e;
    } finally {
      busy = false;
    }
  });

  const passed = waitSettled(api, charlie.address, 420_000, "Charlie's GPU to be settled under the flood");
  const stateDir = (await import('node:fs')).mkdtempSync('/tmp/pog-state-');
  miner = runAgent(['run', ...common, '--backend', 'cpu', '--state-dir', stateDir, '--exit-after', '1'],
    { name: 'run', background: true });
  const ev = await passed;
  await stopFlood();
  const { code, log } = await miner.done;
  assert.equal(code, 0, readFileSync(log, 'utf8'));

  // The flood filled every block of the round's commit and reveal windows…
  const window = blocks.filter((b) => b.round === ev.round && (b.phase === 'Commit' || b.phase === 'Reveal'));
  assert.ok(window.length >= 5, `the round's windows were watched: ${JSON.stringify(window)}`);
  const fullness = window.map((b) => b.bytes / ORDINARY_BYTES);
  assert.ok(Math.min(...fullness) >= 0.9,
    `every block of the windows was ≥ 90% full of tipped remarks: ${fullness.map((f) => f.toFixed(2)).join(' ')}`);
  assert.ok(sent <= MAX_REMARKS);
  // …and the commit, the reveal and the verdict still landed in time.
  assert.equal(ev.outcome, 'Passed', `the honest miner's round under the flood: ${ev.outcomes}`);

  let paid = 0n;
  for (const [i, f] of flooders.entries()) paid += before[i] - (await api.query.system.account(f.address)).data.free.toBigInt();
  console.log(`flood: ${included} remarks of ${REMARK_BYTES} bytes included (${sent} sent), `
    + `windows of round ${ev.round}: ${window.length} blocks, fullness ${fullness.map((f) => f.toFixed(2)).join(' ')}, `
    + `paid ${Number(paid / (UNIT / 1000n)) / 1000} POG (tips included)`);
});
