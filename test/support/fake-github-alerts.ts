import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerAfter, Faults, playFault, sendJson } from './faults.js';
import { listen, readBody, type Listening } from './servers.js';
import { simpleUser } from './github-objects.js';

export type AlertsRoute =
  | 'org_repos'
  | 'user_repos'
  | 'viewer'
  | 'viewer_repos'
  | 'code_scanning'
  | 'dependabot'
  | 'secret_scanning'
  | 'repo'
  | 'repository_by_id'
  | 'issues'
  | 'create_issue'
  | 'issue'
  | 'update_issue'
  | 'issue_comments'
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
  /** Search calls answered since the issue was created (see `searchLag`). */
  searchesSince?: number;
  /** Epoch ms of the last close; null while open. GitHub's `closed_at` (whole seconds). */
  closedAt?: number | null;
  stateReason?: 'completed' | 'not_planned' | 'duplicate' | 'reopened' | null;
  /** Epoch ms of the last change (`updated_at`). */
  updatedAt?: number;
  /** Comments in the order written. */
  comments?: { body: string; at: number }[];
}

/** One of GitHub's rate-limit budgets (`x-ratelimit-resource`), reset every `windowS` seconds. */
export interface FakeBudget {
  limit: number;
  remaining: number;
  /** Epoch seconds. */
  reset: number;
  readonly windowS: number;
}

export interface FakeAlertsRepo {
  readonly owner: string;
  readonly name: string;
  codeScanning: unknown[] | 'disabled' | 'no-analysis';
  dependabot: unknown[] | 'disabled';
  secretScanning: unknown[] | 'disabled';
  hasIssues: boolean;
  issues: FakeIssue[];
  /** False: the token cannot push, so GitHub silently drops the labels of a new issue (and says `permissions.push: false`). */
  canPush?: boolean;
  /** `default_branch` (default `main`). */
  defaultBranch?: string;
}

