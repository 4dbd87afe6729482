import type { IncomingMessage, ServerResponse } from 'node:http';
import { Faults, latency, playFault, sendJson } from './faults.js';
import { listen, readBody, type Listening } from './servers.js';

export type AlertsRoute =
  | 'org_repos'
  | 'user_repos'
  | 'viewer'
  | 'viewer_repos'
  | 'code_scanning'
  | 'dependabot'
  | 'secret_scanning'
  | 'repo'
  | 'issues'
  | 'create_issue'
  | 'search_issues';

export interface FakeIssue {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  labels: string[];
  state: 'open' | 'closed';
  readonly html_url: string;
  /** Search finds an issue only once indexed (`indexSearch()`), as GitHub's index lags creation. */
  indexed: boolean;
  readonly createdAt: number;
}

export interface FakeAlertsRepo {
  readonly owner: string;
  readonly name: string;
  codeScanning: unknown[] | 'disabled' | 'no-analysis';
  dependabot: unknown[] | 'disabled';
  secretScanning: unknown[] | 'disabled';
  hasIssues: boolean;
  issues: FakeIssue[];
}

const MESSAGES = {
  codeScanningDisabled: 'Advanced Security must be enabled for this repository to use code scanning.',
  noAnalysis: 'no analysis found',
  dependabotDisabled: 'Dependabot alerts are disabled for this repository.',
  secretScanningDisabled: 'Secret scanning is disabled on this repository.',
};

/**
 * A loopback fake of the GitHub REST endpoints `sync-github` reads, with GitHub's shapes:
 * repository lists (page `Link` pagination), code-scanning and secret-scanning alerts (page
 * pagination), Dependabot alerts (cursor pagination only: `after` in `Link`, `page` refused with
 * 400), the feature-off answers, the primary rate limit (`x-ratelimit-*` headers on every answer,
 * 403 once spent) and injected secondary limits. Served under `/api/v3` for an enterprise server.
 */
export class FakeGitHubAlerts {
  readonly repos: FakeAlertsRepo[] = [];
  readonly orgs = new Set<string>();
  readonly faults = new Faults<AlertsRoute>();
  readonly calls: { route: AlertsRoute | 'unknown'; path: string; query: URLSearchParams; authorization: string | undefined }[] = [];
  /** The login of the token's user (`GET /user`). */
  viewer = 'octocat';
  rateLimit = { limit: 5000, remaining: 5000, reset: Math.floor(Date.now() / 1000) + 3600 };
  /** Names that are neither an organisation nor a user here (or not visible to the token): 404 for their repository lists. */
  readonly missingOwners = new Set<string>();
  /** On: answers as GitHub Enterprise Server versions that ignore `hide_secret` do, the secret value in every alert. */
  ignoresHideSecret = false;
  /** The secret value this fake puts in a secret-scanning alert when it is not hidden. */
  static readonly LEAKED_SECRET = 'ghp_THE-LEAKED-SECRET-VALUE';
  delayMs = 0;

  private constructor(
    private readonly listening: Listening,
    readonly token: string,
    readonly prefix: '' | '/api/v3',
  ) {}

  static async start(options: { token?: string; prefix?: '' | '/api/v3' } = {}): Promise<FakeGitHubAlerts> {
    let fake: FakeGitHubAlerts | undefined;
    const listening = await listen((req, res) => void fake!.handle(req, res));
    fake = new FakeGitHubAlerts(listening, options.token ?? 'ghp_fakeAlertsToken0123456789abcdefABCD', options.prefix ?? '');
    return fake;
  }

