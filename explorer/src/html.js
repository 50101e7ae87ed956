// The HTML the explorer puts into the page from what it read from the chain. A node is not
// trusted: its metadata decides how every value decodes (a field the page expects to be a
// number may arrive as text), so every value goes through `esc`, the page's one escape helper,
// numbers included. Pure functions of plain objects, so that they are tested in Node
// (explorer/test/).

/** `s` as HTML text, safe in an element or a quoted attribute. */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** An account, shortened: `5Grwva…utQY`. */
export const short = (account) => `${String(account).slice(0, 6)}…${String(account).slice(-4)}`;
const yes = (flag) => (flag === null || flag === undefined ? '–' : flag ? 'yes' : 'no');
/** `n` coerced to a number, formatted (digits, commas, `NaN` or `∞` only: no markup). */
export const num = (n, digits = 4) => Number(n).toLocaleString('en-US', { maximumFractionDigits: digits });

/** The round's facts under its heading. */
export function roundFacts(s) {
  const r = s.round;
  return [
    `${r.committed} GPUs committed`,
    r.selection ? `sample drawn at #${r.selection.at}, p = ${num(r.selection.probability, 2)}%` : 'sample not drawn yet',
    r.phase === 'Idle' ? `next round starts in blocks #${r.nextStart[0]}–#${r.nextStart[1]}` : `${r.settled} miners settled`,
  ].map(esc).join(' · ');
}

/** One row per claimed GPU, of the miners whose account contains `filter` (all when empty). */
export function gpuRows(s, filter = '') {
  const rows = s.rows.filter((row) => !filter || row.miner.includes(filter));
  const share = new Map(s.miners.map((m) => [m.miner, m.share]));
  return rows.map((row) => {
    const d = row.duty;
    const duty = d
      ? [
        `memory ${yes(d.memoryRoot)}`, `GEMM ${yes(d.gemmRoot)}`, `selected ${yes(d.selected)}`,
        `revealed ${yes(d.revealed)}`, `verdicts ${d.verdicts}/${d.committee}${d.status ? ` (${d.status})` : ''}`,
      ].join(', ')
      : 'not in this round';
    return `<tr data-miner="${esc(row.miner)}" data-gpu="${esc(row.gpu)}" data-outcome="${esc(row.last?.label ?? '')}"
      data-points="${esc(row.points)}">
      <td title="${esc(row.miner)}">${esc(short(row.miner))}</td><td>${esc(row.gpu)}</td><td>${esc(row.profile)}</td>
      <td title="${esc(row.uuid)}">${esc(String(row.uuid).slice(0, 10))}…</td><td class="duty">${esc(duty)}</td>
      <td class="outcome" title="${esc(row.last?.words ?? '')}">${esc(row.last ? `${row.last.label} (round ${row.last.round})` : '–')}</td>
      <td>${row.credit === null ? '–' : `round ${esc(row.credit)}`}</td><td class="points">${esc(num(row.points, 0))}</td>
      <td class="zero-reason">${esc(row.zeroReason ?? '')}</td><td>${esc(num(share.get(row.miner) ?? 0, 3))}%</td></tr>`;
  }).join('') || '<tr><td colspan="10">no miner registered</td></tr>';
}

/**
 * One row per validator: its committee record's totals and, in brackets, the last settled
 * round's part of them (`past`: the page's History, or anything with its `list` and
 * `validatorRound`).
 */
export function validatorRows(s, past) {
  const round = past.list().at(-1)?.round;
  return s.validators.map((v) => {
    const last = round === undefined ? null : past.validatorRound(v.validator, round);
    const cell = (k) => `${esc(v[k])}${last ? ` <small>(+${esc(last[k])})</small>` : ''}`;
    return `<tr><td title="${esc(v.validator)}">${esc(short(v.validator))}</td><td>${cell('assigned')}</td>
      <td>${cell('agreed')}</td><td>${cell('contradicted')}</td><td>${cell('silent')}</td></tr>`;
  }).join('') || '<tr><td colspan="5">no committee work recorded yet</td></tr>';
}

/** One row per miner: its deposit, what was slashed, and its earnings (POG). */
export function earningRows(s) {
  const pog = (n) => esc(num(n));
  return s.miners.map((m) => `<tr><td title="${esc(m.miner)}">${esc(short(m.miner))}</td>
    <td>${pog(m.deposit)}</td><td>${pog(m.slashed)}</td><td>${m.earnings ? pog(m.earnings.paid) : '–'}</td>
    <td>${m.earnings ? pog(m.earnings.vesting) : '–'}</td><td>${m.earnings ? pog(m.earnings.released) : '–'}</td>
    <td>${m.earnings ? pog(m.earnings.burned) : '–'}</td></tr>`).join('');
}