/** GitHub writes timestamps in whole seconds. */
const githubTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

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
 * 400), the feature-off answers, the primary rate limit per resource (`x-ratelimit-limit`,
 * `-remaining`, `-reset`, `-used` and `-resource` on every answer; `core` and `search` counted
 * apart, each refilled at its reset by the fake's clock; 403 or 429 once spent) and injected
 * secondary limits. For issue push: issues in GitHub's shape, labels silently dropped when the
 * token cannot push (`canPush: false`), and a search index that lags behind creation
 * (`searchLag`). Every call records its method and `X-GitHub-Api-Version`. Served under
 * `/api/v3` for an enterprise server.
 */
export class FakeGitHubAlerts {
  readonly repos: FakeAlertsRepo[] = [];
  readonly orgs = new Set<string>();
  /**
   * Repositories transferred or renamed: the former `owner/name` (lowercased) → the repository now.
   * GitHub answers the former name with `301 Moved Permanently` to `/repositories/{id}`.
   */
  readonly moved = new Map<string, FakeAlertsRepo>();
  readonly faults = new Faults<AlertsRoute>();
  /**
   * Faults played after a write took effect (`create_issue`, `issue_comments`): the issue or
   * comment is made, then the answer is lost (`'reset'`: the connection dropped; `'hang'`: no
   * answer, as a timeout sees it) or replaced (a `502` from a proxy in front of GitHub).
   */
  readonly afterWriting = new Faults<AlertsRoute>();
  readonly calls: {
    route: AlertsRoute | 'unknown';
    path: string;
    query: URLSearchParams;
    authorization: string | undefined;
    method?: string;
    apiVersion?: string | undefined;
    at?: number;
    /** Counted against the primary rate limit (a 304 is not). */
    counted?: boolean;
    /** Answered 304 Not Modified. */
    notModified?: boolean;
  }[] = [];
  /** The request behind each answer being written, for conditional answers. */
  private readonly pending = new WeakMap<ServerResponse, { req: IncomingMessage; call: FakeGitHubAlerts['calls'][number] }>();
  /** The login of the token's user (`GET /user`). */
  viewer = 'octocat';
  /** The fake's clock (epoch ms): budgets reset and the search index catches up by it. */
  now: () => number = () => Date.now();
  /** GitHub's budgets per resource; `core` for REST, `search` (30 a minute), `graphql`. */
  readonly budgets: Record<'core' | 'search' | 'graphql', FakeBudget> = {
    core: { limit: 5000, remaining: 5000, reset: Math.floor(Date.now() / 1000) + 3600, windowS: 3600 },
    search: { limit: 30, remaining: 30, reset: Math.floor(Date.now() / 1000) + 60, windowS: 60 },
    graphql: { limit: 5000, remaining: 5000, reset: Math.floor(Date.now() / 1000) + 3600, windowS: 3600 },
  };
  /** The status of a spent primary limit: GitHub documents 403 or 429. */
  rateLimitStatus: 403 | 429 = 403;
  /**
   * How far the search index lags issue creation: an issue is found only after `calls` search
   * requests, or `ms` of the fake's clock, since it was created. Unset: only after `indexSearch()`.
   */
  searchLag: { calls?: number; ms?: number } | undefined;
  /** Names that are neither an organisation nor a user here (or not visible to the token): 404 for their repository lists. */
  readonly missingOwners = new Set<string>();
  /** On: answers as GitHub Enterprise Server versions that ignore `hide_secret` do, the secret value in every alert. */
  ignoresHideSecret = false;
  /** The secret value this fake puts in a secret-scanning alert when it is not hidden. */
  static readonly LEAKED_SECRET = 'ghp_THE-LEAKED-SECRET-VALUE';
  /** Every answer leaves this long after its request arrived (`answerAfter`). */
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
      default_branch: r.defaultBranch ?? 'main',
      private: false,
      archived: false,
      has_issues: r.hasIssues,
      permissions: { admin: false, maintain: false, push: r.canPush !== false, triage: r.canPush !== false, pull: true },
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

  /** The core budget (REST calls). */
  get rateLimit(): FakeBudget {
    return this.budgets.core;
  }

  /** Search requests left in the current minute (GitHub allows 30 for a token). */
  get searchRemaining(): number {
    return this.budgets.search.remaining;
  }

  set searchRemaining(value: number) {
    this.budgets.search.remaining = value;
  }

  /** Whether search finds the issue yet. */
  private searchable(issue: FakeIssue): boolean {
    if (issue.indexed) return true;
    const lag = this.searchLag;
    if (!lag) return false;
    return (lag.calls !== undefined && (issue.searchesSince ?? 0) >= lag.calls) || (lag.ms !== undefined && this.now() - issue.createdAt >= lag.ms);
  }

  /** The budget, in a new window once its reset has passed, as GitHub's budgets do. */
  private budget(resource: 'core' | 'search' | 'graphql'): FakeBudget {
    const b = this.budgets[resource];
    const nowS = Math.floor(this.now() / 1000);
    if (nowS >= b.reset) {
      b.remaining = b.limit;
      b.reset = nowS + b.windowS;
    }
    return b;
  }

  private budgetHeaders(resource: 'core' | 'search' | 'graphql'): Record<string, string> {
    const b = this.budgets[resource];
    return {
      'x-ratelimit-limit': String(b.limit),
      'x-ratelimit-remaining': String(Math.max(0, b.remaining)),
      'x-ratelimit-reset': String(b.reset),
      'x-ratelimit-used': String(b.limit - Math.max(0, b.remaining)),
      'x-ratelimit-resource': resource,
    };
  }

  /** GitHub's answer to a call on a spent budget: 403 (or 429), `x-ratelimit-remaining: 0`. */
  private spent(res: ServerResponse, resource: 'core' | 'search' | 'graphql'): void {
    sendJson(
      res,
      this.rateLimitStatus,
      { message: 'API rate limit exceeded for user ID 1. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api', status: String(this.rateLimitStatus) },
      { ...this.budgetHeaders(resource), 'x-ratelimit-remaining': '0' },
    );
  }

  /** An issue as GitHub's `issue` schema has it (every required field). */
  private issueJson(r: FakeAlertsRepo, i: FakeIssue): Record<string, unknown> {
    const api = `${this.server}${this.prefix}`;
    const url = `${api}/repos/${r.owner}/${r.name}/issues/${i.number}`;
    const created = githubTime(i.createdAt);
    const user = this.userJson('gatehouse-bot[bot]', 41898282, 'Bot');
    return {
      id: 1_000_000 + i.number,
      node_id: `I_kwDO${Buffer.from(String(i.number)).toString('base64url')}`,
      url,
      repository_url: `${api}/repos/${r.owner}/${r.name}`,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: i.html_url,
      number: i.number,
      state: i.state,
      title: i.title,
      body: i.body,
      user,
      labels: i.labels.map((name, n) => ({ id: 2_000_000 + n, node_id: `LA_${name}`, url: `${api}/repos/${r.owner}/${r.name}/labels/${encodeURIComponent(name)}`, name, description: null, color: 'ededed', default: false })),
      assignee: null,
      assignees: [],
      milestone: null,
      locked: false,
      comments: i.comments?.length ?? 0,
      closed_at: i.state === 'closed' ? githubTime(i.closedAt ?? i.createdAt) : null,
      // Left out while null: the description's enum does not list null (it marks the field nullable).
      ...(i.stateReason ? { state_reason: i.stateReason } : {}),
      created_at: created,
      updated_at: githubTime(i.updatedAt ?? i.createdAt),
      author_association: 'NONE',
    };
  }

  private userJson(login: string, id: number, type: 'User' | 'Bot'): Record<string, unknown> {
    return simpleUser(`${this.server}${this.prefix}`, login, id, type);
  }

  private rateHeaders(): Record<string, string> {
    return this.budgetHeaders('core');
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
    this.ok(res, items.slice((page - 1) * perPage, page * perPage), headers);
  }

  /**
   * A 200 with GitHub's conditional-request behaviour: every answer carries an `ETag` (here a hash
   * of its body); a GET whose `If-None-Match` names the current one gets `304 Not Modified` without
   * a body, and does not count against the primary rate limit.
   */
  private ok(res: ServerResponse, body: unknown, headers: Record<string, string>): void {
    const text = JSON.stringify(body);
    const etag = `W/"${createHash('sha256').update(text).digest('hex')}"`;
    const pending = this.pending.get(res);
    const asked = pending?.req.headers['if-none-match'];
    if (pending?.req.method === 'GET' && typeof asked === 'string' && asked.split(',').map((t) => t.trim()).includes(etag)) {
      if (pending.call.counted) {
        this.budgets.core.remaining++;
        pending.call.counted = false;
      }
      pending.call.notModified = true;
      res.writeHead(304, { ...headers, ...this.rateHeaders(), etag });
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers, etag });
    res.end(text);
  }

  /** Calls that counted against the core primary limit. */
  countedCalls(): number {
    return this.calls.filter((c) => c.counted).length;
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
    this.ok(res, items.slice(start, start + perPage), headers);
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
      // GitHub: "the labels are silently dropped for users without push access to the repository".
      labels: Array.isArray(body.labels) && repo.canPush !== false ? body.labels.map(String) : [],
      state: 'open',
      html_url: `${this.server}/${repo.owner}/${repo.name}/issues/${number}`,
      indexed: false,
      createdAt: this.now(),
      searchesSince: 0,
    };
    repo.issues.push(issue);
    if (await this.answerLost('create_issue', req, res)) return;
    const json = this.issueJson(repo, issue);
    sendJson(res, 201, json, { ...this.rateHeaders(), location: String(json.url) });
  }

  /** A person closes (or reopens) the issue on GitHub, at the fake's clock. */
  setIssueState(issue: FakeIssue, state: 'open' | 'closed', reason: FakeIssue['stateReason'] = state === 'closed' ? 'completed' : 'reopened'): void {
    issue.state = state;
    issue.stateReason = reason;
    issue.closedAt = state === 'closed' ? this.now() : null;
    issue.updatedAt = this.now();
  }

  /**
   * `PATCH /repos/{owner}/{repo}/issues/{number}` as the openapi description has it: \`state\` open or
   * closed, \`state_reason\` one of completed, not_planned, duplicate, reopened or null, "ignored
   * unless state is changed"; closing without a reason gives completed, reopening gives reopened.
   */
  private async updateIssue(repo: FakeAlertsRepo, issue: FakeIssue, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: { state?: unknown; state_reason?: unknown; title?: unknown; body?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return sendJson(res, 400, { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/rest', status: '400' }, this.rateHeaders());
    }
    const invalid = (field: string, value: unknown) =>
      sendJson(res, 422, { message: 'Validation Failed', errors: [{ resource: 'Issue', code: 'invalid', field, value }], documentation_url: 'https://docs.github.com/rest/issues/issues#update-an-issue', status: '422' }, this.rateHeaders());
    if (body.state !== undefined && body.state !== 'open' && body.state !== 'closed') return invalid('state', body.state);
    if (body.state_reason !== undefined && body.state_reason !== null && !['completed', 'not_planned', 'duplicate', 'reopened'].includes(String(body.state_reason))) {
      return invalid('state_reason', body.state_reason);
    }
    if (body.state !== undefined && body.state !== issue.state) {
      const reason = (body.state_reason ?? (body.state === 'closed' ? 'completed' : 'reopened')) as FakeIssue['stateReason'];
      this.setIssueState(issue, body.state, reason);
    }
    sendJson(res, 200, this.issueJson(repo, issue), this.rateHeaders());
  }

  /** `POST /repos/{owner}/{repo}/issues/{number}/comments`: \`body\` required; 201 with the comment. */
  private async comment(repo: FakeAlertsRepo, issue: FakeIssue, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!repo.hasIssues) return sendJson(res, 410, { message: 'Issues are disabled for this repo', documentation_url: 'https://docs.github.com/rest', status: '410' }, this.rateHeaders());
    let body: { body?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return sendJson(res, 400, { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/rest', status: '400' }, this.rateHeaders());
    }
    if (typeof body.body !== 'string' || body.body.trim() === '') {
      return sendJson(res, 422, { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }], documentation_url: 'https://docs.github.com/rest', status: '422' }, this.rateHeaders());
    }
    (issue.comments ??= []).push({ body: body.body, at: this.now() });
    issue.updatedAt = this.now();
    if (await this.answerLost('issue_comments', req, res)) return;
    sendJson(res, 201, this.commentJson(repo, issue, issue.comments.length - 1), this.rateHeaders());
  }

  /** A comment as GitHub's `issue-comment` schema has it. */
  private commentJson(repo: FakeAlertsRepo, issue: FakeIssue, index: number): Record<string, unknown> {
    const comment = issue.comments![index]!;
    const id = 3_000_000 + issue.number * 1000 + index + 1;
    const api = `${this.server}${this.prefix}/repos/${repo.owner}/${repo.name}`;
    return {
      id,
      node_id: `IC_${id}`,
      url: `${api}/issues/comments/${id}`,
      html_url: `${issue.html_url}#issuecomment-${id}`,
      issue_url: `${api}/issues/${issue.number}`,
      body: comment.body,
      user: this.userJson('gatehouse-bot[bot]', 41898282, 'Bot'),
      created_at: githubTime(comment.at),
      updated_at: githubTime(comment.at),
      author_association: 'NONE',
    };
  }

  /** `GET /repos/{owner}/{repo}/issues/{number}/comments`: oldest first, page pagination, `since` (updated at or after). */
  private listComments(repo: FakeAlertsRepo, issue: FakeIssue, url: URL, res: ServerResponse): void {
    const since = url.searchParams.get('since');
    const sinceMs = since ? Date.parse(since) : undefined;
    const all = (issue.comments ?? []).map((c, i) => ({ c, i })).filter(({ c }) => sinceMs === undefined || Math.floor(c.at / 1000) * 1000 >= sinceMs);
    this.pageOf(res, url, all.map(({ i }) => this.commentJson(repo, issue, i)));
  }

  /** Plays an `afterWriting` fault of the route, if one is queued; true when it answered (or dropped) the call. */
  private async answerLost(route: AlertsRoute, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const fault = this.afterWriting.take(route);
    if (fault === undefined) return false;
    // The body is read already: drop the connection now.
    if (fault === 'reset') {
      req.socket.destroy();
      return true;
    }
    return playFault(fault, req, res);
  }

  /** `GET /search/issues`: `repo:`, `is:issue` (required) and one quoted phrase searched in bodies; its own rate limit. */
  private searchIssues(url: URL, res: ServerResponse): void {
    const budget = this.budget('search');
    if (budget.remaining <= 0) return this.spent(res, 'search');
    budget.remaining--;
    const searchHeaders = this.budgetHeaders('search');
    for (const issue of this.allIssues()) issue.searchesSince = (issue.searchesSince ?? 0) + 1;
    const q = url.searchParams.get('q') ?? '';
    if (!/\bis:issue\b/.test(q)) {
      return sendJson(res, 422, { message: "Query must include 'is:issue' or 'is:pull-request'", documentation_url: 'https://docs.github.com/rest/search/search#search-issues-and-pull-requests', status: '422' }, searchHeaders);
    }
    const repoName = /\brepo:([^\s]+)/.exec(q)?.[1]?.toLowerCase();
    const phrase = /"([^"]+)"/.exec(q)?.[1];
    const items = this.repos
      .filter((r) => !repoName || `${r.owner}/${r.name}`.toLowerCase() === repoName)
      .flatMap((r) => r.issues.filter((i) => this.searchable(i) && (!phrase || i.body.includes(phrase))).map((i) => ({ ...this.issueJson(r, i), score: 1 })));
    sendJson(res, 200, { total_count: items.length, incomplete_results: false, items, search_type: 'lexical' }, searchHeaders);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.server);
    const path = url.pathname.startsWith(this.prefix) ? url.pathname.slice(this.prefix.length) : '/not-under-prefix';
    let m: RegExpExecArray | null;
    let route: AlertsRoute | 'unknown' = 'unknown';
    let owner = '';
    let repoName = '';
    let issueNumber = 0;
    if ((m = /^\/orgs\/([^/]+)\/repos$/.exec(path))) [route, owner] = ['org_repos', m[1]!];
    else if ((m = /^\/users\/([^/]+)\/repos$/.exec(path))) [route, owner] = ['user_repos', m[1]!];
    else if (path === '/user') route = 'viewer';
    else if (path === '/user/repos') route = 'viewer_repos';
    else if (path === '/search/issues') route = 'search_issues';
    else if ((m = /^\/repos\/([^/]+)\/([^/]+)$/.exec(path))) [route, owner, repoName] = ['repo', m[1]!, m[2]!];
    else if ((m = /^\/repositories\/(\d+)$/.exec(path))) [route, issueNumber] = ['repository_by_id', Number(m[1])];
    else if ((m = /^\/repos\/([^/]+)\/([^/]+)\/issues$/.exec(path))) [route, owner, repoName] = [req.method === 'POST' ? 'create_issue' : 'issues', m[1]!, m[2]!];
    else if ((m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/.exec(path))) [route, owner, repoName, issueNumber] = [req.method === 'PATCH' ? 'update_issue' : 'issue', m[1]!, m[2]!, Number(m[3])];
    else if ((m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path))) [route, owner, repoName, issueNumber] = ['issue_comments', m[1]!, m[2]!, Number(m[3])];
    else if ((m = /^\/repos\/([^/]+)\/([^/]+)\/(code-scanning|dependabot|secret-scanning)\/alerts$/.exec(path))) {
      [owner, repoName] = [m[1]!, m[2]!];
      route = m[3] === 'code-scanning' ? 'code_scanning' : m[3] === 'dependabot' ? 'dependabot' : 'secret_scanning';
    }
    const call: FakeGitHubAlerts['calls'][number] = { route, path, query: url.searchParams, authorization: req.headers.authorization, method: req.method ?? 'GET', apiVersion: req.headers['x-github-api-version'] as string | undefined, at: this.now() };
    this.calls.push(call);
    this.pending.set(res, { req, call });
    answerAfter(res, this.delayMs);
    if (route !== 'unknown' && (await playFault(this.faults.take(route), req, res))) return;
    const auth = req.headers.authorization ?? '';
    if (auth !== `token ${this.token}` && auth !== `Bearer ${this.token}`) {
      return sendJson(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    }
    // Search draws on its own budget.
    if (route === 'search_issues') return this.searchIssues(url, res);
    const core = this.budget('core');
    if (core.remaining <= 0) return this.spent(res, 'core');
    core.remaining--;
    call.counted = true;
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
      case 'repository_by_id': {
        const byId = this.repos[issueNumber - 1];
        return byId ? this.ok(res, this.repoJson(byId), this.rateHeaders()) : notFound();
      }
      case 'unknown':
        return notFound();
    }
    const repo = this.repos.find((r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === repoName.toLowerCase());
    const movedTo = this.moved.get(`${owner}/${repoName}`.toLowerCase());
    if (!repo && movedTo && route === 'repo') {
      const location = `${this.server}${this.prefix}/repositories/${this.repos.indexOf(movedTo) + 1}`;
      res.writeHead(301, { 'content-type': 'application/json; charset=utf-8', location, ...this.rateHeaders() });
      return void res.end(JSON.stringify({ message: 'Moved Permanently', url: location, documentation_url: 'https://docs.github.com/v3/#http-redirects' }));
    }
    if (!repo) return notFound();
    if (route === 'repo') return this.ok(res, this.repoJson(repo), this.rateHeaders());
    if (route === 'issues') {
      const label = url.searchParams.get('labels');
      const state = url.searchParams.get('state') ?? 'open';
      const issues = repo.issues.filter((i) => (!label || i.labels.includes(label)) && (state === 'all' || i.state === state)).map((i) => this.issueJson(repo, i));
      return this.pageOf(res, url, issues);
    }
    if (route === 'create_issue') return this.createIssue(repo, req, res);
    if (route === 'issue' || route === 'update_issue' || route === 'issue_comments') {
      const issue = repo.issues.find((i) => i.number === issueNumber);
      if (!issue) return notFound();
      if (route === 'issue') return this.ok(res, this.issueJson(repo, issue), this.rateHeaders());
      if (route === 'update_issue') return this.updateIssue(repo, issue, req, res);
      if (req.method === 'GET') return this.listComments(repo, issue, url, res);
      if (req.method !== 'POST') return notFound();
      return this.comment(repo, issue, req, res);
    }
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
