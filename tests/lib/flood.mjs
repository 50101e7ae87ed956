// A bounded flood of tipped remarks that keeps every block's ordinary space full (issue 11), for
// tests that check that PoG duties (commit, reveal, verdict) still land in their windows.
import { Keyring } from '@polkadot/api';

const UNIT = 10n ** 12n;
/** Bytes per remark: 39 of them fill the 3.75 MiB that ordinary transactions may use in a block. */
export const REMARK_BYTES = 100_000;
/** A block's ordinary length: 75% of 5 MiB. */
export const ORDINARY_BYTES = 0.75 * 5 * 1024 * 1024;

/**
 * Runs `handler(header)` at every new block, one at a time (a block that arrives while it runs is
 * skipped). Returns `stop()`, resolving once no handler is running, so nothing outlives a test.
 */
async function everyNewBlock(api, handler) {
  let stopped = false;
  let busy = false;
  const unsubscribe = await api.rpc.chain.subscribeNewHeads(async (header) => {
    if (busy || stopped) return;
    busy = true;
    try {
      await handler(header, () => stopped);
    } catch (e) {
      if (!stopped) throw e;
    } finally {
      busy = false;
    }
  });
  return async () => {
    stopped = true;
    unsubscribe();
    while (busy) await new Promise((r) => setTimeout(r, 50));
  };
}

/**
 * Starts flooding from `senders` (dev URIs): at every new block, tops the pool up to `queued`
 * remarks of `REMARK_BYTES` bytes, each tipping 1 POG, never more than `max` in all. Each block
 * is recorded as { number, round, phase, bytes }, `bytes` the ordinary bytes its remarks used.
 * Returns { blocks, stop() }; `stop()` resolves with { sent, included, paid } (paid in POG, tips
 * included) once no handler is running, so nothing outlives the test.
 */
export async function startFlood(api, { senders = ['//Dave', '//Eve', '//Ferdie', '//Bob'], queued = 80, max = 1_500 } = {}) {
  const keyring = new Keyring({ type: 'sr25519' });
  const flooders = senders.map((u) => keyring.addFromUri(u));
  const nonces = [];
  const before = [];
  for (const f of flooders) {
    nonces.push((await api.rpc.system.accountNextIndex(f.address)).toNumber());
    before.push((await api.query.system.account(f.address)).data.free.toBigInt());
  }
  const remark = `0x${'77'.repeat(REMARK_BYTES)}`;
  const blocks = [];
  let sent = 0;
  let included = 0;
  const stopLoop = await everyNewBlock(api, async (header, stopped) => {
    const hash = header.hash;
    const [block, round] = await Promise.all([api.rpc.chain.getBlock(hash), api.query.pog.round.at(hash)]);
    const remarks = block.block.extrinsics.filter((x) => x.method.section === 'system' && x.method.method === 'remark');
    included += remarks.length;
    const r = round.unwrap();
    blocks.push({
      number: header.number.toNumber(),
      round: r.index.toNumber(),
      phase: r.phase.toString(),
      bytes: remarks.reduce((n, x) => n + x.encodedLength, 0),
    });
    for (let want = queued - (sent - included); want > 0 && sent < max && !stopped(); want -= 1) {
      const k = sent % flooders.length;
      const tx = api.tx.system.remark(remark);
      await tx.signAsync(flooders[k], { nonce: nonces[k]++, tip: UNIT });
      tx.send().catch(() => {});
      sent += 1;
    }
  });
  let result;
  const stop = () => (result ??= (async () => {
    await stopLoop();
    let paid = 0n;
    for (const [i, f] of flooders.entries()) paid += before[i] - (await api.query.system.account(f.address)).data.free.toBigInt();
    return { sent, included, paid: Number(paid / (UNIT / 1000n)) / 1000 };
  })());
  return { blocks, stop };
}

/**
 * Starts a duty flood (the review's N1 and the node crash of issue 23): `suri`, a registered miner
 * taking part in the round, sends at every new block of a commit phase `perBlock` `commit_roots`
 * naming GPUs it does not have, one `commit_roots` and one `commit_memory` naming its GPU 0 twice,
 * each signed mortal(4) so that, were duties tied in the pool, it would be ordered before the
 * agent's mortal(64) ones. Each submission is recorded as accepted into the pool or refused with
 * the pool's error code (`InvalidTransaction::Custom`, the pallet error's index).
 * Returns { stop() }, resolving with { blocks, sent, accepted, refused: { code: count } }.
 */
export async function startDutyFlood(api, suri, { perBlock = 8 } = {}) {
  const attacker = new Keyring({ type: 'sr25519' }).addFromUri(suri);
  let nonce = (await api.rpc.system.accountNextIndex(attacker.address)).toNumber();
  const root = `0x${'ab'.repeat(32)}`;
  const report = { elapsedMs: 1, intervalMs: 1, traceGflops: [] };
  const result = { blocks: 0, sent: 0, accepted: 0, refused: {} };
  let unknown = 100;
  const stop = await everyNewBlock(api, async (header, stopped) => {
    const round = (await api.query.pog.round.at(header.hash)).unwrap();
    if (round.phase.toString() !== 'Commit') return;
    result.blocks += 1;
    const index = round.index.toNumber();
    const calls = [];
    for (let i = 0; i < perBlock; i += 1) calls.push(api.tx.pog.commitRoots(index, [{ gpu: unknown++, root, report }]));
    calls.push(api.tx.pog.commitRoots(index, [{ gpu: 0, root, report }, { gpu: 0, root, report }]));
    calls.push(api.tx.pog.commitMemory(index, [{ gpu: 0, root }, { gpu: 0, root }]));
    for (const tx of calls) {
      if (stopped()) break;
      // Mortal for 4 blocks from the block just imported (polkadot.js would otherwise count the
      // era from the finalised head, which a flooded chain may leave more than 4 blocks behind).
      const era = api.createType('ExtrinsicEra', { current: header.number.toNumber(), period: 4 });
      await tx.signAsync(attacker, { nonce, era, blockHash: header.hash });
      result.sent += 1;
      try {
        await tx.send();
        result.accepted += 1;
        nonce += 1;
      } catch (e) {
        const code = String(e.message).match(/Custom error: (\d+)/)?.[1] ?? String(e.message);
        result.refused[code] = (result.refused[code] ?? 0) + 1;
      }
    }
  });
  let stopping;
  return { stop: () => (stopping ??= stop().then(() => result)) };
}
