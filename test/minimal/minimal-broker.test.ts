import assert from 'node:assert/strict';
import { AUDIT_FIELDS } from '../../server/audit/record.js';
import { createMinimalApp } from '../../server/minimal/app.js';
import { checkMinimalStartup } from '../../server/minimal/startup.js';
import { POLICY_NOT_ENFORCED } from '../../server/minimal/token.js';
import { FakeGitHub } from '../support/fake-github.js';
import { call } from '../support/http.js';
import { capturedLogger } from '../support/log-capture.js';
import { TestIssuer } from '../support/oidc-issuer.js';
import { listen, type Listening } from '../support/servers.js';
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO, REPO_ID } from '../support/broker.js';

const VOCABULARY = new Set([
  'mint_ok',
  'invalid_json',
  'missing_fields',
  'invalid_repository',
  'invalid_oidc',
  'repo_mismatch',
  'repo_not_allowed',
  'app_not_installed',
  'mint_failed',
  'config_unavailable',
  'jwks_unavailable',
  'not_found',
  'method_not_allowed',
  'internal_error',
]);

describe('minimal broker', () => {
  let issuer: TestIssuer;
  let github: FakeGitHub;
  let server: Listening;
  let env: Record<string, string | undefined>;
  let logs: ReturnType<typeof capturedLogger>;

  beforeEach(async () => {
    issuer = await TestIssuer.start();
    github = await FakeGitHub.start();
    github.addInstallation(INSTALLATION_ID, 'octo-org');
    github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
    env = { OIDC_ISSUER: issuer.url, FORGE_API_BASE: github.apiBase, FORGE_APP_ID: github.appId, FORGE_APP_PRIVATE_KEY: github.privateKeyPem };
    logs = capturedLogger();
    server = await listen(createMinimalApp({ env: () => env, logger: logs.logger, version: 'test' }));
  });
  afterEach(async () => {
    await server.close();
    await github.close();
    await issuer.close();
  });

  const token = (body: unknown) => call(`${server.url}/token`, typeof body === 'string' ? { raw: body } : { json: body });
  const body = async (overrides: Record<string, unknown> = {}) => ({
    oidcToken: await issuer.mint({ aud: BROKER_AUDIENCE }),
    owner: 'octo-org',
    repo: 'octo-repo',
    ...overrides,
  });
  const outcomes = () => logs.lines().filter((l) => 'outcome' in l);

  it('mints like the main broker: 200 {token, expires_at, repository, permissions}, scoped to the repository id', async () => {
    const res = await token(await body());
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['expires_at', 'permissions', 'repository', 'token']);
    assert.deepEqual(github.grantOf(res.body.token as string)?.repositoryIds, [REPO_ID]);
    assert.deepEqual(outcomes().map((l) => l.outcome), ['mint_ok']);
    assert.ok(!logs.text().includes(res.body.token as string));
  });

  it('every caller gets a fresh token of its own: identical requests, one after another or at once, each mint; one app JWT serves them', async () => {
    const sequential = [];
    for (let i = 0; i < 3; i++) sequential.push(await token(await body()));
    const concurrent = await Promise.all(Array.from({ length: 6 }, async () => token(await body())));
    const tokens = [...sequential, ...concurrent].map((r) => r.body.token);
    assert.ok([...sequential, ...concurrent].every((r) => r.status === 200));
    assert.equal(new Set(tokens).size, 9);
    assert.equal(github.calls.filter((c) => c.route === 'access_tokens').length, 9);
    assert.equal(new Set(github.calls.filter((c) => c.auth === 'app').map((c) => c.appJwt)).size, 1);
  });

  it('narrows to the requested permissions as the main broker does (request ∩ TOKEN_PERMISSIONS ∩ the grant) and answers what was granted', async () => {
    const narrowed = await token(await body({ permissions: { contents: 'read' } }));
    assert.equal(narrowed.status, 200);
    assert.deepEqual(narrowed.body.permissions, { contents: 'read' });
    assert.deepEqual(github.grantOf(narrowed.body.token as string)?.permissions, { contents: 'read' });
    // Nothing beyond the broker's ceiling (TOKEN_PERMISSIONS, here the default contents and pull requests write).
    const ceiling = await token(await body({ permissions: { contents: 'write', issues: 'write' } }));
    assert.deepEqual(ceiling.body.permissions, { contents: 'write' });
    const none = await token(await body());
    assert.deepEqual(none.body.permissions, { contents: 'write', pull_requests: 'write' });
    for (const bad of [{ contents: 'admin' }, ['contents'], { not_a_permission: 'read' }]) {
      const refused = await token(await body({ permissions: bad }));
      assert.deepEqual([refused.status, refused.body], [400, { error: 'invalid_permissions' }], JSON.stringify(bad));
    }
    assert.deepEqual(outcomes().map((l) => l.outcome), ['mint_ok', 'mint_ok', 'mint_ok', 'invalid_permissions', 'invalid_permissions', 'invalid_permissions']);
  });

  it('/healthz answers 200 before any configuration is read; /readyz resolves it', async () => {
    env = {};
    assert.deepEqual((await call(`${server.url}/healthz`)).body, { status: 'ok' });
    const notReady = await call(`${server.url}/readyz`);
    assert.deepEqual([notReady.status, notReady.body], [503, { error: 'config_unavailable' }]);
    await call(`${server.url}/readyz`);
    env = { FORGE_APP_ID: github.appId, FORGE_APP_PRIVATE_KEY: github.privateKeyPem };
    const ready = await call(`${server.url}/readyz`);
    assert.deepEqual([ready.status, ready.body], [200, { status: 'ready' }]);
    // Each change once, not once per probe: why it is not ready (setting names, never values), then ready again.
    const changes = logs.lines().filter((l) => /^(ready|not ready)/.test(String(l.msg)));
    assert.deepEqual(changes.map((l) => [l.level, l.msg]), [['warn', 'not ready: config_unavailable'], ['info', 'ready again']]);
    assert.match(JSON.stringify(changes[0]!.problems), /FORGE_APP_ID/);
  });

  const table: [string, () => Promise<{ status: number; body: Record<string, unknown> }>, number, string][] = [
    ['not JSON', () => token('{"oidcToken"'), 400, 'invalid_json'],
    ['JSON but not an object', () => token('["x"]'), 400, 'invalid_json'],
    ['invalid UTF-8', () => call(`${server.url}/token`, { raw: Buffer.from([0x7b, 0xff, 0x7d]) }), 400, 'invalid_json'],
    ['over the size limit', () => token(JSON.stringify({ pad: 'x'.repeat(70_000) })), 400, 'invalid_json'],
    ['owner absent', async () => token({ ...(await body()), owner: undefined }), 400, 'missing_fields'],
    ['oidcToken empty', async () => token(await body({ oidcToken: '' })), 400, 'missing_fields'],
    ['repo null', async () => token(await body({ repo: null })), 400, 'missing_fields'],
    ['owner not a string', async () => token(await body({ owner: ['octo-org'] })), 400, 'invalid_repository'],
    ['repo with a path', async () => token(await body({ repo: '../../app/installations' })), 400, 'invalid_repository'],
    ['owner with a query', async () => token(await body({ owner: 'octo?x=1' })), 400, 'invalid_repository'],
    ['repo ..', async () => token(await body({ repo: '..' })), 400, 'invalid_repository'],
    ['a token for another audience', async () => token(await body({ oidcToken: await issuer.mint({ aud: 'other' }) })), 401, 'invalid_oidc'],
    ['an expired token', async () => token(await body({ oidcToken: await issuer.mint({ aud: BROKER_AUDIENCE, exp: Math.floor(Date.now() / 1000) - 300 }) })), 401, 'invalid_oidc'],
    ['a token for another repository', async () => token(await body({ repo: 'other' })), 403, 'repo_mismatch'],
  ];
  for (const [name, send, status, error] of table) {
    it(`${status} ${error}: ${name}`, async () => {
      const res = await send();
      assert.deepEqual([res.status, res.body], [status, { error }]);
      assert.deepEqual(outcomes().map((l) => l.outcome), [error], 'exactly one outcome line');
      assert.equal(github.count(), 0);
    });
  }

  it('403 repo_not_allowed: an allowlist without the repository', async () => {
    env.ALLOWED_REPOSITORIES = 'octo-org/other';
    const res = await token(await body());
    assert.deepEqual([res.status, res.body], [403, { error: 'repo_not_allowed' }]);
  });

  it('403 app_not_installed: the platform answers 404 for the installation', async () => {
    github.repos.clear();
    github.addRepo(REPO, REPO_ID, null);
    const res = await token(await body());
    assert.deepEqual([res.status, res.body], [403, { error: 'app_not_installed' }]);
  });

  it('502 mint_failed: the platform refuses the mint, or the lookup, for another reason', async () => {
    github.inject('access_tokens', { status: 500, body: { message: 'Server Error' } });
    assert.deepEqual((await token(await body())).body, { error: 'mint_failed' });
    github.addRepo('octo-org/second', 2, INSTALLATION_ID);
    github.inject('repository_installation', { status: 403, headers: { 'retry-after': '60' }, body: { message: 'You have exceeded a secondary rate limit.' } });
    const oidcToken = await issuer.mint({ aud: BROKER_AUDIENCE, repository: 'octo-org/second', repository_id: '2' });
    const res = await token({ oidcToken, owner: 'octo-org', repo: 'second' });
    assert.deepEqual([res.status, res.body], [502, { error: 'mint_failed' }]);
  });

  it('502 mint_failed, never app_not_installed: the mint answers 422 (repository not covered, or permissions not granted)', async () => {
    assert.equal((await token(await body())).status, 200);
    // The name now belongs to another repository: GitHub refuses the repository id with 422.
    github.repos.clear();
    github.addRepo(REPO, 999, INSTALLATION_ID);
    const uncovered = await token(await body());
    assert.deepEqual([uncovered.status, uncovered.body], [502, { error: 'mint_failed' }]);
    // The grant shrank under a cached lookup: GitHub refuses permissions it does not grant with 422.
    github.repos.clear();
    github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
    assert.equal((await token(await body())).status, 200);
    github.installations.get(INSTALLATION_ID)!.permissions = { contents: 'read', metadata: 'read' };
    const ungranted = await token(await body());
    assert.deepEqual([ungranted.status, ungranted.body], [502, { error: 'mint_failed' }]);
    assert.equal(github.calls.filter((c) => c.route === 'access_tokens').length, 4);
    assert.deepEqual(outcomes().map((l) => l.outcome), ['mint_ok', 'mint_failed', 'mint_ok', 'mint_failed']);
  });

  it("503 config_unavailable (and not ready): TOKEN_PERMISSIONS outside GitHub's vocabulary, with no platform call", async () => {
    for (const permissions of ['members=read', 'contents=write,organization_administration=write', 'workflows=read', 'pull_request=write']) {
      env.TOKEN_PERMISSIONS = permissions;
      const res = await token(await body());
      assert.deepEqual([res.status, res.body], [503, { error: 'config_unavailable' }], permissions);
      assert.equal((await call(`${server.url}/readyz`)).status, 503, permissions);
    }
    assert.equal(github.count(), 0);
  });

  it('503 config_unavailable (and not ready) while BROKER_POLICY is set, valid or not: it does not enforce policies, so it fails closed', async () => {
    for (const policy of ['repositories:\n  "*":\n    - {}\n', 'repositories: [']) {
      env.BROKER_POLICY = policy;
      const res = await token(await body());
      assert.deepEqual([res.status, res.body], [503, { error: 'config_unavailable' }]);
      assert.equal((await call(`${server.url}/readyz`)).status, 503);
    }
    assert.equal(github.count(), 0);
    const checked = checkMinimalStartup({ BROKER_POLICY: 'repositories: {}', FORGE_APP_ID: '1' });
    assert.ok(checked.ok);
    assert.ok((checked.value.notices[0]?.fields?.problems as string[]).includes(POLICY_NOT_ENFORCED));
    env.BROKER_POLICY = ' ';
    assert.equal((await token(await body())).status, 200, 'blank is unset');
  });

  it('503 config_unavailable: app id or key missing or unreadable', async () => {
    for (const change of [{ FORGE_APP_ID: undefined }, { FORGE_APP_PRIVATE_KEY: 'garbage' }, { TOKEN_PERMISSIONS: 'contents=admin' }]) {
      const saved = { ...env };
      Object.assign(env, change);
      const res = await token(await body());
      assert.deepEqual([res.status, res.body], [503, { error: 'config_unavailable' }], JSON.stringify(Object.keys(change)));
      env = saved;
    }
  });

  it('503 jwks_unavailable: the key set cannot be fetched (not a 401)', async () => {
    issuer.mode = 'down';
    const res = await token(await body());
    assert.deepEqual([res.status, res.body], [503, { error: 'jwks_unavailable' }]);
  });

  it('refusals answered by the shared error handler: JSON, never cached, with Retry-After when there is a wait', async () => {
    github.inject('repository_installation', { status: 403, headers: { 'retry-after': '60' }, body: { message: 'You have exceeded a secondary rate limit.' } });
    const limited = await token(await body());
    assert.deepEqual([limited.status, limited.body, limited.headers.get('retry-after')], [502, { error: 'mint_failed' }, '60']);
    const missing = await token({});
    for (const res of [limited, missing]) {
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    }
    assert.equal(missing.headers.get('retry-after'), null);
    assert.deepEqual(outcomes().map((l) => l.outcome), ['mint_failed', 'missing_fields']);
  });

  it('404 not_found and 405 method_not_allowed', async () => {
    assert.deepEqual((await call(`${server.url}/sign`, { json: {} })).body, { error: 'not_found' });
    for (const path of ['/token', '/healthz', '/readyz']) {
      const res = await call(`${server.url}${path}`, { method: 'PUT', json: {} });
      assert.deepEqual([res.status, res.body], [405, { error: 'method_not_allowed' }], path);
    }
    assert.deepEqual((await call(`${server.url}/token`)).body, { error: 'method_not_allowed' });
    // The PUT and the GET on /token each wrote their one outcome line; the other paths wrote none.
    assert.deepEqual(outcomes().map((l) => l.outcome), ['method_not_allowed', 'method_not_allowed']);
  });

  it('log lines: one per /token request, a closed vocabulary, never unchecked caller text; the token audit\'s fields; OIDC failures name only the exception class', async () => {
    const marker = 'CALLER-TEXT-MARKER';
    await token(await body({ repo: `${marker}/x` }));
    await token(await body({ owner: marker }));
    await token(await body({ oidcToken: `${marker}.${marker}.${marker}` }));
    await token(await body({ oidcToken: await issuer.mint({ aud: BROKER_AUDIENCE, exp: Math.floor(Date.now() / 1000) - 300 }) }));
    await token(`{"${marker}":`);
    await token(await body());
    const lines = outcomes();
    assert.equal(lines.length, 6);
    for (const line of lines) {
      assert.ok(VOCABULARY.has(line.outcome as string), String(line.outcome));
      const extra = Object.keys(line).filter((k) => !['level', 'time', 'pid', 'hostname', 'service', 'exception', ...AUDIT_FIELDS].includes(k));
      assert.deepEqual(extra, [], 'nothing but the audit fields (and an exception class)');
      assert.deepEqual(AUDIT_FIELDS.filter((f) => !(f in line)), [], 'every audit field, null when unknown');
    }
    assert.ok(!logs.text().includes(marker), 'caller text never reaches the log');
    assert.deepEqual(
      lines.map((l) => [l.outcome, l.exception]),
      [
        ['invalid_repository', undefined],
        ['repo_mismatch', undefined],
        ['invalid_oidc', 'TypeError'],
        ['invalid_oidc', 'JWTExpired'],
        ['invalid_json', undefined],
        ['mint_ok', undefined],
      ],
    );
  });
});

