import type { Overview, OverviewQuery, SortKey } from '../figures-view.js';
import { FIGURE_LABELS, FIGURES, WINDOWS } from '../figures-view.js';
import { figureCell } from './cells.js';
import { utc } from './format.js';
import { html, type Html } from './html.js';
import { page, type Viewer } from './layout.js';
import { withQuery } from './paths.js';

const COLUMNS: readonly { key: SortKey; label: string }[] = [
  { key: 'repository', label: 'Repository' },
  { key: 'environment', label: 'Environment' },
  ...FIGURES.map((key) => ({ key, label: FIGURE_LABELS[key] })),
];

function query(q: OverviewQuery, change: Partial<OverviewQuery>): string {
  const next = { ...q, ...change };
  return withQuery('/console', { days: String(next.days), owner: next.owner, environment: next.environment, sort: next.sort, order: next.order });
}

/** A column head: a link that sorts by it (again: the other way), with `aria-sort` on the sorted one. */
function head(q: OverviewQuery, column: { key: SortKey; label: string }): Html {
  const sorted = q.sort === column.key;
  const order = sorted && q.order === 'asc' ? 'desc' : 'asc';
  return html`<th scope="col"${sorted ? html` aria-sort="${q.order === 'asc' ? 'ascending' : 'descending'}"` : ''}><a href="${query(q, { sort: column.key, order })}">${column.label}<span class="muted">${sorted ? (q.order === 'asc' ? ' ▲' : ' ▼') : ''}</span></a></th>`;
}

export function overviewPage(viewer: Viewer, data: Overview, q: OverviewQuery, notes: { truncated: boolean; hidden: number }): string {
  const body = html`<h1>Delivery figures</h1>
<p class="muted">Last ${q.days} days (${utc(data.window.from)} to ${utc(data.window.to)}), for the repositories you can see on GitHub through the Gatehouse App${notes.hidden > 0 ? ` (${notes.hidden} more ${notes.hidden === 1 ? 'is' : 'are'} outside the owners this Gatehouse serves)` : ''}. Levels are DORA's (2023 report).</p>
${notes.truncated ? html`<p class="notice">GitHub listed more repositories than the console keeps; some are not shown.</p>` : ''}
<form class="filters" method="get" action="/console">
<label>Window<select name="days">${WINDOWS.map((d) => html`<option value="${d}"${d === q.days ? html` selected` : ''}>${d} days</option>`)}</select></label>
<label>Owner<select name="owner"><option value="">All owners</option>${data.owners.map((o) => html`<option value="${o}"${o === q.owner ? html` selected` : ''}>${o}</option>`)}</select></label>
<label>Environment<select name="environment"><option value="">All environments</option>${data.environments.map((e) => html`<option value="${e}"${e === q.environment ? html` selected` : ''}>${e}</option>`)}</select></label>
<input type="hidden" name="sort" value="${q.sort}"><input type="hidden" name="order" value="${q.order}">
<button type="submit">Show</button>
</form>
${
  data.rows.length === 0
    ? html`<p class="notice">${data.owners.length === 0 ? 'You can see no repository of the owners this Gatehouse serves. Ask an organisation owner to install the Gatehouse App on your repositories.' : 'No row matches these filters.'}</p>`
    : html`<div class="scroll" role="region" aria-label="Delivery figures per repository and environment" tabindex="0"><table id="overview">
<caption class="muted">${data.rows.length} rows; choose a column head to sort by it.</caption>
<thead><tr>${COLUMNS.map((c) => head(q, c))}</tr></thead>
<tbody>${data.rows.map(
        (row) => html`<tr data-repository="${row.repository.owner}/${row.repository.name}" data-environment="${row.environment ?? ''}">
<th scope="row"><a href="/console/repos/${encodeURIComponent(row.repository.owner)}/${encodeURIComponent(row.repository.name)}?days=${q.days}${row.environment ? `&environment=${encodeURIComponent(row.environment)}` : ''}">${row.repository.owner}/${row.repository.name}</a></th>
<td>${row.environment ?? html`<span class="muted">none</span>`}</td>
${row.environment === null ? html`<td colspan="4"><span class="gap">No deployment recorded in the last ${q.days} days: record one with the record-deployment action (docs/ledger.md).</span></td>` : row.cells.map(figureCell)}
</tr>`,
      )}</tbody>
</table></div>`
}`;
  return page('Delivery figures', body, viewer);
}
