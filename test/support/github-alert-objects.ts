import { simpleUser } from './github-objects.js';

/**
 * Code-scanning and secret-scanning alerts as GitHub's REST API lists them
 * (`code-scanning-alert-items`, `secret-scanning-alert` in GitHub's published description: every
 * field, GitHub's enums, ISO 8601 times, users as `simple-user` objects), for the alert fakes.
 * `test/sync/github-shapes.test.ts` checks them against `@octokit/openapi`. DefectDojo's parser
 * samples are not GitHub's answers (their nulls are the string "None") and are not used for this.
 */

export interface AlertPlace {
  /** The API's base URL (`https://api.github.com`, or an enterprise server's `/api/v3`). */
  readonly api?: string;
  readonly owner: string;
  readonly repo: string;
}

const webOf = (api: string) => {
  const url = new URL(api);
  return url.hostname.startsWith('api.') ? `${url.protocol}//${url.hostname.slice(4)}` : url.origin;
};

/** A commit sha derived from a seed: 40 hex digits, stable across runs. */
const sha = (seed: string) => Buffer.from(seed.padEnd(20, '.').slice(0, 20)).toString('hex');

export interface CodeScanningAlertSpec {
  readonly number: number;
  /** The rule's id (`js/sql-injection`). */
  readonly rule: string;
  readonly description?: string;
  /** The rule's level; `none` has no security severity. */
  readonly severity?: 'none' | 'note' | 'warning' | 'error';
  /** `null` for a rule without one (a quality rule). */
  readonly securitySeverity?: 'low' | 'medium' | 'high' | 'critical' | null;
  readonly path: string;
  readonly line: number;
  readonly state?: 'open' | 'dismissed' | 'fixed';
  /** The Git reference of the most recent instance (default `refs/heads/main`; a pull request's `refs/pull/7/merge`). */
  readonly ref?: string;
  readonly commitSha?: string;
  readonly createdAt?: string;
}

/** One alert of `GET /repos/{owner}/{repo}/code-scanning/alerts`. */
export function codeScanningAlert(place: AlertPlace, spec: CodeScanningAlertSpec): Record<string, unknown> {
  const api = place.api ?? 'https://api.github.com';
  const base = `${api}/repos/${place.owner}/${place.repo}/code-scanning/alerts/${spec.number}`;
  const state = spec.state ?? 'open';
  const created = spec.createdAt ?? '2026-03-02T09:15:00Z';
  const closedAt = '2026-03-09T16:40:00Z';
  const language = spec.rule.split('/')[0] ?? 'javascript';
  return {
    number: spec.number,
    created_at: created,
    updated_at: state === 'open' ? created : closedAt,
    url: base,
    html_url: `${webOf(api)}/${place.owner}/${place.repo}/security/code-scanning/${spec.number}`,
    instances_url: `${base}/instances`,
    state,
    fixed_at: state === 'fixed' ? closedAt : null,
    dismissed_by: state === 'dismissed' ? simpleUser(api, 'monalisa', 2, 'User') : null,
    dismissed_at: state === 'dismissed' ? closedAt : null,
    dismissed_reason: state === 'dismissed' ? 'false positive' : null,
    dismissed_comment: state === 'dismissed' ? 'Input is validated upstream.' : null,
    rule: {
      id: spec.rule,
      severity: spec.severity ?? 'error',
      description: spec.description ?? `Finding of ${spec.rule}`,
      name: spec.rule,
      tags: spec.securitySeverity === null ? ['maintainability'] : ['security', 'external/cwe/cwe-089'],
      full_description: spec.description ?? `Finding of ${spec.rule}`,
      help: null,
      help_uri: null,
      security_severity_level: spec.securitySeverity === undefined ? 'high' : spec.securitySeverity,
    },
    tool: { name: 'CodeQL', guid: null, version: '2.20.4' },
    most_recent_instance: {
      ref: spec.ref ?? 'refs/heads/main',
      analysis_key: '.github/workflows/codeql.yml:analyze',
      environment: JSON.stringify({ language }),
      category: `/language:${language}`,
      state,
      commit_sha: spec.commitSha ?? sha(`${place.owner}/${place.repo}`),
      message: { text: `${spec.description ?? spec.rule} at ${spec.path}:${spec.line}.` },
      location: { path: spec.path, start_line: spec.line, end_line: spec.line, start_column: 5, end_column: 31 },
      classifications: [],
    },
    dismissal_approved_by: null,
    assignees: [],
  };
}

export interface SecretScanningAlertSpec {
  readonly number: number;
  /** GitHub's pattern id (`github_personal_access_token`). */
  readonly secretType?: string;
  readonly displayName?: string;
  readonly validity?: 'active' | 'inactive' | 'unknown';
  readonly publiclyLeaked?: boolean;
  readonly path?: string;
  readonly line?: number;
  readonly state?: 'open' | 'resolved';
}

