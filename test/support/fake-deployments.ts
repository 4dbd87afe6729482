import type { IncomingMessage, ServerResponse } from 'node:http';
import { simpleUser } from './github-objects.js';
import { listen, readBody, type Listening } from './servers.js';

const githubTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const NOT_ACCESSIBLE = { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/deployments/deployments#create-a-deployment', status: '403' };

export interface FakeDeployment {
  readonly id: number;
  readonly sha: string;
  readonly ref: string;
  readonly environment: string;
  readonly payload: Record<string, unknown> | string;
  readonly description: string | null;
  readonly createdAt: number;
  /** Newest last. */
  readonly statuses: { id: number; state: string; description: string; environmentUrl: string; logUrl: string; createdAt: number }[];
}

/**
 * GitHub's deployments of one repository (octo-org/octo-repo): create and list deployments (with
 * `sha` and `environment` filters and Link paging), create and list their statuses (newest first),
 * in the documented shapes (checked against the published description in a test). `readOnly`
 * answers writes as GitHub answers a token without `deployments: write`; `failNext` answers the
 * next request of a route with a 502.
 */
export class FakeDeployments {
  readonly deployments: FakeDeployment[] = [];
  readonly calls: string[] = [];
  /** Every request as it came: method, path with query, body. */
  readonly requests: { method: string; url: string; body: string }[] = [];
  readOnly = false;
  readonly failNext = new Set<'create' | 'status'>();
  private nextId = 500;

  private constructor(
    private readonly listening: Listening,
    private readonly token: string,
  ) {}

  static async start(token: string): Promise<FakeDeployments> {
    let fake!: FakeDeployments;
    const listening = await listen((req, res) => void fake.handle(req, res));
    fake = new FakeDeployments(listening, token);
    return fake;
  }

  get url(): string {
    return this.listening.url;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const text = await readBody(req);
    this.calls.push(`${req.method} ${url.pathname}`);
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', body: text });
    if (req.headers.authorization !== `Bearer ${this.token}` && req.headers.authorization !== `token ${this.token}`) {
      return this.send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    }
    const base = '/repos/octo-org/octo-repo/deployments';
    const input = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (url.pathname === base && req.method === 'POST') {
      if (this.readOnly) return this.send(res, 403, NOT_ACCESSIBLE);
      if (this.failNext.delete('create')) return this.send(res, 502, { message: 'Server Error' });
      const ref = String(input.ref ?? '');
      if (!/^[0-9a-f]{40}$/.test(ref)) return this.send(res, 422, { message: `No ref found for: ${ref}`, documentation_url: 'https://docs.github.com/rest/deployments/deployments#create-a-deployment', status: '422' });
      const deployment: FakeDeployment = {
        id: this.nextId++,
        sha: ref,
        ref,
        environment: String(input.environment ?? 'production'),
        payload: (input.payload as Record<string, unknown> | string | undefined) ?? {},
        description: typeof input.description === 'string' ? input.description : null,
        createdAt: Date.now(),
        statuses: [],
      };
      this.deployments.push(deployment);
      return this.send(res, 201, this.deploymentView(deployment));
    }
    if (url.pathname === base && req.method === 'GET') {
      const sha = url.searchParams.get('sha');
      const environment = url.searchParams.get('environment');
      const all = this.deployments.filter((d) => (!sha || d.sha === sha) && (!environment || d.environment === environment)).reverse();
      return this.page(res, url, all.map((d) => this.deploymentView(d)));
    }
    const statuses = /^\/repos\/octo-org\/octo-repo\/deployments\/(\d+)\/statuses$/.exec(url.pathname);
    const deployment = statuses ? this.deployments.find((d) => d.id === Number(statuses[1])) : undefined;
    if (statuses && !deployment) return this.send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
    if (deployment && req.method === 'POST') {
      if (this.readOnly) return this.send(res, 403, NOT_ACCESSIBLE);
      if (this.failNext.delete('status')) return this.send(res, 502, { message: 'Server Error' });
      const state = String(input.state ?? '');
      if (!['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success'].includes(state)) return this.send(res, 422, { message: 'Validation Failed', errors: [{ resource: 'DeploymentStatus', code: 'invalid', field: 'state' }], status: '422' });
      const status = { id: this.nextId++, state, description: String(input.description ?? ''), environmentUrl: String(input.environment_url ?? ''), logUrl: String(input.log_url ?? ''), createdAt: Date.now() };
      deployment.statuses.push(status);
      return this.send(res, 201, this.statusView(deployment, status));
    }
    if (deployment && req.method === 'GET') return this.page(res, url, [...deployment.statuses].reverse().map((s) => this.statusView(deployment, s)));
    this.send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
  }

  private page(res: ServerResponse, url: URL, items: readonly unknown[]): void {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100);
    const page = Number(url.searchParams.get('page') ?? 1);
    const headers: Record<string, string> = {};
    if (page * perPage < items.length) {
      const next = new URL(`${this.url}${url.pathname}${url.search}`);
      next.searchParams.set('page', String(page + 1));
      headers.link = `<${next.href}>; rel="next"`;
    }
    this.send(res, 200, items.slice((page - 1) * perPage, page * perPage), headers);
  }

  private deploymentView(d: FakeDeployment): Record<string, unknown> {
    const repo = `${this.url}/repos/octo-org/octo-repo`;
    return {
      url: `${repo}/deployments/${d.id}`,
      id: d.id,
      node_id: `DE_${d.id}`,
      sha: d.sha,
      ref: d.ref,
      task: 'deploy',
      payload: d.payload,
      original_environment: d.environment,
      environment: d.environment,
      description: d.description,
      creator: simpleUser(this.url, 'github-actions[bot]', 41898282, 'Bot'),
      created_at: githubTime(d.createdAt),
      updated_at: githubTime(d.createdAt),
      statuses_url: `${repo}/deployments/${d.id}/statuses`,
      repository_url: repo,
      transient_environment: false,
      production_environment: d.environment === 'production',
    };
  }

  private statusView(d: FakeDeployment, s: FakeDeployment['statuses'][number]): Record<string, unknown> {
    const repo = `${this.url}/repos/octo-org/octo-repo`;
    return {
      url: `${repo}/deployments/${d.id}/statuses/${s.id}`,
      id: s.id,
      node_id: `DES_${s.id}`,
      state: s.state,
      creator: simpleUser(this.url, 'github-actions[bot]', 41898282, 'Bot'),
      description: s.description,
      environment: d.environment,
      target_url: s.logUrl,
      created_at: githubTime(s.createdAt),
      updated_at: githubTime(s.createdAt),
      deployment_url: `${repo}/deployments/${d.id}`,
      repository_url: repo,
      environment_url: s.environmentUrl,
      log_url: s.logUrl,
    };
  }
}
