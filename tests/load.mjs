#!/usr/bin/env node
// Load benchmark (run by hand; not part of CI): registers N miners (default 1,000) on a fresh dev
// chain, one of them a real CPU-backend agent, and follows one whole re-validation period —
// challenges issued by Alice's off-chain worker, the absent miners' challenges expiring, the
// agent's challenge verified — reporting block production times and the largest block weight.
//
//   node tests/load.mjs [N] [--json FILE]       (needs the release pog-node and offchain-gpu)
import { writeFileSync } from 'node:fs';
import { Keyring } from '@polkadot/api';
import { connect, runAgent, startNode, waitFinalized } from './lib/node.mjs';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) || 1000);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const UNIT = 10n ** 12n;
const log = (...m) => console.log(`[load ${new Date().toISOString().slice(11, 19)}]`, ...m);

const node = await startNode(['--dev', '--tmp', '--rpc-max-connections', '2000', '--pool-limit', '20000', '--pool-kbytes', '200000'], { name: 'load' });
const api = await connect(node.url);
try {
  await waitFinalized(api, 1, 90_000);
  const keyring = new Keyring({ type: 'sr25519' });
  const alice = keyring.addFromUri('//Alice');
  const cpuRef = (await api.call.pogApi.profiles()).find(([, p]) => Buffer.from(p.name.toU8a(true)).toString() === 'cpu-reference')[0];

  // One period long enough for one validator to issue every miner's round (16 per block).
  const period = Math.ceil(N / 16) + 20;
  const config = (await api.query.pog.configuration()).toJSON();
  await new Promise((resolve, reject) => api.tx.sudo.sudo(api.tx.pog.setConfig({ ...config, period }))
    .signAndSend(alice, ({ status, dispatchError }) => { if (dispatchError) reject(new Error(dispatchError.toString())); if (status.isInBlock) resolve(); }));
  log(`period set to ${period} blocks for ${N} miners`);

  // Blocks: timestamp and weight of each.
  const blocks = [];
  const maxRef = api.consts.system.blockWeights.maxBlock.refTime.toBigInt();
  const unsub = await api.rpc.chain.subscribeNewHeads(async (h) => {
    const at = await api.at(h.hash);
    const [now, weight, events] = await Promise.all([at.query.timestamp.now(), at.query.system.blockWeight(), at.query.system.events()]);
    const ref = weight.normal.refTime.toBigInt() + weight.operational.refTime.toBigInt() + weight.mandatory.refTime.toBigInt();
    const count = (name) => events.filter(({ event }) => event.section === 'pog' && event.method === name).length;
    blocks.push({
      number: h.number.toNumber(), ms: now.toNumber(), refTime: Number(ref), percent: Number((ref * 10000n) / maxRef) / 100,
      extrinsics: 0, issued: count('ChallengeIssued'), failed: count('ChallengeFailed'), passed: count('ChallengePassed'),
      registered: count('MinerRegistered'),
    });
  });

  // Fund N accounts from Alice, then each registers one cpu-reference GPU.
  const miners = Array.from({ length: N - 1 }, (_, i) => keyring.addFromUri(`//load//${i}`));
  let nonce = (await api.rpc.system.accountNextIndex(alice.address)).toNumber();
  for (const m of miners) await api.tx.balances.transferKeepAlive(m.address, 20n * UNIT).signAndSend(alice, { nonce: nonce++ });
  for (;;) {
    const b = await api.query.system.account(miners[miners.length - 1].address);
    if (b.data.free.toBigInt() > 0n) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  log(`funded ${miners.length} accounts`);
  const hw = { cpuCores: 16, cpuModel: 'load test', ramMib: 65536, diskGib: 1000 };
  for (const [i, m] of miners.entries()) {
    const uuid = '0x' + i.toString(16).padStart(32, '0');
    await api.tx.pog.registerMiner([{ profile: cpuRef, count: 1, uuids: [uuid] }], hw).signAndSend(m, { nonce: 0 });
  }
  // The one real miner.
  const reg = await runAgent(['register', '--url', node.url, '--suri', '//Charlie', '--backend', 'cpu'], { name: 'register' });
  if (reg.code !== 0) throw new Error(`agent register failed: see ${reg.log}`);
  for (;;) {
    if ((await api.query.pog.minerCount()).toNumber() >= N) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  const registeredAt = blocks.length ? blocks[blocks.length - 1].number : 0;
  log(`${N} miners registered by block #${registeredAt}`);
  const agent = runAgent(['run', '--url', node.url, '--suri', '//Charlie', '--backend', 'cpu', '--exit-after', '1', '--state-dir', `/tmp/pog-load-${process.pid}`], { name: 'miner', background: true });

  // Follow one period plus the expiry of its last challenges.
  const until = registeredAt + period + 15;
  while (!blocks.length || blocks[blocks.length - 1].number < until) await new Promise((r) => setTimeout(r, 3000));
  unsub();
  await agent.stop();

  const after = blocks.filter((b) => b.number > registeredAt);
  const gaps = blocks.slice(1).map((b, i) => b.ms - blocks[i].ms);
  const sum = (k) => after.reduce((s, b) => s + b[k], 0);
  const heaviest = blocks.reduce((a, b) => (b.percent > a.percent ? b : a));
  const result = {
    miners: N, period, blocks: blocks.length,
    blockTimeMs: { mean: Math.round(gaps.reduce((a, b) => a + b, 0) / gaps.length), max: Math.max(...gaps), min: Math.min(...gaps) },
    heaviestBlock: heaviest,
    challengesIssued: sum('issued'), challengesFailed: sum('failed'), challengesPassed: sum('passed'),
  };
  log(JSON.stringify(result, null, 2));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ result, blocks }, null, 2));
} finally {
  await api.disconnect();
  await node.stop();
}
