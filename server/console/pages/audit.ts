import type { AuditPage } from '../../audit/list-records.js';
import type { TokenAuditRecord } from '../../audit/record.js';
import type { SessionRepository } from '../../store/types.js';
import { AUDIT_CSV_LIMIT, type AuditFilters } from '../audit-view.js';
import { html, safeUrl, type Html } from './html.js';
import { page, type Viewer } from './layout.js';
import { auditCsvPath, auditPath, repositoryPath, withQuery } from './paths.js';

/*
 * The token audit of one repository, for its admins: the filters of `GET /v1/audit/tokens` as a
 * form, one row per record (never a token: the records hold only `hashed_token`), older records
 * by the audit's own cursors, and the same page as the route's CSV.
 */

/** A page of the audit: the filters as given, and the place to start from. */
const auditLink = (path: string, filters: AuditFilters, cursor: string | undefined): string => withQuery(path, { ...filters, cursor });

const none = html`<span class="muted">—</span>`;

/** Permissions one a line (`contents: write`), under what they are. */
const permissionLines = (what: string, permissions: Readonly<Record<string, string>>, muted: boolean): Html => {
  const entries = Object.entries(permissions);
  return html`<span class="line${muted ? ' muted' : ''}">${what}:${entries.length === 0 ? ' none' : ''}</span>${entries.map(([name, level]) => html`<span class="line nowrap${muted ? ' muted' : ''}">${name}: ${level}</span>`)}`;
};

/** The run on GitHub: the record's repository is this one (the same id), so its current address holds the run. */
function runLink(r: SessionRepository, record: TokenAuditRecord): Html {
  if (record.run_id === null) return none;
  const attempt = record.run_attempt !== null && /^[0-9]{1,6}$/.test(record.run_attempt) ? record.run_attempt : undefined;
  const base = safeUrl(r.htmlUrl);
  const href = base && /^[0-9]{1,20}$/.test(record.run_id) ? `${base}/actions/runs/${record.run_id}${attempt ? `/attempts/${attempt}` : ''}` : undefined;
  const text = `run ${record.run_id}${attempt ? `, attempt ${attempt}` : ''}`;
  return href ? html`<a href="${href}">${text}</a>` : html`${text}`;
}

function workflowCell(r: SessionRepository, record: TokenAuditRecord): Html {
  const reusable = record.job_workflow_ref !== null && record.job_workflow_ref !== record.workflow_ref;
  return html`<td class="wide">${record.workflow_ref === null ? none : html`<code>${record.workflow_ref}</code>`}
${reusable ? html`<span class="line">job: <code>${record.job_workflow_ref}</code></span>` : ''}
<span class="line">${runLink(r, record)}${record.event_name === null ? '' : html` <span class="muted">(${record.event_name})</span>`}</span></td>`;
}

function permissionsCell(record: TokenAuditRecord): Html {
  if (record.permissions_granted === null && record.permissions_requested === null) return html`<td>${none}</td>`;
  return html`<td>${record.permissions_granted === null ? '' : permissionLines('granted', record.permissions_granted, false)}${
    record.permissions_requested === null ? '' : permissionLines('asked', record.permissions_requested, true)
  }</td>`;
}

function tokenCell(record: TokenAuditRecord): Html {
  if (record.hashed_token === null) return html`<td>${none}</td>`;
  return html`<td class="wide"><code>${record.hashed_token}</code>
<span class="line muted">${record.installation_id === null ? '' : `installation ${record.installation_id}; `}${record.expires_at === null ? '' : `expires ${record.expires_at}`}</span></td>`;
}

function recordRow(r: SessionRepository, record: TokenAuditRecord): Html {
  return html`<tr data-outcome="${record.outcome}"${record.hashed_token === null ? '' : html` data-hashed-token="${record.hashed_token}"`}>
<td class="num"><time datetime="${record.recorded_at}">${record.recorded_at.slice(0, 10)}<span class="line">${record.recorded_at.slice(11, -1)}</span></time></td>
<td><strong>${record.outcome}</strong>${record.reason === null ? '' : html`<span class="line muted">${record.reason}</span>`}<span class="line muted">${record.route}</span></td>
${workflowCell(r, record)}
<td>${record.actor ?? none}</td>
<td>${record.environment ?? none}</td>
<td>${record.policy_rule ?? none}</td>
${permissionsCell(record)}
${tokenCell(record)}
</tr>`;
}