/** One alert of `GET /repos/{owner}/{repo}/secret-scanning/alerts?hide_secret=true` (no `secret`: the fake adds it when not hidden). */
export function secretScanningAlert(place: AlertPlace, spec: SecretScanningAlertSpec): Record<string, unknown> {
  const api = place.api ?? 'https://api.github.com';
  const base = `${api}/repos/${place.owner}/${place.repo}/secret-scanning/alerts/${spec.number}`;
  const state = spec.state ?? 'open';
  const commit = sha(`${place.owner}/${place.repo}#${spec.number}`);
  const blob = sha(`blob ${spec.number}`);
  const path = spec.path ?? 'config/settings.py';
  return {
    number: spec.number,
    created_at: '2026-03-04T11:20:00Z',
    updated_at: state === 'open' ? '2026-03-04T11:20:00Z' : '2026-03-06T08:00:00Z',
    url: base,
    html_url: `${webOf(api)}/${place.owner}/${place.repo}/security/secret-scanning/${spec.number}`,
    locations_url: `${base}/locations`,
    state,
    resolution: state === 'resolved' ? 'revoked' : null,
    resolved_at: state === 'resolved' ? '2026-03-06T08:00:00Z' : null,
    resolved_by: state === 'resolved' ? simpleUser(api, 'monalisa', 2, 'User') : null,
    resolution_comment: null,
    secret_type: spec.secretType ?? 'github_personal_access_token',
    secret_type_display_name: spec.displayName ?? 'GitHub Personal Access Token',
    provider: 'GitHub',
    provider_slug: 'github',
    push_protection_bypassed: false,
    push_protection_bypassed_by: null,
    push_protection_bypassed_at: null,
    push_protection_bypass_request_reviewer: null,
    push_protection_bypass_request_reviewer_comment: null,
    push_protection_bypass_request_comment: null,
    push_protection_bypass_request_html_url: null,
    validity: spec.validity ?? 'unknown',
    publicly_leaked: spec.publiclyLeaked ?? false,
    multi_repo: false,
    is_base64_encoded: false,
    first_location_detected: {
      path,
      start_line: spec.line ?? 4,
      end_line: spec.line ?? 4,
      start_column: 12,
      end_column: 52,
      blob_sha: blob,
      blob_url: `${api}/repos/${place.owner}/${place.repo}/git/blobs/${blob}`,
      commit_sha: commit,
      commit_url: `${api}/repos/${place.owner}/${place.repo}/git/commits/${commit}`,
    },
    has_more_locations: false,
    assigned_to: null,
  };
}

export interface DependabotAlertSpec {
  readonly number: number;
  readonly state?: 'open' | 'dismissed' | 'fixed' | 'auto_dismissed';
  readonly manifestPath?: string;
}

/**
 * One alert of `GET /repos/{owner}/{repo}/dependabot/alerts`, from GitHub's own example
 * (`sync/github__dependabot_alerts_rest_example.json`, an alert of the enterprise list): without
 * the `repository` a repository's list does not carry, its users whole, its EPSS an object as the
 * schema has it (the example's list of one is read by the sync too: `reports.ts`).
 */
export function dependabotAlert(place: AlertPlace, example: Record<string, any>, spec: DependabotAlertSpec): Record<string, unknown> {
  const api = place.api ?? 'https://api.github.com';
  const { repository: _repository, ...alert } = structuredClone(example);
  const state = spec.state ?? 'open';
  const dismissed = state === 'dismissed';
  const epss = Array.isArray(alert.security_advisory?.epss) ? alert.security_advisory.epss[0] : alert.security_advisory?.epss;
  return {
    ...alert,
    number: spec.number,
    state,
    dependency: { ...alert.dependency, ...(spec.manifestPath ? { manifest_path: spec.manifestPath } : {}) },
    security_advisory: {
      ...alert.security_advisory,
      ...(epss ? { epss: { percentage: Number(epss.percentage), percentile: Number(epss.percentile) } } : {}),
    },
    url: `${api}/repos/${place.owner}/${place.repo}/dependabot/alerts/${spec.number}`,
    html_url: `${webOf(api)}/${place.owner}/${place.repo}/security/dependabot/${spec.number}`,
    dismissed_at: dismissed ? alert.dismissed_at : null,
    dismissed_by: dismissed ? simpleUser(api, 'octocat', 1, 'User') : null,
    dismissed_reason: dismissed ? alert.dismissed_reason : null,
    dismissed_comment: dismissed ? alert.dismissed_comment : null,
    fixed_at: state === 'fixed' ? '2026-03-09T16:40:00Z' : null,
    auto_dismissed_at: state === 'auto_dismissed' ? '2026-03-09T16:40:00Z' : null,
    assignees: [],
  };
}