  /** The server address as configured in `GITHUB_TARGETS`. */
  get server(): string {
    return this.listening.url;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  count(route: AlertsRoute): number {
    return this.calls.filter((c) => c.route === route).length;
  }

  addRepo(repo: Partial<FakeAlertsRepo> & { owner: string; name: string }): FakeAlertsRepo {
    const full: FakeAlertsRepo = { codeScanning: [], dependabot: [], secretScanning: [], hasIssues: true, issues: [], ...repo };
    this.repos.push(full);
    return full;
  }

  private repoJson(r: FakeAlertsRepo): unknown {
    return {
      id: this.repos.indexOf(r) + 1,
      name: r.name,
      full_name: `${r.owner}/${r.name}`,
      owner: { login: r.owner, type: this.orgs.has(r.owner) ? 'Organization' : 'User' },
      html_url: `${this.server}/${r.owner}/${r.name}`,
      private: false,
      archived: false,
      has_issues: r.hasIssues,
    };
  }

  /** Every issue created through the API, across repositories. */
  allIssues(): FakeIssue[] {
    return this.repos.flatMap((r) => r.issues);
  }

  /** Makes every issue searchable, as GitHub's index eventually does. */
  indexSearch(): void {
    for (const issue of this.allIssues()) issue.indexed = true;
  }

  /** Search requests left in the current minute (GitHub allows 30 for a token). */
  searchRemaining = 30;

  private issueJson(r: FakeAlertsRepo, i: FakeIssue): unknown {
    return {
      number: i.number,
      title: i.title,
      body: i.body,
      state: i.state,
      labels: i.labels.map((name) => ({ name })),
      html_url: i.html_url,
      url: `${this.server}${this.prefix}/repos/${r.owner}/${r.name}/issues/${i.number}`,
      repository_url: `${this.server}${this.prefix}/repos/${r.owner}/${r.name}`,
    };
  }

  private rateHeaders(): Record<string, string> {
    return {
      'x-ratelimit-limit': String(this.rateLimit.limit),
      'x-ratelimit-remaining': String(this.rateLimit.remaining),
      'x-ratelimit-reset': String(this.rateLimit.reset),
      'x-ratelimit-used': String(this.rateLimit.limit - this.rateLimit.remaining),
      'x-ratelimit-resource': 'core',
    };
  }

  private pageOf(res: ServerResponse, url: URL, items: readonly unknown[]): void {
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? '30'));
    const page = Number(url.searchParams.get('page') ?? '1');
    const headers = this.rateHeaders();
    if (page * perPage < items.length) {
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      headers.link = `<${next.href}>; rel="next"`;
    }
    sendJson(res, 200, items.slice((page - 1) * perPage, page * perPage), headers);
  }

  private cursorPageOf(res: ServerResponse, url: URL, items: readonly unknown[]): void {
    if (url.searchParams.has('page')) {
      return sendJson(res, 400, { message: 'Pagination using the `page` parameter is not supported. Use cursor-based pagination with `before` or `after` instead.', documentation_url: 'https://docs.github.com/rest/dependabot/alerts', status: '400' }, this.rateHeaders());
    }
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? '30'));
    const after = url.searchParams.get('after');
    const start = after ? Number(Buffer.from(after, 'base64url').toString()) : 0;
    const headers = this.rateHeaders();
    if (start + perPage < items.length) {
      const next = new URL(url);
      next.searchParams.set('after', Buffer.from(String(start + perPage)).toString('base64url'));
      headers.link = `<${next.href}>; rel="next"`;
    }
    sendJson(res, 200, items.slice(start, start + perPage), headers);
  }

  /** `POST /repos/{owner}/{repo}/issues`: 410 when issues are off, 422 as GitHub validates, labels created on demand. */
  private async createIssue(repo: FakeAlertsRepo, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!repo.hasIssues) return sendJson(res, 410, { message: 'Issues are disabled for this repo', documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue', status: '410' }, this.rateHeaders());
    let body: { title?: unknown; body?: unknown; labels?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return sendJson(res, 400, { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/rest', status: '400' }, this.rateHeaders());
    }
    const invalid = (field: string, message: string) =>
      sendJson(res, 422, { message: 'Validation Failed', errors: [{ resource: 'Issue', code: 'custom', field, message }], documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue', status: '422' }, this.rateHeaders());
    if (typeof body.title !== 'string' || body.title.trim() === '') return invalid('title', 'title is missing');
    if (body.title.length > 256) return invalid('title', 'title is too long (maximum is 256 characters)');
    if (typeof body.body === 'string' && body.body.length > 65536) return invalid('body', 'body is too long (maximum is 65536 characters)');
    const number = this.repos.reduce((n, r) => n + r.issues.length, 0) + 1;
    const issue: FakeIssue = {
      number,
      title: body.title,
      body: typeof body.body === 'string' ? body.body : '',
      labels: Array.isArray(body.labels) ? body.labels.map(String) : [],
      state: 'open',
      html_url: `${this.server}/${repo.owner}/${repo.name}/issues/${number}`,
      indexed: false,
      createdAt: Date.now(),
    };
    repo.issues.push(issue);
    sendJson(res, 201, this.issueJson(repo, issue), this.rateHeaders());
  }

  /** `GET /search/issues`: `repo:`, `is:issue` (required) and one quoted phrase searched in bodies; its own rate limit. */
  private searchIssues(url: URL, res: ServerResponse): void {
    const searchHeaders = { ...this.rateHeaders(), 'x-ratelimit-resource': 'search', 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': String(Math.max(0, this.searchRemaining - 1)) };
    if (this.searchRemaining <= 0) {
      return sendJson(res, 403, { message: 'API rate limit exceeded for user ID 1.', documentation_url: 'https://docs.github.com/rest/search/search#rate-limit' }, { ...searchHeaders, 'x-ratelimit-remaining': '0' });
    }
    this.searchRemaining--;
    const q = url.searchParams.get('q') ?? '';
    if (!/\bis:issue\b/.test(q)) {
      return sendJson(res, 422, { message: "Query must include 'is:issue' or 'is:pull-request'", documentation_url: 'https://docs.github.com/rest/search/search#search-issues-and-pull-requests', status: '422' }, searchHeaders);
    }
    const repoName = /\brepo:([^\s]+)/.exec(q)?.[1]?.toLowerCase();
    const phrase = /"([^"]+)"/.exec(q)?.[1];
    const items = this.repos
      .filter((r) => !repoName || `${r.owner}/${r.name}`.toLowerCase() === repoName)
      .flatMap((r) => r.issues.filter((i) => i.indexed && (!phrase || i.body.includes(phrase))).map((i) => this.issueJson(r, i)));
    sendJson(res, 200, { total_count: items.length, incomplete_results: false, items }, searchHeaders);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.server);
    const path = url.pathname.startsWith(this.prefix) ? url.pathname.slice(this.prefix.length) : '/not-under-prefix';
    let m: RegExpExecArray | null;
    let route: AlertsRoute | 'unknown' = 'unknown';
    let owner = '';
    let repoName = '';
    if ((m = /^\/orgs\/([^/]+)\/repos$/.exec(path))) [route, owner] = ['org_repos', m[1]!];
    else if ((m = /^\/users\/([^/]+)\/repos$/.exec(path))) [route, owner] = ['user_repos', m[1]!];
    else if (path === '/user') route = 'viewer';
    else if (path === '/user/repos') route = 'viewer_repos';
    else if (path === '/search/issues') route = 'search_issues';
    else if ((m = /^\/repos\/([^/]+)\/([^/]+)$/.exec(path))) [route, owner, repoName] = ['repo', m[1]!, m[2]!];
    else if ((m = /^\/repos\/([^/]+)\/([^/]+)\/issues$/.exec(path))) [route, owner, repoName] = [req.method === 'POST' ? 'create_issue' : 'issues', m[1]!, m[2]!];
    else if ((m = /^\/repos\/([^/]+)\/([^/]+)\/(code-scanning|dependabot|secret-scanning)\/alerts$/.exec(path))) {
      [owner, repoName] = [m[1]!, m[2]!];
      route = m[3] === 'code-scanning' ? 'code_scanning' : m[3] === 'dependabot' ? 'dependabot' : 'secret_scanning';
    }
    this.calls.push({ route, path, query: url.searchParams, authorization: req.headers.authorization });
    await latency(this.delayMs);
    if (route !== 'unknown' && (await playFault(this.faults.take(route), req, res))) return;
    const auth = req.headers.authorization ?? '';
    if (auth !== `token ${this.token}` && auth !== `Bearer ${this.token}`) {
      return sendJson(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    }
    if (this.rateLimit.remaining <= 0) {
      return sendJson(res, 403, { message: 'API rate limit exceeded for user ID 1.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' }, this.rateHeaders());
    }
    this.rateLimit.remaining--;
    const notFound = () => sendJson(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }, this.rateHeaders());
    switch (route) {
      case 'org_repos':
        return this.orgs.has(owner) ? this.pageOf(res, url, this.repos.filter((r) => r.owner === owner).map((r) => this.repoJson(r))) : notFound();
      case 'user_repos':
        return this.orgs.has(owner) || this.missingOwners.has(owner) ? notFound() : this.pageOf(res, url, this.repos.filter((r) => r.owner === owner).map((r) => this.repoJson(r)));
      case 'viewer':
        return sendJson(res, 200, { login: this.viewer, id: 1, type: 'User' }, this.rateHeaders());
      case 'viewer_repos':
        return this.pageOf(res, url, this.repos.filter((r) => r.owner === this.viewer).map((r) => this.repoJson(r)));
      case 'unknown':
        return notFound();
      case 'search_issues':
        return this.searchIssues(url, res);
    }
    const repo = this.repos.find((r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === repoName.toLowerCase());
    if (!repo) return notFound();
    if (route === 'repo') return sendJson(res, 200, this.repoJson(repo), this.rateHeaders());
    if (route === 'issues') {
      const label = url.searchParams.get('labels');
      const state = url.searchParams.get('state') ?? 'open';
      const issues = repo.issues.filter((i) => (!label || i.labels.includes(label)) && (state === 'all' || i.state === state)).map((i) => this.issueJson(repo, i));
      return this.pageOf(res, url, issues);
    }
    if (route === 'create_issue') return this.createIssue(repo, req, res);
    const state = url.searchParams.get('state');
    const open = (alerts: unknown[]) => (state ? alerts.filter((a) => (a as { state?: string }).state === state) : alerts);
    const fail = (status: number, message: string) => sendJson(res, status, { message, documentation_url: 'https://docs.github.com/rest', status: String(status) }, this.rateHeaders());
    if (route === 'code_scanning') {
      if (repo.codeScanning === 'disabled') return fail(403, MESSAGES.codeScanningDisabled);
      if (repo.codeScanning === 'no-analysis') return fail(404, MESSAGES.noAnalysis);
      return this.pageOf(res, url, open(repo.codeScanning));
    }
    if (route === 'dependabot') {
      if (repo.dependabot === 'disabled') return fail(403, MESSAGES.dependabotDisabled);
      return this.cursorPageOf(res, url, open(repo.dependabot));
    }
    if (repo.secretScanning === 'disabled') return fail(404, MESSAGES.secretScanningDisabled);
    // Without hide_secret=true GitHub includes the secret value in each alert.
    const hide = url.searchParams.get('hide_secret') === 'true' && !this.ignoresHideSecret;
    return this.pageOf(res, url, open(repo.secretScanning).map((a) => (hide ? a : { ...(a as object), secret: FakeGitHubAlerts.LEAKED_SECRET })));
  }
}
