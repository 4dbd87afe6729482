import { isRepositoryPair, sameFullName } from '../../github/identifiers.js';
import type { ScanFacts } from '../defectdojo/client.js';
import { SCAN_TYPES, type ScanType } from '../defectdojo/scan-types.js';
import { HttpError } from '../../http/call-errors.js';
import type { GitHubClient } from '../../github/client.js';
import { codeScanningReport, dependabotReport, secretScanningReport, type KnownAlert } from './reports.js';

export interface Repository {
  readonly owner: string;
  readonly name: string;
  readonly fullName: string;
  readonly htmlUrl: string;
  /** `default_branch`, when the listing gives it. */
  readonly defaultBranch?: string;
}

export interface AlertKind {
  readonly kind: 'code-scanning' | 'dependabot' | 'secret-scanning';
  /** Its switch: `sources.github.<setting>` (`config.ts`). */
  readonly setting: 'codeScanning' | 'dependabot' | 'secretScanning';
  /** The test inside the repository's product and engagement. */
  readonly test: string;
  readonly scanType: ScanType;
  list(client: GitHubClient, repository: Repository): Promise<unknown[]>;
  /**
   * The `unique_id_from_tool` prefix of this kind's findings, when the report needs what
   * DefectDojo already holds for them (`known`, by unique id) to keep each alert one finding.
   */
  readonly knownPrefix?: string;
  report(repository: Repository, alerts: readonly unknown[], known: ReadonlyMap<string, KnownAlert>): { document: unknown; kept?: readonly string[] };
  /** GitHub's answer when the feature is off for a repository: skipped, not failed. */
  readonly notEnabled: (error: HttpError) => boolean;
  /** What this kind's alerts say of the scan, for the test in DefectDojo (`ScanFacts`). */
  scan(repository: Repository, alerts: readonly unknown[]): ScanFacts;
}

const repositoryFacts = (repository: Repository): ScanFacts => (repository.htmlUrl ? { sourceCodeManagementUri: repository.htmlUrl } : {});

/**
 * Code scanning: the commit and branch of the latest analysis, read from the open alerts' most
 * recent instances, the default branch's first (an open alert's most recent instance is on the
 * latest analysis of its branch); none without an open alert.
 */
