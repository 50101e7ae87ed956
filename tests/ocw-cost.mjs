#!/usr/bin/env node
// Measures the validators' off-chain verification inside the node's WASM on full-size
// challenges (run by hand; not part of CI). A dev chain is set to mainnet-length GEMMs
// (target 120 s); a test miner claims H100s and, with the agent's constant-result adversary,
// commits and reveals at once without computing, so Alice's off-chain worker recomputes the
// sampled entries of two-minute H100 challenges. Their verification times come from the node's
// log ("verified in N ms").
//
//   node tests/ocw-cost.mjs [UNITS]
import { readFileSync } from 'node:fs';
import { Keyring } from '@polkadot/api';
import { connect, runAgent, startNode, waitFinalized } from './lib/node.mjs';

const units = Number(process.argv[2] || 5);
const node = await startNode(['--dev', '--tmp'], { name: 'ocw-cost' });
const api = await connect(node.url);
try {
  await waitFinalized(api, 1, 90_000);
  const keyring = new Keyring({ type: 'sr25519' });
  const alice = keyring.addFromUri('//Alice');
  const dave = keyring.addFromUri('//Dave').address;
  const config = (await api.query.pog.configuration()).toJSON();
  await new Promise((resolve, reject) => api.tx.sudo.sudo(api.tx.pog.setConfig({ ...config, targetMs: 120_000, verdictWindow: 40 }))
    .signAndSend(alice, ({ status, dispatchError }) => { if (dispatchError) reject(new Error(dispatchError.toString())); if (status.isInBlock) resolve(); }));
  const common = ['--url', node.url, '--suri', '//Dave'];
  const reg = await runAgent(['register', ...common, '--backend', 'cpu', '--profile', 'NVIDIA H100 80GB HBM3', '--cpu-units', String(units)], { name: 'register' });
  if (reg.code !== 0) throw new Error(readFileSync(reg.log, 'utf8'));
  const run = await runAgent(['run', ...common, '--backend', 'cpu', '--adversary', 'constant', '--exit-after', String(units), '--state-dir', `/tmp/pog-ocw-${process.pid}`], { name: 'run' });
  if (run.code !== 0) throw new Error(readFileSync(run.log, 'utf8'));
  const rows = [];
  for (const line of readFileSync(node.log, 'utf8').split('\n')) {
    const m = line.match(/round (\d+) miner (\S+) GPU (\d+) (?:FAILS|passes).*verified in (\d+) ms/);
    if (!m) continue;
    const view = await api.call.pogApi.challenge(Number(m[1]), dave, Number(m[3]));
    if (view.isNone) continue;
    const c = view.unwrap().params;
    rows.push({ id: `${m[1]}/${m[3]}`, precision: c.precision.toString(), dims: [c.dims.m, c.dims.n, c.dims.k].map((x) => x.toNumber()), ms: Number(m[4]) });
  }
  console.log('round/GPU | precision | m×n×k | OCW verification (WASM), 64 entries');
  for (const r of rows) console.log(`${r.id} | ${r.precision} | ${r.dims.join('×')} | ${r.ms} ms`);
} finally {
  await api.disconnect();
  await node.stop();
}
