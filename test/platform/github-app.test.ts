import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { listen, readBody, type Listening } from '../support/servers.js';
import { PlatformError } from '../../server/platform/errors.js';
import { AppClient } from '../../server/platform/github-app.js';
import { InstallationDirectory } from '../../server/platform/installations.js';
import type { Access } from '../../server/platform/permissions.js';
import { AppNotInstalled, InstallationLookupFailed, MintFailed, mintRepositoryToken } from '../../server/platform/repository-token.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const clock = { now: () => Date.now() };
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Call {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}
type Answer = { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };

/**
 * A loopback server answering scripted calls in order, per `METHOD path` (query included), like
 * the platform would; a call it was not told about is a 599 that fails the test.
 */
class ScriptedPlatform {
  readonly calls: Call[] = [];
  private readonly script = new Map<string, { answer: Answer | ((call: Call) => Answer); match?: (call: Call) => boolean }[]>();
  private constructor(private readonly listening: Listening) {}

  static async start(): Promise<ScriptedPlatform> {
    let platform: ScriptedPlatform | undefined;
    const listening = await listen((req, res) => void platform!.handle(req, res));
    platform = new ScriptedPlatform(listening);
    return platform;
  }

  get url(): string {
    return this.listening.url;
  }

  intercept(method: string, path: string, answer: Answer | ((call: Call) => Answer), options: { times?: number; match?: (call: Call) => boolean } = {}): void {
    const key = `${method} ${path}`;
    const list = this.script.get(key) ?? [];
    for (let i = 0; i < (options.times ?? 1); i++) list.push({ answer, ...(options.match ? { match: options.match } : {}) });
    this.script.set(key, list);
  }

  pending(): string[] {
    return [...this.script].filter(([, list]) => list.length > 0).map(([key]) => key);
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  private async handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const call: Call = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: await readBody(req) };
    this.calls.push(call);
    const next = this.script.get(`${call.method} ${call.path}`)?.shift();
    if (!next || (next.match && !next.match(call))) return void res.writeHead(599, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `unexpected ${call.method} ${call.path}` }));
    const answer = typeof next.answer === 'function' ? next.answer(call) : next.answer;
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers }).end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }
}

