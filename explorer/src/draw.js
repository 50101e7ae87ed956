// Drawings of the explorer: the round's timeline and the history plots, as HTML and SVG text.

import { esc } from './html.js';

/**
 * The round's timeline, in ms of the round's clock: start, each profile's memory and GEMM
 * deadlines, the commit window's close, the sample, the reveal and verdict deadlines (blocks,
 * placed at the block time), and the current block.
 */
export function timeline(s) {
  const r = s.round;
  if (r.index === 0) return '<p>no round has started yet</p>';
  const blockMs = (b) => r.startMs + (b - r.startedAt) * s.blockTimeMs;
  const marks = [{ label: 'start', ms: r.startMs, kind: 'phase' }];
  for (const d of r.deadlines) {
    if (d.memoryMs !== null) marks.push({ label: `${d.profile}: memory`, ms: d.memoryMs, kind: 'deadline' });
    marks.push({ label: `${d.profile}: GEMM`, ms: d.gemmMs, kind: 'deadline' });
  }
  marks.push({ label: 'commit window closes', ms: r.commitCloseMs, kind: 'phase' });
  if (r.selection) {
    marks.push({ label: 'sample', ms: blockMs(r.selection.at), kind: 'phase' });
    marks.push({ label: 'reveal deadline', ms: blockMs(r.selection.revealDeadline), kind: 'phase' });
    marks.push({ label: 'verdict deadline', ms: blockMs(r.selection.verdictDeadline), kind: 'phase' });
  }
  const now = blockMs(s.block);
  const end = Math.max(now, ...marks.map((m) => m.ms));
  const span = Math.max(1, end - r.startMs);
  const at = (ms) => `${(((ms - r.startMs) / span) * 100).toFixed(2)}%`;
  marks.sort((a, b) => a.ms - b.ms);
  const items = marks.map((m, i) => `<div class="mark ${m.kind}" style="left:${at(m.ms)};--row:${i % 4}"
    title="${esc(m.label)}: ${((m.ms - r.startMs) / 1000).toFixed(1)} s">${esc(m.label)}</div>`);
  const phase = r.phase === 'Settle' ? 'settling' : r.phase === 'Idle' ? 'settled' : r.phase.toLowerCase();
  return `<div class="timeline"><div class="axis"></div>${items.join('')}
    <div class="now" id="timeline-now" style="left:${at(now)}" title="block #${esc(s.block)}">▲ #${esc(s.block)} (${esc(phase)})</div></div>`;
}

/**
 * A line plot of `rows` (each with `round` and the series' keys) against the round, each series
 * scaled to its own maximum: one circle a round (class `point` and the series' class).
 */
export function plot(rows, series, width = 640, height = 160) {
  if (rows.length === 0) return `<text x="10" y="20">no settled round yet</text>`;
  const pad = 30;
  const first = rows[0].round;
  const last = rows[rows.length - 1].round;
  const x = (round) => pad + ((round - first) / Math.max(1, last - first)) * (width - 2 * pad);
  const parts = [`<line x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}" class="axis"/>`];
  series.forEach((s, i) => {
    const max = Math.max(...rows.map((r) => r[s.key]), 1);
    const y = (v) => height - pad - (v / max) * (height - 2 * pad);
    const points = rows.map((r) => `${x(r.round).toFixed(1)},${y(r[s.key]).toFixed(1)}`);
    parts.push(`<polyline class="${s.className}" points="${points.join(' ')}"/>`);
    for (const r of rows) {
      parts.push(`<circle class="point ${s.className}" data-round="${esc(r.round)}" cx="${x(r.round).toFixed(1)}"
        cy="${y(r[s.key]).toFixed(1)}" r="3"><title>round ${esc(r.round)}: ${esc(Number(r[s.key]).toLocaleString('en-US'))}</title></circle>`);
    }
    parts.push(`<text x="${pad + i * 260}" y="14" class="${s.className}">${esc(s.label)} (max ${esc(max.toLocaleString('en-US'))})</text>`);
  });
  for (const r of rows) {
    parts.push(`<text x="${x(r.round).toFixed(1)}" y="${height - 10}" text-anchor="middle">${esc(r.round)}</text>`);
  }
  return parts.join('');
}