function codeScanningFacts(repository: Repository, alerts: readonly unknown[]): ScanFacts {
  const instances = alerts
    .map((a) => (a as { most_recent_instance?: { ref?: unknown; commit_sha?: unknown } } | null)?.most_recent_instance)
    .filter((i): i is { ref: string; commit_sha: string } => typeof i?.ref === 'string' && typeof i.commit_sha === 'string' && /^[0-9a-f]{40,64}$/i.test(i.commit_sha));
  const onDefault = repository.defaultBranch ? instances.find((i) => i.ref === `refs/heads/${repository.defaultBranch}`) : undefined;
  const chosen = onDefault ?? instances[0];
  return {
    ...repositoryFacts(repository),
    ...(chosen ? { commitHash: chosen.commit_sha, branchTag: chosen.ref.replace(/^refs\/heads\//, '') } : {}),
  };
}

const PER_PAGE = 100;

/** Every item of every page, each passed through `read` as its page arrives (before the next is asked for). */
async function collect(pages: AsyncIterable<{ data: unknown }>, read: (item: unknown) => unknown = (item) => item): Promise<unknown[]> {
  const all: unknown[] = [];
  for await (const page of pages) if (Array.isArray(page.data)) for (const item of page.data) all.push(read(item));
  return all;
}

/**
 * A secret-scanning alert without its `secret`: GitHub Enterprise Server versions that ignore
 * `hide_secret=true` send the secret value in each alert. It is deleted from the parsed page in
 * place, as soon as the page is read, so no copy is kept, reported, logged or uploaded.
 */
function withoutSecret(alert: unknown): unknown {
  if (alert && typeof alert === 'object' && 'secret' in alert) delete (alert as { secret?: unknown }).secret;
  return alert;
}

/** Only open alerts are sent: `close_old_findings` closes the findings of alerts fixed or dismissed since. */
export const ALERT_KINDS: readonly AlertKind[] = [
  {
    kind: 'code-scanning',
    setting: 'codeScanning',
    test: 'Code scanning',
    scanType: SCAN_TYPES.codeScanning,
    list: (client, { owner, name }) =>
      collect(client.paginate.iterator('GET /repos/{owner}/{repo}/code-scanning/alerts', { owner, repo: name, state: 'open', per_page: PER_PAGE })),
    report: (_repository, alerts) => ({ document: codeScanningReport(alerts) }),
    scan: codeScanningFacts,
    // 403 without Advanced Security, 404 before the first analysis.
    notEnabled: (e) => (e.status === 403 && /advanced security must be enabled|code scanning is not enabled/i.test(e.detail ?? '')) || (e.status === 404 && /no analysis found/i.test(e.detail ?? '')),
  },
  {
    kind: 'dependabot',
    setting: 'dependabot',
    test: 'Dependabot alerts',
    scanType: SCAN_TYPES.dependabot,
    // Cursor pagination: the `Link` header carries `after`; a `page` parameter is refused.
    list: (client, { owner, name }) =>
      collect(client.paginate.iterator('GET /repos/{owner}/{repo}/dependabot/alerts', { owner, repo: name, state: 'open', per_page: PER_PAGE })),
    knownPrefix: 'dependabot/',
    report: (repository, alerts, known) => dependabotReport(repository, alerts, known),
    // Dependabot reads the manifests of the default branch.
    scan: (repository) => ({ ...repositoryFacts(repository), ...(repository.defaultBranch ? { branchTag: repository.defaultBranch } : {}) }),
    notEnabled: (e) => e.status === 403 && /dependabot alerts are disabled/i.test(e.detail ?? ''),
  },
  {
    kind: 'secret-scanning',
    setting: 'secretScanning',
    test: 'Secret scanning',
    scanType: SCAN_TYPES.secretScanning,
    list: (client, { owner, name }) =>
      collect(
        client.paginate.iterator('GET /repos/{owner}/{repo}/secret-scanning/alerts', { owner, repo: name, state: 'open', hide_secret: true, per_page: PER_PAGE }),
        withoutSecret,
      ),
    report: (_repository, alerts) => ({ document: secretScanningReport(alerts) }),
    // Secret scanning covers the whole history: no one commit or branch.
    scan: repositoryFacts,
    notEnabled: (e) => e.status === 404 && /secret scanning is disabled/i.test(e.detail ?? ''),
  },
];

export function repositoryOf(value: unknown): Repository | undefined {
  const r = value as { name?: unknown; full_name?: unknown; html_url?: unknown; default_branch?: unknown; owner?: { login?: unknown } } | null;
  if (!r || typeof r.full_name !== 'string' || !isRepositoryPair(r.owner?.login, r.name) || !sameFullName(r.full_name, `${r.owner!.login}/${r.name}`)) return undefined;
  return {
    owner: r.owner!.login as string,
    name: r.name as string,
    fullName: r.full_name,
    htmlUrl: typeof r.html_url === 'string' ? r.html_url : '',
    ...(typeof r.default_branch === 'string' && r.default_branch !== '' ? { defaultBranch: r.default_branch } : {}),
  };
}

/**
 * An owner's repositories: an organisation's through `/orgs/{org}/repos`; a user's through
 * `/user/repos` when the token is that user's (private ones included), else `/users/{user}/repos`.
 */
export async function listRepositories(client: GitHubClient, owner: string, viewer: () => Promise<string | undefined>): Promise<Repository[]> {
  let raw: unknown[];
  try {
    raw = await collect(client.paginate.iterator('GET /orgs/{org}/repos', { org: owner, type: 'all', per_page: PER_PAGE }));
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 404) throw err;
    const login = await viewer();
    raw =
      login?.toLowerCase() === owner.toLowerCase()
        ? await collect(client.paginate.iterator('GET /user/repos', { affiliation: 'owner', per_page: PER_PAGE }))
        : await collect(client.paginate.iterator('GET /users/{username}/repos', { username: owner, type: 'owner', per_page: PER_PAGE }));
  }
  return raw.map(repositoryOf).filter((r): r is Repository => r !== undefined);
}
