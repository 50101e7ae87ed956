// The PoG explorer page: connects to a node, shows the round, every GPU, the validators, the
// rewards and the history of settled rounds, and redraws as blocks arrive.
import { History, connect, snapshot } from './chain.js';
import { plot, timeline } from './draw.js';

const DEFAULT_RPC = 'ws://127.0.0.1:9944';
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const short = (account) => `${account.slice(0, 6)}…${account.slice(-4)}`;
const yes = (flag) => (flag === null || flag === undefined ? '–' : flag ? 'yes' : 'no');
const num = (n, digits = 4) => Number(n).toLocaleString('en-US', { maximumFractionDigits: digits });

let api = null;
// The subscriptions of the current connection, ended when it is replaced.
let unsubscribe = [];
// The runtime the connection decodes with, shown in the status line: `pog-runtime/111`.
let runtime = '';
let past = new History();
let last = null;
let busy = false;
let again = false;

function setStatus(message, error = false) {
  $('status').textContent = message;
  $('status').className = error ? 'error' : '';
}

function renderRound(s) {
  const r = s.round;
  $('round-index').textContent = r.index;
  $('round-phase').textContent = r.phase;
  $('round-block').textContent = s.block;
  $('round-facts').innerHTML = [
    `${r.committed} GPUs committed`,
    r.selection ? `sample drawn at #${r.selection.at}, p = ${num(r.selection.probability, 2)}%` : 'sample not drawn yet',
    r.phase === 'Idle' ? `next round starts in blocks #${r.nextStart[0]}–#${r.nextStart[1]}` : `${r.settled} miners settled`,
  ].map(esc).join(' · ');
  $('timeline').innerHTML = timeline(s);
}

function renderGpus(s) {
  const filter = $('filter').value.trim();
  const rows = s.rows.filter((row) => !filter || row.miner.includes(filter));
  const share = new Map(s.miners.map((m) => [m.miner, m.share]));
  $('gpu-rows').innerHTML = rows.map((row) => {
    const d = row.duty;
    const duty = d
      ? [
        `memory ${yes(d.memoryRoot)}`, `GEMM ${yes(d.gemmRoot)}`, `selected ${yes(d.selected)}`,
        `revealed ${yes(d.revealed)}`, `verdicts ${d.verdicts}/${d.committee}${d.status ? ` (${d.status})` : ''}`,
      ].join(', ')
      : 'not in this round';
    return `<tr data-miner="${esc(row.miner)}" data-gpu="${row.gpu}" data-outcome="${esc(row.last?.label ?? '')}"
      data-points="${row.points}">
      <td title="${esc(row.miner)}">${esc(short(row.miner))}</td><td>${row.gpu}</td><td>${esc(row.profile)}</td>
      <td title="${esc(row.uuid)}">${esc(row.uuid.slice(0, 10))}…</td><td class="duty">${esc(duty)}</td>
      <td class="outcome" title="${esc(row.last?.words ?? '')}">${esc(row.last ? `${row.last.label} (round ${row.last.round})` : '–')}</td>
      <td>${row.credit === null ? '–' : `round ${row.credit}`}</td><td class="points">${num(row.points, 0)}</td>
      <td class="zero-reason">${esc(row.zeroReason ?? '')}</td><td>${num(share.get(row.miner) ?? 0, 3)}%</td></tr>`;
  }).join('') || '<tr><td colspan="10">no miner registered</td></tr>';
}

function renderValidators(s) {
  const round = past.list().at(-1)?.round;
  $('validator-rows').innerHTML = s.validators.map((v) => {
    const last = round === undefined ? null : past.validatorRound(v.validator, round);
    const cell = (k) => `${v[k]}${last ? ` <small>(+${last[k]})</small>` : ''}`;
    return `<tr><td title="${esc(v.validator)}">${esc(short(v.validator))}</td><td>${cell('assigned')}</td>
      <td>${cell('agreed')}</td><td>${cell('contradicted')}</td><td>${cell('silent')}</td></tr>`;
  }).join('') || '<tr><td colspan="5">no committee work recorded yet</td></tr>';
  $('validator-note').textContent = round === undefined ? '' : `totals; in brackets, round ${round} alone`;
}

function renderEarnings(s) {
  const r = s.rewards;
  $('rewards').hidden = r === null;
  if (r === null) return;
  $('emission').textContent = `minted so far ${num(r.emitted)} POG; next round's emission ${num(r.nextEmission)} POG`
    + (r.last ? `; round ${r.last.round}: ${num(r.last.miners)} to miners, ${num(r.last.validators)} to validators, `
      + `${num(r.last.treasury)} to the treasury` : '');
  $('earning-rows').innerHTML = s.miners.map((m) => `<tr><td title="${esc(m.miner)}">${esc(short(m.miner))}</td>
    <td>${num(m.deposit)}</td><td>${num(m.slashed)}</td><td>${m.earnings ? num(m.earnings.paid) : '–'}</td>
    <td>${m.earnings ? num(m.earnings.vesting) : '–'}</td><td>${m.earnings ? num(m.earnings.released) : '–'}</td>
    <td>${m.earnings ? num(m.earnings.burned) : '–'}</td></tr>`).join('');
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
    if (hash) await past.ingest(api, hash);
    last = await snapshot(api);
    render();
    setStatus(`connected to ${$('rpc').value} (runtime ${runtime}), block #${last.block}`);
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
 * Connects to `url` and follows its new blocks. @polkadot/api decodes with the metadata of the
 * runtime it connected to, so when the chain upgrades its runtime (`system.setCode`) the page
 * connects again, keeping the history it read (`keep`): older blocks are read with their own
 * runtime's metadata (`api.at`).
 */
async function start(url, { keep = false } = {}) {
  for (const stop of unsubscribe.splice(0)) stop();
  if (api) await api.disconnect();
  if (!keep) {
    past = new History();
    last = null;
  }
  setStatus(`connecting to ${url}…`);
  try {
    api = await connect(url);
  } catch (e) {
    setStatus(`cannot connect to ${url}: ${e.message ?? e}`, true);
    return;
  }
  const { specName, specVersion } = api.runtimeVersion;
  runtime = `${specName}/${specVersion}`;
  const head = (await api.rpc.chain.getHeader()).number.toNumber();
  setStatus(`connected to ${url}; reading the last ${Math.min(head + 1, 250)} blocks…`);
  await past.backfill(api, head);
  await refresh();
  unsubscribe.push(await api.rpc.chain.subscribeNewHeads((header) => refresh(header.hash)));
  unsubscribe.push(await api.rpc.state.subscribeRuntimeVersion((version) => {
    if (!version.specVersion.eq(specVersion) || !version.specName.eq(specName)) {
      setStatus(`the chain upgraded its runtime to ${version.specName}/${version.specVersion}: connecting again…`);
      start(url, { keep: true });
    }
  }));
}

$('connect').addEventListener('submit', (e) => {
  e.preventDefault();
  const url = $('rpc').value.trim();
  window.history.replaceState(null, '', `?rpc=${encodeURIComponent(url)}`);
  start(url);
});
$('filter').addEventListener('input', render);
const url = new URLSearchParams(location.search).get('rpc') || DEFAULT_RPC;
$('rpc').value = url;
start(url);
