import type { DeploymentRecord, SessionRepository } from '../../store/types.js';
import type { EnvironmentSection, RepositoryPage, RepositoryQuery } from '../figures-view.js';
import { FIGURES, WINDOWS } from '../figures-view.js';
import { dailyChart, weeklyChart, weeklyTable } from './charts.js';
import { figureCard } from './cells.js';
import { duration, utc } from './format.js';
import { html, safeUrl, type Html } from './html.js';
import { page, type Viewer } from './layout.js';
import { auditPath, repositoryPath, withQuery } from './paths.js';
import { administers } from '../audit-view.js';

function link(r: SessionRepository, q: RepositoryQuery, change: Partial<RepositoryQuery>): string {
  const next = { ...q, ...change };
  return withQuery(repositoryPath(r), { days: String(next.days), environment: next.environment, page: next.cursor });
}

/** What a record feeds, in words: the records behind each figure. */
function countsToward(record: DeploymentRecord): string {
  switch (record.status) {
    case 'success':
      return `Deployment frequency; Change failure rate; ${record.committedAt ? `Lead time (${duration(record.recordedAt.getTime() - record.committedAt.getTime())})` : 'not Lead time (no committed_at)'}; ends a failure streak's Time to restore, if one is open`;
    case 'failure':
    case 'rolled-back':
      return 'Change failure rate; opens or extends a failure streak (Time to restore)';
    default:
      return 'none (skipped records are counted, not measured)';
  }
}

const commitUrl = (r: SessionRepository, commit: string | undefined): string | undefined =>
  commit && /^[0-9a-f]{7,64}$/i.test(commit) ? safeUrl(`${r.htmlUrl}/commit/${commit}`) : undefined;

function recordRow(r: SessionRepository, record: DeploymentRecord): Html {
  const run = safeUrl(record.runUrl);
  const commit = commitUrl(r, record.commit);
  return html`<tr>
<td class="num">${utc(record.recordedAt)}</td>
<td>${record.environment}</td>
<td>${record.status}</td>
<td>${record.version ?? html`<span class="muted">—</span>`}</td>
<td>${commit ? html`<a href="${commit}">${record.commit!.slice(0, 12)}</a>` : (record.commit ?? html`<span class="muted">—</span>`)}</td>
<td>${run ? html`<a href="${run}">run</a>` : html`<span class="muted">—</span>`}</td>
<td>${countsToward(record)}</td>
</tr>`;
}

function whatRuns(section: EnvironmentSection): Html {
  const show = (record: DeploymentRecord | null) =>
    record ? html`${record.version ?? record.commit?.slice(0, 12) ?? 'unversioned'} <span class="muted">(${record.status}, ${utc(record.recordedAt)})</span>` : html`<span class="muted">none</span>`;
  return html`<p>Latest: ${show(section.latest)}. Latest success: ${show(section.latestSuccess)}.</p>`;
}

function section(r: SessionRepository, s: EnvironmentSection, days: number): Html {
  const id = `env-${encodeURIComponent(s.environment).replace(/%/g, '_')}`;
  return html`<section aria-labelledby="${id}" data-environment="${s.environment}">
<h2 id="${id}">${s.environment}</h2>
${whatRuns(s)}
<div class="cards">${s.cells.map(figureCard)}</div>
<h3>Deployments per day, last ${days} days</h3>
${dailyChart(s.figures.daily, `${s.environment}: deployments per day`)}
<h3>The last 12 ISO weeks</h3>
<div class="cards">${FIGURES.map((key) => html`<div class="card">${weeklyChart(key, s.weeks)}</div>`)}</div>
${weeklyTable(s.weeks, `${s.environment}`)}
</section>`;
}

export function repositoryView(viewer: Viewer, r: SessionRepository, data: RepositoryPage, q: RepositoryQuery): string {
  const body = html`<p><a href="/console?days=${q.days}">← All repositories</a></p>
<h1>${r.owner}/${r.name}</h1>
<p class="muted">Last ${q.days} days (${utc(data.window.from)} to ${utc(data.window.to)}). <a href="${safeUrl(r.htmlUrl) ?? '#'}">The repository on GitHub</a>.</p>
${administers(r) ? html`<p><a href="${auditPath(r)}">Token audit</a> <span class="muted">(the tokens the broker handed out to this repository's workflows; shown to its admins)</span></p>` : ''}
<form class="filters" method="get" action="${repositoryPath(r)}">
<label>Window<select name="days">${WINDOWS.map((d) => html`<option value="${d}"${d === q.days ? html` selected` : ''}>${d} days</option>`)}</select></label>
<label>Environment<select name="environment"><option value="">All environments</option>${data.environments.map((e) => html`<option value="${e}"${e === q.environment ? html` selected` : ''}>${e}</option>`)}</select></label>
<button type="submit">Show</button>
</form>
${
  data.sections.length === 0
    ? html`<p class="notice">No deployment of this repository is recorded${q.environment ? html` in ${q.environment}` : ''}: record one with the record-deployment action (docs/ledger.md).</p>`
    : data.sections.map((s) => section(r, s, q.days))
}
<h2 id="records">Records in the window</h2>
${
  data.records.length === 0
    ? html`<p class="muted">No record in the window${q.cursor ? ' after this place' : ''}.</p>`
    : html`<div class="scroll" role="region" aria-labelledby="records" tabindex="0"><table>
<thead><tr><th scope="col">Recorded</th><th scope="col">Environment</th><th scope="col">Status</th><th scope="col">Version</th><th scope="col">Commit</th><th scope="col">Run</th><th scope="col">Counts toward</th></tr></thead>
<tbody>${data.records.map((record) => recordRow(r, record))}</tbody>
</table></div>`
}
<nav class="pager" aria-label="Records pages">
${q.cursor ? html`<a href="${link(r, q, { cursor: undefined })}#records">Newest records</a>` : ''}
${data.next ? html`<a href="${link(r, q, { cursor: data.next })}#records">Older records</a>` : ''}
</nav>`;
  return page(`${r.owner}/${r.name}`, body, viewer);
}
