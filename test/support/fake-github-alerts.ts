import type { IncomingMessage, ServerResponse } from 'node:http';
import { Faults, latency, playFault, sendJson } from './faults.js';
import { listen, type Listening } from './servers.js';

export type AlertsRoute = 'org_repos' | 'user_repos' | 'viewer' | 'viewer_repos' | 'code_scanning' | 'dependabot' | 'secret_scanning';

export interface FakeAlertsRepo {
  readonly owner: string;
  readonly name: string;
  codeScanning: unknown[] | 'disabled' | 'no-analysis';
  dependabot: unknown[] | 'disabled';
  secretScanning: unknown[] | 'disabled';
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
    const full: FakeAlertsRepo = { codeScanning: [], dependabot: [], secretScanning: [], ...repo };
    this.repos.push(full);
    return full;
  }

  private repoJson(r: FakeAlertsRepo): unknown {
    return { id: this.repos.indexOf(r) + 1, name: r.name, full_name: `${r.owner}/${r.name}`, owner: { login: r.owner, type: this.orgs.has(r.owner) ? 'Organization' : 'User' }, html_url: `${this.server}/${r.owner}/${r.name}`, private: false, archived: false };
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
        return this.orgs.has(owner) ? notFound() : this.pageOf(res, url, this.repos.filter((r) => r.owner === owner).map((r) => this.repoJson(r)));
      case 'viewer':
        return sendJson(res, 200, { login: this.viewer, id: 1, type: 'User' }, this.rateHeaders());
      case 'viewer_repos':
        return this.pageOf(res, url, this.repos.filter((r) => r.owner === this.viewer).map((r) => this.repoJson(r)));
      case 'unknown':
        return notFound();
    }
    const repo = this.repos.find((r) => r.owner === owner && r.name === repoName);
    if (!repo) return notFound();
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
    const hide = url.searchParams.get('hide_secret') === 'true';
    return this.pageOf(res, url, open(repo.secretScanning).map((a) => (hide ? a : { ...(a as object), secret: 'ghp_THE-LEAKED-SECRET-VALUE' })));
  }
}
