// A bounded flood of tipped remarks that keeps every block's ordinary space full (issue 11), for
// tests that check that PoG duties (commit, reveal, verdict) still land in their windows.
import { Keyring } from '@polkadot/api';

const UNIT = 10n ** 12n;
/** Bytes per remark: 39 of them fill the 3.75 MiB that ordinary transactions may use in a block. */
export const REMARK_BYTES = 100_000;
/** A block's ordinary length: 75% of 5 MiB. */
export const ORDINARY_BYTES = 0.75 * 5 * 1024 * 1024;

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
  let stopped = false;
  let busy = false;
  const unsubscribe = await api.rpc.chain.subscribeNewHeads(async (header) => {
    if (busy || stopped) return;
    busy = true;
    try {
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
      for (let want = queued - (sent - included); want > 0 && sent < max && !stopped; want -= 1) {
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
  let result;
  const stop = () => (result ??= (async () => {
    stopped = true;
    unsubscribe();
    while (busy) await new Promise((r) => setTimeout(r, 50));
    let paid = 0n;
    for (const [i, f] of flooders.entries()) paid += before[i] - (await api.query.system.account(f.address)).data.free.toBigInt();
    return { sent, included, paid: Number(paid / (UNIT / 1000n)) / 1000 };
  })());
  return { blocks, stop };
}