const FIELDS: readonly { name: keyof AuditFilters; label: string; hint: string }[] = [
  { name: 'outcome', label: 'Outcome', hint: 'minted, signed, error code' },
  { name: 'workflow', label: 'Workflow', hint: 'path or full ref' },
  { name: 'actor', label: 'Actor', hint: 'a GitHub login' },
  { name: 'since', label: 'Since', hint: 'date or time' },
  { name: 'until', label: 'Until', hint: 'date or time' },
  { name: 'hashed_token', label: 'Hashed token', hint: "from GitHub's audit log" },
];

export function auditView(viewer: Viewer, r: SessionRepository, data: AuditPage, filters: AuditFilters, cursor: string | undefined): string {
  const filtered = FIELDS.some((f) => filters[f.name]);
  const body = html`<p><a href="${repositoryPath(r)}">← ${r.owner}/${r.name}</a></p>
<h1>Token audit of ${r.owner}/${r.name}</h1>
<p class="muted">Every token the Gatehouse broker handed out to a workflow of this repository, and every request of one it refused, newest first: the records whose verified OIDC token names this repository by its GitHub id (${r.id}). You see them because GitHub lists you as an admin of this repository.</p>
<form class="filters wide" method="get" action="${auditPath(r)}">
${FIELDS.map((f) => html`<label>${f.label} <span class="hint">(${f.hint})</span><input type="text" name="${f.name}" value="${filters[f.name] ?? ''}" autocomplete="off" spellcheck="false" aria-describedby="filter-hints"></label>`)}
<button type="submit">Show</button>
${filtered ? html`<a href="${auditPath(r)}">Clear filters</a>` : ''}
</form>
<p id="filter-hints" class="hint">Since and until: a UTC date (2026-11-20) or a time with its offset (2026-11-20T14:03:00Z), both inclusive. Workflow: its path (${r.owner}/${r.name}/.github/workflows/deploy.yml) for every ref, or its full ref. Hashed token: the value of <code>hashed_token</code> in GitHub's audit log, or a token hashed on your machine with <code>printf %s "$TOKEN" | openssl dgst -sha256 -binary | base64</code>.</p>
<h2 id="records">${filtered ? 'Matching records' : 'Records'}</h2>
<p><a href="${auditLink(auditCsvPath(r), filters, cursor)}" download>Download CSV</a> <span class="muted">(every field, up to ${AUDIT_CSV_LIMIT} records from the first one below, as <code>GET /v1/audit/tokens</code> answers them)</span></p>
${
  data.records.length === 0
    ? html`<p class="notice">${filtered ? 'No record of this repository matches these filters' : 'No token request of this repository is recorded'}${cursor ? ' after this place' : ''}.</p>`
    : html`<div class="scroll" role="region" aria-labelledby="records" tabindex="0"><table id="audit">
<thead><tr><th scope="col">Recorded (UTC)</th><th scope="col">Outcome</th><th scope="col">Workflow and run</th><th scope="col">Actor</th><th scope="col">Environment</th><th scope="col">Policy rule</th><th scope="col">Permissions</th><th scope="col">Token (hashed)</th></tr></thead>
<tbody>${data.records.map((record) => recordRow(r, record))}</tbody>
</table></div>`
}
<nav class="pager" aria-label="Audit pages">
${cursor ? html`<a href="${auditLink(auditPath(r), filters, undefined)}#records">Newest records</a>` : ''}
${data.next ? html`<a href="${auditLink(auditPath(r), filters, data.next)}#records">Older records</a>` : ''}
</nav>`;
  return page(`Token audit of ${r.owner}/${r.name}`, body, viewer);
}
