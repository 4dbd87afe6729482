import type { DailyCounts } from '../../ledger/delivery-figures.js';
import type { FigureCell, FigureKey, WeekCell } from '../figures-view.js';
import { FIGURE_LABELS, FIGURES } from '../figures-view.js';
import { html, type Html } from './html.js';

/*
 * Hand-drawn SVG bar charts (a few rectangles each: smaller than any chart library). Each chart is
 * an image with a name and a description, each bar carries its date in a `<title>` and an
 * `aria-label`, and a table beside it states every value in text.
 */

const WIDTH = 600;
const HEIGHT = 140;
const TOP = 8;
const BOTTOM = 22;
const BAND_COLOURS: Readonly<Record<string, string>> = { Elite: '#1a7f37', High: '#0969da', Medium: '#9a6700', Low: '#cf222e' };

let serial = 0;
const nextId = (prefix: string): string => `${prefix}-${(serial = (serial + 1) % 1_000_000)}`;

/** One figure over the last 12 ISO weeks: a bar per week (none where the figure has no value). */
export function weeklyChart(key: FigureKey, weeks: readonly WeekCell[]): Html {
  const cells = weeks.map((w) => ({ week: w.week, days: w.days, cell: w.cells.find((c) => c.key === key)! }));
  const max = Math.max(0, ...cells.map((c) => c.cell.value ?? 0));
  const slot = WIDTH / cells.length;
  const plot = HEIGHT - TOP - BOTTOM;
  const titleId = nextId('wk-title');
  const descId = nextId('wk-desc');
  const label = FIGURE_LABELS[key];
  const summary = cells.map((c) => `week of ${c.week}: ${c.cell.text}`).join('; ');
  return html`<figure>
<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}">
<title id="${titleId}">${label}, last ${cells.length} ISO weeks</title>
<desc id="${descId}">${summary}</desc>
<line x1="0" y1="${HEIGHT - BOTTOM}" x2="${WIDTH}" y2="${HEIGHT - BOTTOM}" stroke="#8c959f" stroke-width="1"/>
${cells.map((c, i) => {
  const x = i * slot + slot * 0.15;
  const width = slot * 0.7;
  const value = c.cell.value;
  const text = `Week of ${c.week}${c.days < 7 ? ' (so far)' : ''}: ${c.cell.text}${c.cell.band ? ` (${c.cell.band})` : ''}`;
  const h = value === null || max === 0 ? 0 : Math.max(2, (Math.abs(value) / max) * plot);
  return html`<g aria-label="${text}">
<title>${text}</title>
${value === null ? html`<text x="${(x + width / 2).toFixed(1)}" y="${HEIGHT - BOTTOM - 4}" text-anchor="middle" font-size="12" fill="#57606a">–</text>` : html`<rect x="${x.toFixed(1)}" y="${(HEIGHT - BOTTOM - h).toFixed(1)}" width="${width.toFixed(1)}" height="${h.toFixed(1)}" fill="${BAND_COLOURS[c.cell.band ?? ''] ?? '#57606a'}"/>`}
<text x="${(x + width / 2).toFixed(1)}" y="${HEIGHT - 6}" text-anchor="middle" font-size="11" fill="#57606a">${c.week.slice(5)}</text>
</g>`;
})}
</svg>
<figcaption>${label} per ISO week (Monday to Sunday, UTC), oldest first.</figcaption>
</figure>`;
}

/** The weekly figures as a table: the charts' text alternative. */
export function weeklyTable(weeks: readonly WeekCell[], caption: string): Html {
  return html`<details><summary>${caption}: the weekly figures as a table</summary>
<div class="scroll" role="region" aria-label="${caption}, weekly figures" tabindex="0"><table>
<thead><tr><th scope="col">Week of</th>${FIGURES.map((k) => html`<th scope="col">${FIGURE_LABELS[k]}</th>`)}</tr></thead>
<tbody>${weeks.map(
    (w) => html`<tr><th scope="row">${w.week}${w.days < 7 ? ' (so far)' : ''}</th>${w.cells.map((c: FigureCell) => html`<td class="num">${c.text}${c.band ? html`<span class="band band-${c.band}">${c.band}</span>` : ''}</td>`)}</tr>`,
  )}</tbody>
</table></div></details>`;
}

/** One bar per entry of the window's `daily` series: successes, and failures and rollbacks above them. */
export function dailyChart(daily: readonly DailyCounts[], caption: string): Html {
  const max = Math.max(1, ...daily.map((d) => d.success + d.failure + d.rolled_back));
  const slot = WIDTH / Math.max(1, daily.length);
  const plot = HEIGHT - TOP - BOTTOM;
  const titleId = nextId('day-title');
  const descId = nextId('day-desc');
  const total = daily.reduce((n, d) => n + d.success + d.failure + d.rolled_back + d.skipped, 0);
  const every = Math.ceil(daily.length / 8);
  return html`<figure>
<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}">
<title id="${titleId}">${caption}</title>
<desc id="${descId}">${daily.length} days from ${daily[0]?.date ?? ''} to ${daily.at(-1)?.date ?? ''}, ${total} records; each day's counts are in the table below.</desc>
<line x1="0" y1="${HEIGHT - BOTTOM}" x2="${WIDTH}" y2="${HEIGHT - BOTTOM}" stroke="#8c959f" stroke-width="1"/>
${daily.map((d, i) => {
  const x = i * slot + slot * 0.1;
  const width = Math.max(1, slot * 0.8);
  const ok = (d.success / max) * plot;
  const bad = ((d.failure + d.rolled_back) / max) * plot;
  const text = `${d.date}: ${d.success} successful, ${d.failure} failed, ${d.rolled_back} rolled back, ${d.skipped} skipped`;
  return html`<g aria-label="${text}"><title>${text}</title>
<rect x="${x.toFixed(1)}" y="${(HEIGHT - BOTTOM - ok).toFixed(1)}" width="${width.toFixed(1)}" height="${ok.toFixed(1)}" fill="#1a7f37"/>
<rect x="${x.toFixed(1)}" y="${(HEIGHT - BOTTOM - ok - bad).toFixed(1)}" width="${width.toFixed(1)}" height="${bad.toFixed(1)}" fill="#cf222e"/>
${i % every === 0 ? html`<text x="${(x + width / 2).toFixed(1)}" y="${HEIGHT - 6}" text-anchor="middle" font-size="11" fill="#57606a">${d.date.slice(5)}</text>` : ''}
</g>`;
})}
</svg>
<figcaption>Green: successful deployments; red above it: failed and rolled back. One bar per UTC day.</figcaption>
</figure>
<details><summary>${caption}: every day as a table</summary>
<div class="scroll" role="region" aria-label="${caption}, per day" tabindex="0"><table>
<thead><tr><th scope="col">Date</th><th scope="col">Successful</th><th scope="col">Failed</th><th scope="col">Rolled back</th><th scope="col">Skipped</th></tr></thead>
<tbody>${daily.map((d) => html`<tr data-date="${d.date}"><th scope="row">${d.date}</th><td>${d.success}</td><td>${d.failure}</td><td>${d.rolled_back}</td><td>${d.skipped}</td></tr>`)}</tbody>
</table></div></details>`;
}