/** The platform on loopback: Node's client and undici (Octokit's fetch) both reach it for real. */
describe('platform client (a scripted platform on loopback)', () => {
  let github: ScriptedPlatform;
  beforeEach(async () => {
    github = await ScriptedPlatform.start();
  });
  afterEach(async () => {
    assert.deepEqual(github.pending(), [], 'scripted calls were not made');
    await github.close();
  });
  const app = () => new AppClient(github.url, { appId: '99', privateKey }, { userAgent: 'gatehouse/test', bounds: { connectMs: 500, totalMs: 500 } });
  const sameBody = (expected: unknown) => (call: Call) => sameJson(call.body, expected);

  it('app calls carry an RS256 app JWT with iss = app id and a lifetime of at most 10 minutes', async () => {
    github.intercept('GET', '/repos/o/r/installation', { status: 200, body: { id: 5, permissions: { contents: 'write' } } });
    assert.deepEqual(await app().repositoryInstallation('o', 'r'), { id: 5, permissions: { contents: 'write' }, suspended: false });
    const jwt = String(github.calls[0]!.headers.authorization).replace(/^bearer /i, '');
    const version = github.calls[0]!.headers['x-github-api-version'];
    assert.equal(decodeProtectedHeader(jwt).alg, 'RS256');
    const claims = decodeJwt(jwt);
    assert.equal(String(claims.iss), '99');
    assert.ok(claims.exp! - claims.iat! <= 600);
    assert.equal(version, '2022-11-28');
  });

  it('404 on the installation lookup is null, not an error', async () => {
    github.intercept('GET', '/repos/o/r/installation', { status: 404, body: { message: 'Not Found' } });
    assert.equal(await app().repositoryInstallation('o', 'r'), null);
  });

  it('mints with repository_ids and permissions, and passes expires_at through unchanged', async () => {
    const answer = { token: 'ghs_x', expires_at: '2030-01-01T00:00:00Z', permissions: { contents: 'read' }, repository_selection: 'selected', repositories: [{ id: 42, name: 'r', full_name: 'o/r' }] };
    github.intercept('POST', '/app/installations/5/access_tokens', { status: 201, body: answer }, {
      match: sameBody({ permissions: { contents: 'read' }, repository_ids: [42] }),
    });
    const minted = await app().mint(5, { repositoryIds: [42], permissions: { contents: 'read' } });
    assert.deepEqual(minted, { token: 'ghs_x', expiresAt: '2030-01-01T00:00:00Z', permissions: { contents: 'read' }, covers: { selection: 'selected', repositories: [{ id: 42, name: 'r' }] } });
  });

  it('errors become PlatformError with the status, the platform message and retry-after', async () => {
    github.intercept('POST', '/app/installations/5/access_tokens', { status: 403, body: { message: 'You have exceeded a secondary rate limit.' }, headers: { 'retry-after': '60' } });
    const err = await app()
      .mint(5, { permissions: { contents: 'read' } })
      .catch((e: unknown) => e);
    assert.ok(err instanceof PlatformError);
    assert.equal(err.status, 403);
    assert.equal(err.details.retryAfterSeconds, 60);
    assert.equal(err.rateLimited, true);
  });

  it('a dropped connection or a timeout is a PlatformError without a status', async () => {
    github.intercept('GET', '/app/installations/1', { status: 200, body: { id: 1 }, delayMs: 2000 });
    const err = await app()
      .installation(1)
      .catch((e: unknown) => e);
    assert.ok(err instanceof PlatformError, String(err));
    assert.equal(err.status, null);
  });

  it('follows Link pagination across pages of /installation/repositories', async () => {
    const repo = (id: number) => ({ id, name: `r${id}`, full_name: `o/r${id}`, owner: { login: 'o' } });
    github.intercept('GET', '/installation/repositories?per_page=100', {
      status: 200,
      body: { total_count: 3, repositories: [repo(1), repo(2)] },
      headers: { link: `<${github.url}/installation/repositories?per_page=100&page=2>; rel="next"` },
    });
    github.intercept('GET', '/installation/repositories?per_page=100&page=2', { status: 200, body: { total_count: 3, repositories: [repo(3)] } });
    const names = [];
    for await (const r of app().withToken('ghs_t').repositories()) names.push(r.fullName);
    assert.deepEqual(names, ['o/r1', 'o/r2', 'o/r3']);
  });

  it('installation-token calls send the token, and GraphQL errors become PlatformError with their type', async () => {
    github.intercept('POST', '/graphql', { status: 200, body: { data: { createCommitOnBranch: null }, errors: [{ type: 'STALE_DATA', message: 'Expected branch to point to "x"' }] } }, {
      match: (call) => call.headers.authorization === 'token ghs_t',
    });
    const err = await app()
      .withToken('ghs_t')
      .createCommitOnBranch({
        repositoryNameWithOwner: 'o/r',
        branchName: 'main',
        expectedHeadOid: 'a'.repeat(40),
        message: { headline: 'h' },
        additions: [],
        deletions: [{ path: 'x' }],
      })
      .catch((e: unknown) => e);
    assert.ok(err instanceof PlatformError);
    assert.equal(err.details.graphqlType, 'STALE_DATA');
  });

  describe('mintRepositoryToken', () => {
    const deps = () => ({ installations: new InstallationDirectory(), clock });

    it('narrows the request to the installation grant and asks for metadata: read when nothing is left', async () => {
      github.intercept('GET', '/repos/o/r/installation', { status: 200, body: { id: 5, permissions: { metadata: 'read', issues: 'read' } } });
      github.intercept('POST', '/app/installations/5/access_tokens', { status: 201, body: { token: 'ghs_a', expires_at: inAnHour(), permissions: { issues: 'read' } } }, {
        match: sameBody({ permissions: { issues: 'read' }, repository_ids: [42] }),
      });
      github.intercept('POST', '/app/installations/5/access_tokens', { status: 201, body: { token: 'ghs_b', expires_at: inAnHour(), permissions: { metadata: 'read' } } }, {
        match: sameBody({ permissions: { metadata: 'read' }, repository_ids: [42] }),
      });
      const d = deps();
      const client = app();
      assert.equal((await mintRepositoryToken(d, client, { owner: 'o', repo: 'r', repositoryId: 42 }, { issues: 'write', contents: 'write' })).token, 'ghs_a');
      assert.equal((await mintRepositoryToken(d, client, { owner: 'o', repo: 'r', repositoryId: 42 }, { contents: 'write' })).token, 'ghs_b');
    });

    it('a lookup near the end of its life is answered at once and refreshed in the background, once; a webhook forgetting it still wins', async () => {
      // lru-cache takes a start time of 0 for "no TTL", and reads its clock at most once a
      // millisecond: times from 1 000 000, and a tick after each move.
      let now = 1_000_000;
      const installations = new InstallationDirectory({ ttlMs: 60_000, refreshAheadMs: 15_000, perf: { now: () => now } });
      const at = async (ms: number) => {
        now = 1_000_000 + ms;
        await new Promise((resolve) => setTimeout(resolve, 5));
      };
      let answered = 0;
      github.intercept('GET', '/repos/o/r/installation', () => ({ status: 200, body: { id: 5 + answered++, permissions: {} }, delayMs: 100 }), { times: 3 });
      const client = app();
      assert.equal((await installations.forRepository(client, 'o', 'r'))?.id, 5);
      await at(40_000);
      assert.equal((installations.forRepository(client, 'o', 'r') as { id: number }).id, 5, 'fresh: from the cache, no lookup');
      await at(50_000);
      // Within the last 15 s: the cached answer at once, not a promise waiting on the platform.
      const started = Date.now();
      const answers = [installations.forRepository(client, 'o', 'r'), installations.forRepository(client, 'o', 'r')];
      assert.deepEqual(answers.map((a) => (a as { id: number }).id), [5, 5]);
      assert.ok(Date.now() - started < 50);
      await new Promise((resolve) => setTimeout(resolve, 250));
      assert.equal(github.calls.length, 2, 'one background lookup for both');
      await at(70_000);
      assert.equal((installations.forRepository(client, 'o', 'r') as { id: number }).id, 6, 'the refreshed answer, with a new life');
      installations.forgetInstallation(client.apiBase, client.credentials.appId, 6, ['o/r']);
      assert.equal((await installations.forRepository(client, 'o', 'r'))?.id, 7, 'forgotten: looked up again');
    });

    it('a background refresh that fails leaves the cached answer to serve out its life', async () => {
      let now = 1_000_000;
      const installations = new InstallationDirectory({ ttlMs: 60_000, refreshAheadMs: 15_000, perf: { now: () => now } });
      const at = async (ms: number) => {
        now = 1_000_000 + ms;
        await new Promise((resolve) => setTimeout(resolve, 5));
      };
      github.intercept('GET', '/repos/o/r/installation', { status: 200, body: { id: 5, permissions: {} } });
      github.intercept('GET', '/repos/o/r/installation', { status: 503, body: { message: 'Service Unavailable' } });
      const client = app();
      assert.equal((await installations.forRepository(client, 'o', 'r'))?.id, 5);
      await at(50_000);
      assert.equal((installations.forRepository(client, 'o', 'r') as { id: number }).id, 5);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(github.calls.length, 2, 'the refresh was tried, and failed');
      await at(55_000);
      const after = installations.forRepository(client, 'o', 'r');
      assert.ok(!(after instanceof Promise), 'still answered from the cache, not waiting on a lookup');
      assert.equal(after?.id, 5);
    });

    it('maps the outcomes: not installed, lookup failure, mint failure', async () => {
      github.intercept('GET', '/repos/o/r/installation', { status: 404, body: { message: 'Not Found' } });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'read' }), AppNotInstalled);
      github.intercept('GET', '/repos/o/r/installation', { status: 503, body: { message: 'Service Unavailable' } });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'read' }), InstallationLookupFailed);
      github.intercept('GET', '/repos/o/r/installation', { status: 200, body: { id: 5, permissions: { contents: 'read' } } });
      github.intercept('POST', '/app/installations/5/access_tokens', { status: 500, body: { message: 'Server Error' } });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'read' }), MintFailed);
    });

    for (const [asked, answered] of [
      [{ repositoryId: 42 }, { repository_selection: 'selected', repositories: [{ id: 43, name: 'r', full_name: 'o/r' }] }],
      [{ repositoryId: 42 }, { repository_selection: 'selected', repositories: [{ id: 42, name: 'r', full_name: 'o/r' }, { id: 43, name: 'q', full_name: 'o/q' }] }],
      [{}, { repository_selection: 'selected', repositories: [{ id: 43, name: 'q', full_name: 'o/q' }] }],
      [{ repositoryId: 42 }, { repository_selection: 'all' }],
    ] as const) {
      it(`a mint asked ${'repositoryId' in asked ? 'by id' : 'by name'} and answered ${JSON.stringify(answered)} is MintFailed, and the token is revoked`, async () => {
        github.intercept('GET', '/repos/o/r/installation', { status: 200, body: { id: 5, permissions: { contents: 'read' } } });
        github.intercept('POST', '/app/installations/5/access_tokens', { status: 201, body: { token: 'ghs_other', expires_at: inAnHour(), permissions: { contents: 'read' }, ...answered } });
        github.intercept('DELETE', '/installation/token', { status: 204 }, { match: (call) => call.headers.authorization === 'token ghs_other' });
        const refused = await mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r', ...asked }, { contents: 'read' }).catch((err: unknown) => err);
        assert.ok(refused instanceof MintFailed, String(refused));
        assert.equal(refused.message, 'the platform answered a token for other repositories than the one asked');
      });
    }

    it('a mint asked by name is answered for that name whatever its case', async () => {
      github.intercept('GET', '/repos/o/r/installation', { status: 200, body: { id: 5, permissions: { contents: 'read' } } });
      github.intercept('POST', '/app/installations/5/access_tokens', {
        status: 201,
        body: { token: 'ghs_a', expires_at: inAnHour(), permissions: { contents: 'read' }, repository_selection: 'selected', repositories: [{ id: 42, name: 'R', full_name: 'o/R' }] },
      });
      assert.equal((await mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'read' })).token, 'ghs_a');
    });

    it('refuses an unusable expires_at', async () => {
      github.intercept('GET', '/repos/o/r/installation', { status: 200, body: { id: 5, permissions: { contents: 'read' } } });
      github.intercept('POST', '/app/installations/5/access_tokens', { status: 201, body: { token: 'ghs_a', expires_at: 'soon', permissions: {} } });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'read' }), MintFailed);
    });

    for (const [what, message] of [
      ['a repository it does not cover', 'There is at least one repository that does not exist or is not accessible to the parent installation.'],
      ['permissions it does not grant', 'The permissions requested are not granted to this installation.'],
    ]) {
      it(`a mint answered 422 (${what}) is MintFailed, not AppNotInstalled, and the cached lookup is dropped`, async () => {
        github.intercept('GET', '/repos/o/r/installation', { status: 200, body: { id: 5, permissions: { contents: 'write' } } }, { times: 2 });
        github.intercept('POST', '/app/installations/5/access_tokens', { status: 422, body: { message, documentation_url: 'https://docs.github.com/rest', status: '422' } });
        github.intercept('POST', '/app/installations/5/access_tokens', { status: 201, body: { token: 'ghs_a', expires_at: inAnHour(), permissions: { contents: 'write' } } });
        const d = deps();
        const client = app();
        const refused = await mintRepositoryToken(d, client, { owner: 'o', repo: 'r', repositoryId: 42 }, { contents: 'write' }).catch((err: unknown) => err);
        assert.ok(refused instanceof MintFailed, String(refused));
        assert.ok(refused.cause instanceof PlatformError && refused.cause.status === 422 && refused.cause.message === message);
        // The second lookup (times(2)) is only made because the refusal dropped the cached one;
        // afterEach checks that no interceptor was left unused.
        assert.equal((await mintRepositoryToken(d, client, { owner: 'o', repo: 'r', repositoryId: 42 }, { contents: 'write' })).token, 'ghs_a');
      });
    }

    it('a mint answered 404 (the installation is gone since the lookup) is AppNotInstalled', async () => {
      github.intercept('GET', '/repos/o/r/installation', { status: 200, body: { id: 5, permissions: { contents: 'write' } } });
      github.intercept('POST', '/app/installations/5/access_tokens', { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' } });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'write' }), AppNotInstalled);
    });

    const refusedSets: Record<string, Access>[] = [{ members: 'read' }, { contents: 'write', organization_administration: 'write' }, { workflows: 'read' }, { pull_request: 'write' }];
    for (const requested of refusedSets) {
      it(`refuses ${JSON.stringify(requested)} before any platform call (the vocabulary of TOKEN_PERMISSIONS)`, async () => {
        // Nothing scripted: any call would be answered 599 and fail the test differently.
        const refused = await mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, requested).catch((err: unknown) => err);
        assert.ok(refused instanceof MintFailed, String(refused));
        assert.match(refused.message, /^not asked of the platform: the request (names|sets) /);
        assert.ok(refused.message.includes(Object.keys(requested).at(-1)!));
      });
    }
  });
});

/** The body sent is this JSON document (whatever its key order). */
function sameJson(body: string, expected: unknown): boolean {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sort(x)])) : v;
  return JSON.stringify(sort(JSON.parse(body))) === JSON.stringify(sort(expected));
}
