// Start and stop a built pog-node for tests, on free ports, and connect @polkadot/api to it.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiPromise, WsProvider } from '@polkadot/api';
import { ScProvider } from '@polkadot/rpc-provider/substrate-connect';
import * as Sc from '@substrate/connect';

/** A release binary the README's commands build (`override` from the environment wins). */
function releaseBinary(name, override) {
  const target = process.env.CARGO_TARGET_DIR
    || join(process.env.XDG_CACHE_HOME || join(process.env.HOME, '.cache'), 'pog-chain', 'target');
  const bin = override || join(target, 'release', name);
  if (!existsSync(bin)) {
    throw new Error(`${name} not found at ${bin}: build it with scripts/test.sh (or cargo build --release -p ${name}; the agent with --features adversary)`);
  }
  return bin;
}

/**
 * The runtime under the next spec_version (`pog_runtime_next`, built beside the node's when
 * POG_UPGRADE_TEST_WASM is set, as scripts/test.sh does; POG_UPGRADE_WASM overrides the path).
 */
export function nextRuntimeWasm() {
  return releaseBinary(join('wbuild', 'pog-runtime', 'pog_runtime_next.compact.compressed.wasm'), process.env.POG_UPGRADE_WASM);
}

/** The node binary. */
export function nodeBinary() {
  return releaseBinary('pog-node', process.env.POG_NODE);
}

/** A port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `run` flags that serve a miner's openings to its committees off chain, on a free local port
 * (`docs/protocol.md` §8, "Openings served off chain").
 */
export async function serveFlags() {
  const port = await freePort();
  return ['--serve-openings', `127.0.0.1:${port}`, '--openings-url', `http://127.0.0.1:${port}/pog`];
}

/**
 * The node's spec of `chain` (`build-spec`, its genesis as a preset's patch) as an object to
 * change, without the bootnode `build-spec` adds (a node of this machine's default port).
 */
