// The PoG explorer page: connects to a node, shows the round, every GPU, the validators, the
// rewards and the history of settled rounds, and redraws as blocks arrive.
import { History, connect, snapshot } from './chain.js';
import { plot, timeline } from './draw.js';
import { earningRows, gpuRows, num, roundFacts, short, validatorRows } from './html.js';
import { isChainSpec, sourceOnLoad } from './rpc.js';

const $ = (id) => document.getElementById(id);

let api = null;
// The subscriptions of the current connection, ended when it is replaced.
let unsubscribe = [];
// The runtime the connection decodes with, shown in the status line: `pog-runtime/111`.
let runtime = '';
let past = new History();
let last = null;
let busy = false;
let again = false;
// How the page reads the chain, for the status line.
let via = '';
// The connection in use: a later `start` replaces it, and an earlier one still connecting stops.
let generation = 0;
/** How long one read of the chain may take before the page says so (the next block tries again). */
const REFRESH_MS = 60_000;

function setStatus(message, error = false) {
  $('status').textContent = message;
  $('status').className = error ? 'error' : '';
}

// What comes from the chain goes into the page as text, or as HTML escaped by html.js (`esc`).
function renderRound(s) {
  const r = s.round;
  $('round-index').textContent = r.index;
  $('round-phase').textContent = r.phase;
  $('round-block').textContent = s.block;
  $('round-facts').innerHTML = roundFacts(s);
  $('timeline').innerHTML = timeline(s);
}

function renderGpus(s) {
  $('gpu-rows').innerHTML = gpuRows(s, $('filter').value.trim());
}

function renderValidators(s) {
  const round = past.list().at(-1)?.round;
  $('validator-rows').innerHTML = validatorRows(s, past);
  $('validator-note').textContent = round === undefined ? '' : `totals; in brackets, round ${round} alone`;
}

function renderEarnings(s) {
  const r = s.rewards;
  $('rewards').hidden = r === null;
  if (r === null) return;
  $('emission').textContent = `minted so far ${num(r.emitted)} POG; next round's emission ${num(r.nextEmission)} POG`
    + (r.last ? `; round ${r.last.round}: ${num(r.last.miners)} to miners, ${num(r.last.validators)} to validators, `
      + `${num(r.last.treasury)} to the treasury` : '');
  $('earning-rows').innerHTML = earningRows(s);
}

function renderHistory(s) {
  const rounds = past.list();
  $('compute-plot').innerHTML = plot(rounds, [
    { key: 'points', label: 'proven compute (credited points)', className: 'compute' },
    { key: 'verified', label: 'GPUs verified', className: 'verified' },
  ]);
  const filter = $('filter').value.trim();
  const top = [...s.miners].sort((a, b) => b.share - a.share)[0];
  const miner = s.miners.find((m) => filter && m.miner.includes(filter))?.miner ?? top?.miner;
  $('score-miner').textContent = miner ? short(miner) : '–';
  $('score-plot').innerHTML = plot(rounds.map((r) => ({ round: r.round, score: r.scores[miner] ?? 0 })), [
    { key: 'score', label: 'score (% of the network)', className: 'score' },
  ]);
}

function render() {
  if (!last) return;
  renderRound(last);
  renderGpus(last);
  renderValidators(last);
  renderEarnings(last);
  renderHistory(last);
}

/** Reads the new head's events and the chain's state, then redraws (one refresh at a time). */
async function refresh(hash) {
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  try {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${REFRESH_MS / 1000} s`)), REFRESH_MS);
    });
    try {
      await Promise.race([(async () => {
        if (hash) await past.ingest(api, hash);
        last = await snapshot(api);
      })(), late]);
    } finally {
      clearTimeout(timer);
    }
    render();
    setStatus(`${via} (runtime ${runtime}), block #${last.block}`);
  } catch (e) {
    setStatus(`reading the chain failed: ${e.message}`, true);
  } finally {
    busy = false;
    if (again) {
      again = false;
      refresh();
    }
  }
}

/**
 * Connects to `url` (a node, or a chain spec for the light client: `connect`) and follows its new
 * blocks: the current state first, then the history of the blocks before. @polkadot/api decodes
 * with the metadata of the runtime it connected to, so when the chain upgrades its runtime
 * (`system.setCode`) the page connects again, keeping the history it read (`keep`): older blocks
 * are read with their own runtime's metadata (`api.at`).
 */
async function start(url, { keep = false } = {}) {
  const mine = ++generation;
  const current = () => mine === generation;
  for (const stop of unsubscribe.splice(0)) stop();
  if (api) {
    const old = api;
    api = null;
    await old.disconnect().catch(() => {});
  }
  if (!keep) {
    past = new History();
    last = null;
  }
  const light = isChainSpec(url);
  setStatus(light ? `starting a light client for the chain spec ${url}…` : `connecting to ${url}…`);
  let connected;
  try {
    connected = await connect(url);
  } catch (e) {
    if (current()) setStatus(`cannot ${light ? 'follow' : 'connect to'} ${url}: ${e.message ?? e}`, true);
    return;
  }
  // another source was asked for meanwhile: this connection is not the page's
  if (!current()) {
    await connected.disconnect().catch(() => {});
    return;
  }
  api = connected;
  const genesis = api.genesisHash.toHex();
  via = light ? `following the chain of ${url} (genesis ${genesis.slice(0, 10)}…) through a light client: `
    + 'blocks and state checked by smoldot against that genesis, no node trusted' : `connected to ${url}`;
  $('mode').textContent = light ? 'light client' : 'RPC';
  const { specName, specVersion } = api.runtimeVersion;
  runtime = `${specName}/${specVersion}`;
  const head = (await api.rpc.chain.getHeader()).number.toNumber();
  await refresh();
  if (!current()) return;
  unsubscribe.push(await api.rpc.chain.subscribeNewHeads((header) => refresh(header.hash)));
  setStatus(`${via}; reading the last ${Math.min(head + 1, 250)} blocks…`);
  await past.backfill(api, head);
  if (!current()) return;
  render();
  setStatus(`${via} (runtime ${runtime}), block #${last?.block ?? head}`);
  unsubscribe.push(await api.rpc.state.subscribeRuntimeVersion((version) => {
    if (current() && (!version.specVersion.eq(specVersion) || !version.specName.eq(specName))) {
      setStatus(`the chain upgraded its runtime to ${version.specName}/${version.specVersion}: connecting again…`);
      follow(url, { keep: true });
    }
  }));
}

/** `start`, with whatever fails on the way said in the status line rather than thrown. */
function follow(url, options) {
  const run = start(url, options);
  const mine = generation; // `start` took its number before its first await
  run.catch((e) => {
    if (mine === generation) setStatus(`reading ${url} failed: ${e.message ?? e}`, true);
  });
}

$('connect').addEventListener('submit', (e) => {
  e.preventDefault();
  const url = $('rpc').value.trim();
  window.history.replaceState(null, '', `?${isChainSpec(url) ? 'light' : 'rpc'}=${encodeURIComponent(url)}`);
  follow(url);
});
$('filter').addEventListener('input', render);
// The default node, or one on this machine, is read at once; a link's other host only once the
// user presses connect (its metadata decides what the page shows).
const { url, auto } = sourceOnLoad(location.search, location.href);
$('rpc').value = url;
if (auto) {
  follow(url);
} else {
  setStatus(isChainSpec(url)
    ? `not connected: this link asks for the chain spec ${url}, which decides the chain shown (its genesis and validators); press connect to follow it`
    : `not connected: this link asks for the node ${url}; press connect to read it`);
  $('connect').querySelector('button').focus();
}
