import { createHash, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import { playFault } from './faults.js';
import { repository, simpleUser } from './github-objects.js';
import { listen, readBody, type Listening } from './servers.js';

/** The platform endpoints the broker uses; every recorded call names one. */
export type FakeRoute =
  | 'repository_installation'
  | 'installation'
  | 'installations'
  | 'access_tokens'
  | 'installation_repositories'
  | 'latest_release'
  | 'pulls'
  | 'update_branch'
  | 'graphql'
  | 'revoke';

export interface RecordedCall {
  readonly route: FakeRoute | 'unknown';
  readonly method: string;
  readonly path: string;
  readonly auth: 'app' | 'installation' | 'none';
  /** The app JWT a call made as the app carried (to see whether one is reused). */
  readonly appJwt?: string;
  readonly body?: unknown;
}

export interface FakeInstallation {
  readonly id: number;
  readonly account: string;
  permissions: Record<string, string>;
  suspended?: boolean;
}

export interface FakeRelease {
  readonly tag: string;
  readonly name: string;
  readonly publishedAt: string;
}

export interface FakePull {
  readonly number: number;
  readonly base: string;
  headSha: string;
  /** Update-branch answers 422 (a merge conflict). */
  conflict?: boolean;
}

export interface FakeRepo {
  readonly id: number;
  readonly owner: string;
  readonly name: string;
  readonly installationId: number | null;
  latestRelease: FakeRelease | null;
  pulls: FakePull[];
  /** Branch → head commit id. */
  branches: Map<string, string>;
}

export interface FakeCommit {
  readonly repository: string;
  readonly branch: string;
  readonly parent: string;
  readonly oid: string;
  readonly headline: string;
  readonly body?: string;
  readonly additions: { path: string; contents: string }[];
  readonly deletions: { path: string }[];
}

interface TokenGrant {
  readonly installationId: number;
  readonly repositoryIds: ReadonlySet<number> | null;
  readonly permissions: Record<string, string>;
  readonly expiresAt: number;
}

/**
 * A canned answer; `'reset'` drops the connection without one; `'hang'` never answers; `'stall-body'`
 * sends 200 and its headers, then stalls the body (see `test/support/faults.ts`).
 */
export type InjectedAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'reset' | 'hang' | 'stall-body';

export const secondaryRateLimit = (status: 403 | 429 = 403, retryAfterSeconds = 60): InjectedAnswer => ({
  status,
  headers: { 'retry-after': String(retryAfterSeconds) },
  body: {
    message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
    documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
  },
});

/** GitHub's answer when an installation's or app's primary (hourly) limit is spent. */
export const primaryRateLimit = (resetInSeconds = 42): InjectedAnswer => ({
  status: 403,
  headers: {
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-used': '5000',
    'x-ratelimit-resource': 'core',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + resetInSeconds),
  },
  body: { message: 'API rate limit exceeded for installation ID 31337.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' },
});

const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' };
const RANK: Record<string, number> = { read: 1, write: 2, admin: 3 };
const sha = (seed: string): string => createHash('sha1').update(seed).digest('hex');
/** GitHub writes timestamps without milliseconds. */
const githubTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * A loopback fake of the GitHub REST and GraphQL endpoints the broker calls, with GitHub's
 * documented shapes, `Link` pagination and errors. App routes require an app JWT (RS256 with the
 * app key, `iss` = app id); the others require an installation token it minted, scoped as minted.
 * Every call is counted (`count`) and recorded (`calls`, unless `keepRecords` is off) so tests can
 * count platform calls per request.
 */