export function chainSpec(chain) {
  const spec = JSON.parse(execFileSync(nodeBinary(), ['build-spec', '--chain', chain], { timeout: 60_000, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));
  spec.bootNodes = [];
  return spec;
}

/**
 * The node's arguments for the dev chain (`--dev`) with the protocol's `period` set to `period`
 * at genesis: round 1 starts by block `period` rather than the dev preset's 20th, and later rounds
 * start at least `period` blocks apart. A test whose miners are registered within a few blocks
 * waits that much less. The chain is the dev preset in every other respect (`build-spec --chain
 * dev`, one field changed, the bootnode `build-spec` adds dropped).
 */
export function devChain({ period }) {
  const spec = chainSpec('dev');
  spec.genesis.runtimeGenesis.patch.pog.config.period = period;
  const file = join(mkdtempSync(join(tmpdir(), 'pog-spec-')), 'dev.json');
  writeFileSync(file, JSON.stringify(spec));
  // what `--dev` adds to `--chain dev`, and a network key (`--dev` makes one; a validator of
  // any other chain must be given one)
  return ['--chain', file, '--alice', '--force-authoring', '--tmp', '--rpc-cors', 'all', '--node-key', randomBytes(32).toString('hex')];
}

/**
 * What a light client needs of a node of `chain` (`dev`, `local` or a spec file) that will listen
 * on `p2pPort`: the node's extra arguments (a websocket listener on that port and a network key of
 * its own, so that its peer id is known before it starts) and the chain's raw spec naming it as
 * the one bootnode, written to `dir/light-spec.json`. Returns `{ args, specFile }`.
 */
export function lightClientNode(chain, p2pPort, dir) {
  const keyFile = join(dir, 'node-key');
  // `key generate-node-key` writes the key to the file and prints the peer id on stderr
  const key = spawnSync(nodeBinary(), ['key', 'generate-node-key', '--file', keyFile], { timeout: 60_000, encoding: 'utf8' });
  const peer = (key.stderr ?? '').trim().split('\n').pop();
  if (key.status !== 0 || !/^12D3Koo\w+$/.test(peer)) throw new Error(`generate-node-key failed: ${key.error?.message ?? key.stderr}`);
  const spec = JSON.parse(execFileSync(nodeBinary(), ['build-spec', '--chain', chain, '--raw'],
    { timeout: 60_000, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));
  spec.bootNodes = [`/ip4/127.0.0.1/tcp/${p2pPort}/ws/p2p/${peer}`];
  const specFile = join(dir, 'light-spec.json');
  writeFileSync(specFile, JSON.stringify(spec));
  return { args: ['--listen-addr', `/ip4/127.0.0.1/tcp/${p2pPort}/ws`, '--node-key-file', keyFile], specFile };
}

/**
 * @polkadot/api through smoldot (the version this package pins, never a browser extension's) for
 * the chain spec `spec` (JSON text): resolves once it has synced and read the metadata, rejects
 * after `ms` with the light client stopped (else it keeps the process alive).
 */
export async function lightClient(spec, ms = 120_000) {
  const provider = new ScProvider(Sc, spec);
  await provider.connect({ forceEmbeddedNode: true });
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the light client read no block from the spec's bootnodes in ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([ApiPromise.create({ provider, noInitWarn: true }), late]);
  } catch (e) {
    await provider.disconnect().catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Start pog-node with `args` plus free ports; resolves once its RPC answers.
 * Returns { proc, rpcPort, p2pPort, log, url, stop() }.
 */
export async function startNode(args, { name = 'node', logDir, ports } = {}) {
  const [rpcPort, p2pPort, promPort] = ports || [await freePort(), await freePort(), await freePort()];
  const dir = logDir || mkdtempSync(join(tmpdir(), 'pog-test-'));
  const log = join(dir, `${name}.log`);
  const out = createWriteStream(log);
  const proc = spawn(nodeBinary(), [
    ...args,
    '--rpc-port', String(rpcPort),
    // `--listen-addr` in `args` names the peer-to-peer addresses itself (the node refuses both)
    ...(args.includes('--listen-addr') ? [] : ['--port', String(p2pPort)]),
    '--prometheus-port', String(promPort),
    '--no-telemetry',
    '--no-mdns',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout.pipe(out);
  proc.stderr.pipe(out);
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const url = `ws://127.0.0.1:${rpcPort}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${name} exited early (code ${proc.exitCode}); see ${log}`);
    try {
      const res = await fetch(`http://127.0.0.1:${rpcPort}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'system_health', params: [] }),
      });
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error(`${name} did not open its RPC port ${rpcPort}; see ${log}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const stop = async () => {
    if (proc.exitCode === null) proc.kill('SIGINT');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    const result = await exited;
    clearTimeout(timer);
    return result;
  };
  return { proc, rpcPort, p2pPort, promPort, log, url, stop, exited };
}

/** An @polkadot/api client of a node. */
export async function connect(url) {
  const provider = new WsProvider(url, 1000);
  return ApiPromise.create({ provider, noInitWarn: true, throwOnConnect: true });
}

/** Resolve with the first value of `pick(event)` over new events, or fail after `ms`. */
export function waitForEvent(api, pick, ms, what) {
  return new Promise((resolve, reject) => {
    let unsub;
    const timer = setTimeout(() => {
      if (unsub) unsub();
      reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
    }, ms);
    api.query.system.events((records) => {
      for (const { event } of records) {
        const v = pick(event);
        if (v) {
          clearTimeout(timer);
          if (unsub) unsub();
          resolve(v);
          return;
        }
      }
    }).then((u) => { unsub = u; });
  });
}

/**
 * Resolve with the first value of `pick(events)` over the events of each finalized block from
 * `from` on, in order (a block that was never the best head is still read, which a
 * `system.events` subscription can miss across a reorg), or fail after `ms`.
 */
export async function waitForFinalizedEvents(api, pick, from, ms, what) {
  const deadline = Date.now() + ms;
  let next = from;
  for (;;) {
    const head = (await api.rpc.chain.getHeader(await api.rpc.chain.getFinalizedHead())).number.toNumber();
    for (; next <= head; next++) {
      const hash = await api.rpc.chain.getBlockHash(next);
      const records = await (await api.at(hash)).query.system.events();
      const v = pick(records.map(({ event }) => event));
      if (v) return { ...v, block: next };
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what} (finalized up to #${head})`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** Wait until the finalized head reaches `n`. */
export async function waitFinalized(api, n, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    const head = await api.rpc.chain.getFinalizedHead();
    const header = await api.rpc.chain.getHeader(head);
    if (header.number.toNumber() >= n) return header.number.toNumber();
    if (Date.now() > deadline) throw new Error(`finalized head stuck at #${header.number} (< #${n})`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Sign and send `tx` (with signing `options`, e.g. `{ mode: 1, metadataHash }`); resolve with its
 * events once in a block, reject on a dispatch error or a refusal.
 */
export function sendAndWait(api, tx, signer, options = {}) {
  return new Promise((resolve, reject) => {
    tx.signAndSend(signer, options, ({ status, events, dispatchError }) => {
      if (dispatchError) {
        if (dispatchError.isModule) {
          const d = api.registry.findMetaError(dispatchError.asModule);
          reject(new Error(`${d.section}.${d.name}`));
        } else reject(new Error(dispatchError.toString()));
      } else if (status.isInBlock) resolve(events);
    }).catch(reject);
  });
}

/**
 * Signs and sends `tx`; resolves with the hash of the block that included it, decoding nothing
 * (read its events afresh, as after a runtime upgrade); rejects if the pool drops it.
 */
export function sendAndWaitBlock(api, tx, signer, options = {}) {
  return new Promise((resolve, reject) => {
    tx.signAndSend(signer, options, ({ status }) => {
      if (status.isInBlock) resolve(status.asInBlock);
      else if (status.isInvalid || status.isDropped || status.isUsurped) reject(new Error(`the transaction was ${status.type}`));
    }).catch(reject);
  });
}

/** The load benchmark's miners (`pog-load`, built with `--features load`: benchmarking/load/). */
export function loadBinary() {
  return releaseBinary('pog-load', process.env.POG_LOAD);
}

/** The miner agent binary. */
export function agentBinary() {
  return releaseBinary('offchain-gpu', process.env.POG_AGENT);
}

/**
 * Run `offchain-gpu args...`; resolves with { code, log } when it exits. `name` names its log file.
 * Returns { proc, done, log, stop() } when `background` is set instead of waiting. `nice` (0–19)
 * lowers its CPU priority: miners that share this machine in a test but would each have their own.
 */
export function runAgent(args, { name = 'agent', logDir, background = false, env = {}, nice = 0 } = {}) {
  const dir = logDir || mkdtempSync(join(tmpdir(), 'pog-agent-'));
  const log = join(dir, `${name}.log`);
  const out = createWriteStream(log);
  // `nice` (coreutils) execs the agent, so every thread it starts has the lower priority and
  // signals reach the agent itself.
  const [cmd, argv] = nice > 0 ? ['nice', ['-n', String(nice), agentBinary(), ...args]] : [agentBinary(), args];
  const proc = spawn(cmd, argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: 'info', NO_COLOR: '1', ...env },
  });
  proc.stdout.pipe(out, { end: false });
  proc.stderr.pipe(out, { end: false });
  // 'close' comes after both output streams ended; the log is complete once `out` has flushed.
  const done = new Promise((resolve) => proc.on('close', (code, signal) => out.end(() => resolve({ code, signal, log }))));
  if (background) {
    const stop = async () => {
      if (proc.exitCode === null) proc.kill('SIGINT');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      const r = await done;
      clearTimeout(timer);
      return r;
    };
    return { proc, done, log, stop };
  }
  return done;
}

/** A `RoundOutcome` as one word: 'Passed', or the failure or non-verification reason. */
export function outcomeName(o) {
  if (o.isPassed) return 'Passed';
  if (o.isFailed) return o.asFailed.toString();
  return o.asUnverified.toString();
}

/**
 * Wait for `address`'s `MinerSettled` event whose first GPU's outcome satisfies `accept`
 * (any outcome by default), in `round` if given; resolve with `{ round, outcome, outcomes }`.
 */
export function waitSettled(api, address, ms, what, accept = () => true, round = null) {
  return waitForEvent(api, (e) => {
    if (!api.events.pog.MinerSettled.is(e) || e.data.miner.toString() !== address) return null;
    if (round !== null && e.data.round.toNumber() !== round) return null;
    const outcomes = e.data.outcomes.map(([, o]) => outcomeName(o));
    return accept(outcomes[0]) ? { round: e.data.round.toNumber(), outcome: outcomes[0], outcomes } : null;
  }, ms, what);
}

/** Stops what a test file started, for its `after` hook: its agents, then its API, then its node. */
export async function stopAll({ agents = [], api, node }) {
  for (const a of agents) await a.stop();
  if (api) await api.disconnect();
  if (node) await node.stop();
}

/**
 * Writes every storage pair of the chain at `api`'s finalised head to `file` as JSON
 * `{ at, specVersion, pairs: [[key, value], …] }` (hex): the state that the runtime's
 * try-runtime test upgrades (`runtime_upgrade_on_a_live_chain_snapshot_passes_every_check`).
 */
export async function writeSnapshot(api, file) {
  const send = (method, params) => api._rpcCore.provider.send(method, params);
  const at = (await api.rpc.chain.getFinalizedHead()).toHex();
  const specVersion = (await api.rpc.state.getRuntimeVersion(at)).specVersion.toNumber();
  const pairs = [];
  let start = null;
  for (;;) {
    const keys = await send('state_getKeysPaged', ['0x', 1000, start, at]);
    if (keys.length === 0) break;
    const [{ changes }] = await send('state_queryStorageAt', [keys, at]);
    for (const [key, value] of changes) if (value !== null) pairs.push([key, value]);
    start = keys[keys.length - 1];
  }
  writeFileSync(file, JSON.stringify({ at, specVersion, pairs }));
  return pairs.length;
}
