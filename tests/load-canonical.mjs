// Reads the canonical chain of a stopped `load.mjs --validators 4` run from Alice's node (the run's
// directory holds its spec and base path) and counts the round's outcomes, verdicts and block
// figures on canonical blocks only (block times from each block's BABE slot; weights and events
// where the node still keeps the state, its last 240 blocks):
//
//   node tests/load-canonical.mjs /tmp/pog-load-XXXX out.json
//
// The four-validator result in benchmarking/load/ was read so: the run's own summary counted
// blocks of forks too (load.mjs now keeps the canonical chain's blocks only).
import { startNode, connect } from './lib/node.mjs';
const dir = process.argv[2];
const node = await startNode(['--chain', `${dir}/spec.json`, '--base-path', `${dir}/alice`, '--node-key', '1'.padStart(64, '0')], { name: 'canon', logDir: '/tmp' });
const api = await connect(node.url);
const last = (await api.rpc.chain.getHeader()).number.toNumber();
const out = { last, blocks: [], passed: new Set(), otherOutcomes: {}, verdicts: 0, decided: 0, commits: 0, minersSettled: 0, noState: [] };
const maxRef = api.consts.system.blockWeights.maxBlock.refTime.toBigInt();
for (let n = 1; n <= last; n++) {
  const hash = await api.rpc.chain.getBlockHash(n);
  const rawHeader = await api._rpcCore.provider.send('chain_getHeader', [hash.toHex()]);
  const logs = rawHeader.digest.logs.map((l) => api.registry.createType('DigestItem', l));
  const pre = logs.find((l) => l.isPreRuntime && l.asPreRuntime[0].toString() === 'BABE').asPreRuntime[1];
  const raw = api.registry.createType('RawBabePreDigest', pre);
  const slot = (raw.isPrimary ? raw.asPrimary : raw.isSecondaryPlain ? raw.asSecondaryPlain : raw.asSecondaryVRF).slotNumber.toNumber();
  const ts = slot * 6000;
  let percent = null; let events = null;
  if (n < last - 240) { out.noState.push(n); out.blocks.push({ number: n, ms: ts, percent }); continue; }
  try {
    const at = await api.at(hash);
    const [w, ev] = await Promise.all([at.query.system.blockWeight(), at.query.system.events()]);
    const ref = w.normal.refTime.toBigInt() + w.operational.refTime.toBigInt() + w.mandatory.refTime.toBigInt();
    percent = Number((ref * 10000n) / maxRef) / 100; events = ev;
  } catch { out.noState.push(n); }
  const b = { number: n, ms: ts, percent };
  if (events) {
    const count = (s, m) => events.filter(({ event }) => event.section === s && event.method === m).length;
    Object.assign(b, { commits: count('pog', 'RootsCommitted'), verdicts: count('pog', 'VerdictSubmitted'), decided: count('pog', 'VerificationFinished'), settled: count('pog', 'MinerSettled'), newSession: count('session', 'NewSession') > 0 });
    out.commits += b.commits; out.verdicts += b.verdicts; out.decided += b.decided; out.minersSettled += b.settled;
    for (const { event } of events) {
      if (event.section === 'pog' && event.method === 'MinerSettled') {
        event.data.outcomes.forEach(([, o], gpu) => {
          const k = JSON.stringify(o.toJSON());
          if (k === '{"passed":null}') out.passed.add(`${event.data.miner}/${gpu}`);
          else out.otherOutcomes[k] = (out.otherOutcomes[k] || 0) + 1;
        });
      }
    }
  }
  out.blocks.push(b);
}
out.passed = out.passed.size;
const gaps = out.blocks.slice(1).map((b, i) => b.ms - out.blocks[i].ms);
out.blockTimeMs = { mean: gaps.reduce((a, b) => a + b, 0) / gaps.length, min: Math.min(...gaps), max: Math.max(...gaps) };
const known = out.blocks.filter((b) => b.percent !== null && !b.newSession);
out.heaviest = known.reduce((a, b) => (b.percent > a.percent ? b : a));
out.rotations = out.blocks.filter((b) => b.newSession);
console.log(JSON.stringify({ ...out, blocks: undefined }, null, 1));
const { writeFileSync } = await import('node:fs');
writeFileSync(process.argv[3], JSON.stringify(out, null, 1));
await api.disconnect(); await node.stop();