export class FakeGitHub {
  readonly calls: RecordedCall[] = [];
  readonly installations = new Map<number, FakeInstallation>();
  readonly repos = new Map<string, FakeRepo>();
  readonly commits: FakeCommit[] = [];
  readonly updatedBranches: { repository: string; number: number }[] = [];
  readonly revoked = new Set<string>();
  /** Lifetime of minted tokens; tests shorten it to exercise the 10-minute rule. */
  tokenLifetimeMs = 3_600_000;
  /** Lifetimes used (first first) before falling back to `tokenLifetimeMs`. */
  readonly nextTokenLifetimesMs: number[] = [];
  rejectedJwts = 0;
  /** Delay before every answer (to observe concurrency). */
  delayMs = 0;
  /**
   * The next mint grants this repository (full name), or every repository of the installation
   * (`'all'`), instead of the ones asked, and its answer says so in `repositories` and
   * `repository_selection`: a GitHub answer naming another repository than the one asked.
   */
  grantInstead: string | 'all' | undefined;
  /** Every token minted, first first (to see what became of one never handed out). */
  readonly minted: string[] = [];
  /**
   * Off in the benchmarks: every call is still counted (`count`), but neither the call nor a token
   * minted is kept (`calls`, `minted` and `grantOf` stay empty; a token minted then authenticates
   * nothing). A benchmark's tens of thousands of mints would otherwise grow the heap of the process
   * its load generator shares with this fake (as the DefectDojo fake's `keepUploads`).
   */
  keepRecords = true;
  private readonly counted = new Map<FakeRoute | 'unknown', number>();
  /** Most requests of one route in flight at once. */
  readonly peakInFlight = new Map<FakeRoute, number>();
  private readonly inFlight = new Map<FakeRoute, number>();
  private readonly tokens = new Map<string, TokenGrant>();
  private readonly injected = new Map<FakeRoute, InjectedAnswer[]>();
  private readonly publicKey: KeyObject;

  private constructor(
    private readonly listening: Listening,
    readonly appId: string,
    /** PKCS#1 PEM, the form GitHub hands out. Secret in real life; a throwaway here. */
    readonly privateKeyPem: string,
    publicKey: KeyObject,
    /** `''` for the public API, `/api/v3` for an enterprise server. */
    private readonly prefix: string,
  ) {
    this.publicKey = publicKey;
  }

  static async start(options: { appId?: string; prefix?: '' | '/api/v3' } = {}): Promise<FakeGitHub> {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    let fake: FakeGitHub | undefined;
    const listening = await listen((req, res) => void fake!.handle(req, res));
    fake = new FakeGitHub(listening, options.appId ?? '424242', pem, publicKey, options.prefix ?? '');
    return fake;
  }

  get url(): string {
    return this.listening.url;
  }