describe('minimal broker: its transport carries every outbound call', () => {
  it('the key-set fetch, the installation lookup and the mint go through createMinimalApp\'s transport', async () => {
    const issuer = await TestIssuer.start();
    const github = await FakeGitHub.start();
    github.addInstallation(INSTALLATION_ID, 'octo-org');
    github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
    const seen: string[] = [];
    const transport = ((input: string | URL | Request, init?: RequestInit) => {
      seen.push(new URL(typeof input === 'string' || input instanceof URL ? input : input.url).pathname);
      return fetch(input, init);
    }) as typeof fetch;
    const env = { OIDC_ISSUER: issuer.url, FORGE_API_BASE: github.apiBase, FORGE_APP_ID: github.appId, FORGE_APP_PRIVATE_KEY: github.privateKeyPem };
    const server = await listen(createMinimalApp({ env: () => env, logger: capturedLogger().logger, version: 'test', transport }));
    try {
      const res = await call(`${server.url}/token`, { json: { oidcToken: await issuer.mint({ aud: BROKER_AUDIENCE }), owner: 'octo-org', repo: 'octo-repo' } });
      assert.equal(res.status, 200);
      assert.ok(seen.some((path) => path.endsWith('/jwks')), seen.join(', '));
      assert.ok(seen.some((path) => path.endsWith('/repos/octo-org/octo-repo/installation')), seen.join(', '));
      assert.ok(seen.some((path) => path.endsWith('/access_tokens')), seen.join(', '));
      assert.equal(github.count(), seen.filter((path) => path.includes('/repos/') || path.includes('/app/')).length, 'every platform call was carried');
    } finally {
      await server.close();
      await github.close();
      await issuer.close();
    }
  });
});