  /** What `FORGE_API_BASE` / `ENTERPRISE_API_BASE` is set to. */
  get apiBase(): string {
    return `${this.listening.url}${this.prefix}`;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  addInstallation(id: number, account: string, permissions: Record<string, string> = { contents: 'write', pull_requests: 'write', metadata: 'read' }): FakeInstallation {
    const installation = { id, account, permissions };
    this.installations.set(id, installation);
    return installation;
  }

  addRepo(fullName: string, id: number, installationId: number | null, extra: Partial<Pick<FakeRepo, 'latestRelease' | 'pulls'>> = {}): FakeRepo {
    const [owner, name] = fullName.split('/') as [string, string];
    const repo: FakeRepo = {
      id,
      owner,
      name,
      installationId,
      latestRelease: extra.latestRelease ?? null,
      pulls: extra.pulls ?? [],
      branches: new Map([['main', sha(`${fullName}@main`)]]),
    };
    this.repos.set(fullName.toLowerCase(), repo);
    return repo;
  }

  /** The next `times` calls of `route` get `answer` instead of the normal response. */
  inject(route: FakeRoute, answer: InjectedAnswer, times = 1): void {
    const queue = this.injected.get(route) ?? [];
    for (let i = 0; i < times; i++) queue.push(answer);
    this.injected.set(route, queue);
  }

  count(route?: FakeRoute): number {
    if (route) return this.counted.get(route) ?? 0;
    let total = 0;
    for (const n of this.counted.values()) total += n;
    return total;
  }

  /** The grant behind a token this fake minted (to check what a broker asked for). */
  grantOf(token: string): { installationId: number; repositoryIds: number[] | null; permissions: Record<string, string> } | undefined {
    const grant = this.tokens.get(token);
    return grant && { installationId: grant.installationId, repositoryIds: grant.repositoryIds ? [...grant.repositoryIds] : null, permissions: grant.permissions };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.listening.url);
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return this.send(res, 400, { message: 'Problems parsing JSON' });
    }
    const method = req.method ?? 'GET';
    const graphqlPath = this.prefix ? '/api/graphql' : '/graphql';
    const path = url.pathname === graphqlPath ? '/graphql' : url.pathname.startsWith(this.prefix) ? url.pathname.slice(this.prefix.length) : '';
    const matched = this.match(method, path);
    const credential = /^(?:bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const auth = !credential ? 'none' : credential.split('.').length === 3 ? 'app' : 'installation';
    const counted = matched?.route ?? 'unknown';
    this.counted.set(counted, (this.counted.get(counted) ?? 0) + 1);
    if (this.keepRecords) this.calls.push({ route: counted, method, path: url.pathname + url.search, auth, ...(auth === 'app' ? { appJwt: credential! } : {}), ...(body === undefined ? {} : { body }) });
    if (!matched) return this.send(res, 404, NOT_FOUND);

    const route = matched.route;
    this.inFlight.set(route, (this.inFlight.get(route) ?? 0) + 1);
    this.peakInFlight.set(route, Math.max(this.peakInFlight.get(route) ?? 0, this.inFlight.get(route)!));
    res.on('close', () => this.inFlight.set(route, this.inFlight.get(route)! - 1));
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));

    const answer = this.injected.get(matched.route)?.shift();
    if (answer === 'reset') {
      req.socket.destroy();
      return;
    }
    if (answer === 'hang' || answer === 'stall-body') {
      await playFault(answer, req, res);
      return;
    }
    if (answer) return this.send(res, answer.status, answer.body ?? {}, answer.headers);

    const ctx: Ctx = { url, body, params: matched.params, res };
    if (matched.appAuth) {
      if (!(await this.appJwtValid(credential))) {
        this.rejectedJwts++;
        return this.send(res, 401, { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest' });
      }
      return matched.handler(ctx, undefined);
    }
    const grant = credential ? this.tokens.get(credential) : undefined;
    if (!grant || grant.expiresAt <= Date.now() || this.revoked.has(credential!)) {
      return this.send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    return matched.handler(ctx, { ...grant, token: credential! });
  }

  private match(method: string, path: string): { route: FakeRoute; appAuth: boolean; params: string[]; handler: Handler } | undefined {
    const table: [string, RegExp, FakeRoute, boolean, Handler][] = [
      ['GET', /^\/repos\/([^/]+)\/([^/]+)\/installation$/, 'repository_installation', true, (c) => this.repositoryInstallation(c)],
      ['GET', /^\/app\/installations$/, 'installations', true, (c) => this.listInstallations(c)],
      ['GET', /^\/app\/installations\/(\d+)$/, 'installation', true, (c) => this.getInstallation(c)],
      ['POST', /^\/app\/installations\/(\d+)\/access_tokens$/, 'access_tokens', true, (c) => this.mint(c)],
      ['GET', /^\/installation\/repositories$/, 'installation_repositories', false, (c, g) => this.installationRepositories(c, g!)],
      ['DELETE', /^\/installation\/token$/, 'revoke', false, (c, g) => this.revoke(c, g!)],
      ['GET', /^\/repos\/([^/]+)\/([^/]+)\/releases\/latest$/, 'latest_release', false, (c, g) => this.latestRelease(c, g!)],
      ['GET', /^\/repos\/([^/]+)\/([^/]+)\/pulls$/, 'pulls', false, (c, g) => this.pulls(c, g!)],
      ['PUT', /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/update-branch$/, 'update_branch', false, (c, g) => this.updateBranch(c, g!)],
      ['POST', /^\/graphql$/, 'graphql', false, (c, g) => this.graphql(c, g!)],
    ];
    for (const [m, pattern, route, appAuth, handler] of table) {
      const found = pattern.exec(path);
      if (found && m === method) return { route, appAuth, params: found.slice(1).map(decodeURIComponent), handler };
    }
    return undefined;
  }

  /** GitHub's rules: RS256 with the app's key, `iss` the app id, at most 10 minutes of life, not issued in the future. */
  private async appJwtValid(credential: string | undefined): Promise<boolean> {
    if (!credential) return false;
    try {
      const { payload } = await jwtVerify(credential, this.publicKey, { algorithms: ['RS256'] });
      const now = Math.floor(Date.now() / 1000);
      return (
        String(payload.iss) === this.appId &&
        typeof payload.iat === 'number' &&
        typeof payload.exp === 'number' &&
        payload.iat <= now + 60 &&
        payload.exp > now &&
        payload.exp - payload.iat <= 660
      );
    } catch {
      return false;
    }
  }

  private installationView(i: FakeInstallation): Record<string, unknown> {
    const api = this.apiBase;
    return {
      id: i.id,
      account: simpleUser(api, i.account, i.id * 10, 'Organization'),
      app_id: Number(this.appId),
      app_slug: 'gatehouse-test',
      target_id: i.id * 10,
      target_type: 'Organization',
      single_file_name: null,
      permissions: i.permissions,
      events: ['push'],
      repository_selection: 'selected',
      access_tokens_url: `${api}/app/installations/${i.id}/access_tokens`,
      repositories_url: `${api}/installation/repositories`,
      html_url: `${new URL(api).origin}/organizations/${i.account}/settings/installations/${i.id}`,
      suspended_by: i.suspended ? simpleUser(api, 'an-owner', 1, 'User') : null,
      suspended_at: i.suspended ? '2025-06-01T00:00:00Z' : null,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
    };
  }

  private repoView(r: FakeRepo): Record<string, unknown> {
    return repository(this.apiBase, simpleUser(this.apiBase, r.owner, r.id * 7, 'Organization'), r.name, r.id);
  }

  private repositoryInstallation({ params, res }: Ctx): void {
    const repo = this.repos.get(`${params[0]}/${params[1]}`.toLowerCase());
    const installation = repo?.installationId ? this.installations.get(repo.installationId) : undefined;
    if (!installation) return this.send(res, 404, NOT_FOUND);
    this.send(res, 200, this.installationView(installation));
  }

  private getInstallation({ params, res }: Ctx): void {
    const installation = this.installations.get(Number(params[0]));
    if (!installation) return this.send(res, 404, NOT_FOUND);
    this.send(res, 200, this.installationView(installation));
  }

  private listInstallations(ctx: Ctx): void {
    const all = [...this.installations.values()].map((i) => this.installationView(i));
    this.paginate(ctx, all, (page) => page);
  }

  /**
   * `POST /app/installations/{id}/access_tokens` as GitHub answers it: 404 for an unknown
   * installation, 403 when suspended, and 422 (body `{message, documentation_url, status}`) for
   * a repository the installation does not cover or a permission above its grant. GitHub does
   * not narrow a request to the grant itself: it refuses the whole mint with "The permissions
   * requested are not granted to this installation." (reported by users of
   * actions/create-github-app-token#245 and peter-murray/workflow-application-token-action#48,
   * for an ungranted and for an unknown name alike), so narrowing is the broker's job (spec rule 4).
   * Not modelled, for want of a documented answer to copy: a value outside a permission's
   * schema values (e.g. `workflows: read`) over a grant that covers it is minted here.
   */
  private mint({ params, body, res }: Ctx): void {
    const installation = this.installations.get(Number(params[0]));
    if (!installation) return this.send(res, 404, NOT_FOUND);
    if (installation.suspended) return this.send(res, 403, { message: 'This installation has been suspended', documentation_url: 'https://docs.github.com/rest', status: '403' });
    const request = (body ?? {}) as { repository_ids?: number[]; repositories?: string[]; permissions?: Record<string, string> };
    const own = [...this.repos.values()].filter((r) => r.installationId === installation.id);
    let selected: FakeRepo[] | null = null;
    if (request.repository_ids || request.repositories) {
      selected = [];
      for (const id of request.repository_ids ?? []) {
        const repo = own.find((r) => r.id === id);
        if (!repo) return this.send(res, 422, { message: 'There is at least one repository that does not exist or is not accessible to the parent installation.', documentation_url: 'https://docs.github.com/rest', status: '422' });
        selected.push(repo);
      }
      for (const name of request.repositories ?? []) {
        const repo = own.find((r) => r.name === name);
        if (!repo) return this.send(res, 422, { message: 'There is at least one repository that does not exist or is not accessible to the parent installation.', documentation_url: 'https://docs.github.com/rest', status: '422' });
        selected.push(repo);
      }
    }
    if (this.grantInstead !== undefined) {
      selected = this.grantInstead === 'all' ? null : [this.repos.get(this.grantInstead.toLowerCase())!];
      this.grantInstead = undefined;
    }
    const permissions = request.permissions ?? installation.permissions;
    for (const [name, access] of Object.entries(permissions)) {
      if ((RANK[installation.permissions[name] ?? ''] ?? 0) < (RANK[access] ?? 99)) {
        return this.send(res, 422, { message: 'The permissions requested are not granted to this installation.', documentation_url: 'https://docs.github.com/rest', status: '422' });
      }
    }
    const token = `ghs_${randomBytes(18).toString('hex').slice(0, 36)}`;
    const expiresAt = Date.now() + (this.nextTokenLifetimesMs.shift() ?? this.tokenLifetimeMs);
    if (this.keepRecords) {
      this.minted.push(token);
      this.tokens.set(token, {
        installationId: installation.id,
        repositoryIds: selected ? new Set(selected.map((r) => r.id)) : null,
        permissions: { ...permissions },
        expiresAt,
      });
    }
    this.send(res, 201, {
      token,
      expires_at: githubTime(expiresAt),
      permissions,
      repository_selection: selected ? 'selected' : 'all',
      ...(selected ? { repositories: selected.map((r) => this.repoView(r)) } : {}),
    });
  }

  private reposOf(grant: TokenGrant): FakeRepo[] {
    return [...this.repos.values()].filter((r) => r.installationId === grant.installationId && (!grant.repositoryIds || grant.repositoryIds.has(r.id)));
  }

  private installationRepositories(ctx: Ctx, grant: TokenGrant): void {
    const repos = this.reposOf(grant).map((r) => this.repoView(r));
    this.paginate(ctx, repos, (page) => ({ total_count: repos.length, repository_selection: 'selected', repositories: page }));
  }

  /** Ends a token's life now, as the passing of its hour would (tests of what outlives it). */
  expire(token: string): void {
    const grant = this.tokens.get(token);
    if (grant) this.tokens.set(token, { ...grant, expiresAt: Date.now() });
  }

  private revoke({ res }: Ctx, grant: TokenGrant & { token: string }): void {
    this.revoked.add(grant.token);
    res.writeHead(204).end();
  }

  /** The repository named in the path, if this token may see it; otherwise GitHub's 404. */
  private repoFor(grant: TokenGrant, owner: string, name: string): FakeRepo | undefined {
    const repo = this.repos.get(`${owner}/${name}`.toLowerCase());
    return repo && this.reposOf(grant).includes(repo) ? repo : undefined;
  }

  private allows(grant: TokenGrant, permission: string, access: 'read' | 'write'): boolean {
    return (RANK[grant.permissions[permission] ?? ''] ?? 0) >= RANK[access]!;
  }

  private forbidden(res: ServerResponse): void {
    this.send(res, 403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' });
  }

  private latestRelease({ params, res }: Ctx, grant: TokenGrant): void {
    const repo = this.repoFor(grant, params[0]!, params[1]!);
    if (!repo) return this.send(res, 404, NOT_FOUND);
    if (!this.allows(grant, 'contents', 'read')) return this.forbidden(res);
    const release = repo.latestRelease;
    if (!release) return this.send(res, 404, NOT_FOUND);
    this.send(res, 200, {
      id: repo.id * 100,
      tag_name: release.tag,
      name: release.name,
      html_url: `https://github.example/${repo.owner}/${repo.name}/releases/tag/${release.tag}`,
      draft: false,
      prerelease: false,
      created_at: release.publishedAt,
      published_at: release.publishedAt,
    });
  }

  private pulls(ctx: Ctx, grant: TokenGrant): void {
    const repo = this.repoFor(grant, ctx.params[0]!, ctx.params[1]!);
    if (!repo) return this.send(ctx.res, 404, NOT_FOUND);
    if (!this.allows(grant, 'pull_requests', 'read')) return this.forbidden(ctx.res);
    const base = ctx.url.searchParams.get('base');
    const state = ctx.url.searchParams.get('state') ?? 'open';
    const open = state === 'open' ? repo.pulls.filter((p) => base === null || p.base === base) : [];
    this.paginate(
      ctx,
      open.map((p) => ({ number: p.number, state: 'open', head: { sha: p.headSha, ref: `topic-${p.number}` }, base: { ref: p.base } })),
      (page) => page,
    );
  }

  private updateBranch({ params, body, res }: Ctx, grant: TokenGrant): void {
    const repo = this.repoFor(grant, params[0]!, params[1]!);
    const pull = repo?.pulls.find((p) => p.number === Number(params[2]));
    if (!repo || !pull) return this.send(res, 404, NOT_FOUND);
    if (!this.allows(grant, 'pull_requests', 'write')) return this.forbidden(res);
    const expected = (body as { expected_head_sha?: unknown } | undefined)?.expected_head_sha;
    if (expected !== undefined && expected !== pull.headSha) {
      return this.send(res, 422, { message: 'expected_head_sha must match the current head of the pull request', documentation_url: 'https://docs.github.com/rest', status: '422' });
    }
    if (pull.conflict) return this.send(res, 422, { message: 'merge conflict between base and head', documentation_url: 'https://docs.github.com/rest', status: '422' });
    pull.headSha = sha(`${pull.headSha}+merge`);
    this.updatedBranches.push({ repository: `${repo.owner}/${repo.name}`, number: pull.number });
    this.send(res, 202, { message: 'Updating pull request branch.', url: `https://github.example/${repo.owner}/${repo.name}/pull/${pull.number}` });
  }

  /** Only `createCommitOnBranch`; GraphQL errors come back with status 200, as GitHub sends them. */
  private graphql({ body, res }: Ctx, grant: TokenGrant): void {
    const { query, variables } = (body ?? {}) as { query?: string; variables?: { input?: CommitInput } };
    const input = variables?.input;
    if (!query?.includes('createCommitOnBranch') || !input) {
      return this.send(res, 200, { errors: [{ message: 'the fake implements createCommitOnBranch only' }] });
    }
    const fail = (type: string, message: string): void => this.send(res, 200, { data: { createCommitOnBranch: null }, errors: [{ type, path: ['createCommitOnBranch'], message }] });
    const [owner, name] = input.branch.repositoryNameWithOwner.split('/') as [string, string];
    const repo = this.repoFor(grant, owner, name);
    if (!repo) return fail('NOT_FOUND', `Could not resolve to a Repository with the name '${input.branch.repositoryNameWithOwner}'.`);
    if (!this.allows(grant, 'contents', 'write')) return fail('FORBIDDEN', 'Resource not accessible by integration');
    const head = repo.branches.get(input.branch.branchName);
    if (!head) return fail('NOT_FOUND', `A ref named "${input.branch.branchName}" does not exist.`);
    if (head !== input.expectedHeadOid) return fail('STALE_DATA', `Expected branch to point to "${input.expectedHeadOid}" but it did not. Pull and try again.`);
    const oid = sha(`${head}:${JSON.stringify(input)}`);
    repo.branches.set(input.branch.branchName, oid);
    this.commits.push({
      repository: input.branch.repositoryNameWithOwner,
      branch: input.branch.branchName,
      parent: head,
      oid,
      headline: input.message.headline,
      ...(input.message.body === undefined ? {} : { body: input.message.body }),
      additions: input.fileChanges.additions ?? [],
      deletions: input.fileChanges.deletions ?? [],
    });
    this.send(res, 200, {
      data: {
        createCommitOnBranch: {
          commit: {
            oid,
            abbreviatedOid: oid.slice(0, 7),
            url: `https://github.example/${input.branch.repositoryNameWithOwner}/commit/${oid}`,
            committedDate: githubTime(Date.now()),
            messageHeadline: input.message.headline,
            messageBody: input.message.body ?? '',
            signature: { isValid: true, state: 'VALID', wasSignedByGitHub: true },
          },
        },
      },
    });
  }

  /** `page`/`per_page` paging with GitHub's `Link` header (next and last). */
  private paginate(ctx: Ctx, items: unknown[], shape: (page: unknown[]) => unknown): void {
    const perPage = Math.min(Number(ctx.url.searchParams.get('per_page') ?? 30) || 30, 100);
    const page = Math.max(Number(ctx.url.searchParams.get('page') ?? 1) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const link = (n: number): string => {
      const u = new URL(ctx.url.href);
      u.searchParams.set('page', String(n));
      u.searchParams.set('per_page', String(perPage));
      return u.href;
    };
    const headers: Record<string, string> = {};
    if (page < last) headers.link = `<${link(page + 1)}>; rel="next", <${link(last)}>; rel="last"`;
    this.send(ctx.res, 200, shape(items.slice((page - 1) * perPage, page * perPage)), headers);
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-github-request-id': randomBytes(4).toString('hex'), ...headers });
    res.end(JSON.stringify(body));
  }
}

interface Ctx {
  readonly url: URL;
  readonly body: unknown;
  readonly params: string[];
  readonly res: ServerResponse;
}

type Handler = (ctx: Ctx, grant: (TokenGrant & { token: string }) | undefined) => void;

interface CommitInput {
  branch: { repositoryNameWithOwner: string; branchName: string };
  expectedHeadOid: string;
  message: { headline: string; body?: string };
  fileChanges: { additions?: { path: string; contents: string }[]; deletions?: { path: string }[] };
}
