import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { InstallationDirectory } from '../../server/platform/installations.js';
import { createMemoryStore } from '../../server/store/memory.js';
import { startBackend } from '../support/backend.js';
import { FakeGitHub, secondaryRateLimit } from '../support/fake-github.js';
import { call } from '../support/http.js';
import { TestIssuer } from '../support/oidc-issuer.js';
import { hubSignature, INSTALLATION_ID, REPO, REPO_ID, startBroker, type BrokerHarness } from '../support/broker.js';

/** The same token under another header (its signature no longer matters: the header is refused first). */
function withHeader(token: string, header: Record<string, unknown>): string {
  const [, payload, signature] = token.split('.');
  return `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${payload}.${signature}`;
}

describe('broker POST /token', () => {
  let h: BrokerHarness;

  beforeEach(async () => {
    h = await startBroker();
  });
  afterEach(() => h.close());

  const validBody = async (overrides: Record<string, unknown> = {}) => ({
    oidcToken: await h.oidc(),
    owner: 'octo-org',
    repo: 'octo-repo',
    ...overrides,
  });

  describe('success', () => {
    it('mints a token scoped to the repository id with the default permissions; expires_at unchanged', async () => {
      const res = await h.token(await validBody({ ref: 'refs/heads/main', runId: '42', sha: 'a'.repeat(40) }));
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['expires_at', 'permissions', 'repository', 'token']);
      assert.deepEqual(res.body.permissions, { contents: 'write', pull_requests: 'write' });
      assert.equal(res.body.repository, REPO);
      assert.match(res.body.expires_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const grant = h.github.grantOf(res.body.token as string);
      assert.deepEqual(grant, { installationId: INSTALLATION_ID, repositoryIds: [REPO_ID], permissions: { contents: 'write', pull_requests: 'write' } });
      const mint = h.github.calls.find((c) => c.route === 'access_tokens');
      assert.deepEqual(mint?.body, { repository_ids: [REPO_ID], permissions: { contents: 'write', pull_requests: 'write' } });
      assert.equal(res.headers.get('cache-control'), 'no-store');
    });

    it('the app JWT it sends is RS256 with the app key and iss = app id (the fake refuses anything else)', async () => {
      assert.equal((await h.token(await validBody())).status, 200);
      assert.equal(h.github.rejectedJwts, 0);
      assert.ok(h.github.calls.filter((c) => c.route === 'access_tokens' || c.route === 'repository_installation').every((c) => c.auth === 'app'));
    });

    it('once warm, one platform call per request: the installation lookup is cached', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await h.token(await validBody())).status, 200);
      assert.equal(h.github.count('repository_installation'), 1);
      assert.equal(h.github.count('access_tokens'), 5);
      assert.equal(h.github.count(), 6);
    });

    it('one signed app JWT serves every app call while it is valid (lookups and mints alike)', async () => {
      await Promise.all(Array.from({ length: 4 }, async () => h.token(await validBody())));
      // A second later a JWT signed afresh would carry another iat, so another signature.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      for (let i = 0; i < 3; i++) assert.equal((await h.token(await validBody())).status, 200);
      const jwts = h.github.calls.filter((c) => c.auth === 'app').map((c) => c.appJwt);
      assert.ok(jwts.length >= 8);
      assert.equal(new Set(jwts).size, 1);
    });

    it('identical requests one after another each mint their own token: nothing is cached between callers', async () => {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await h.token(await validBody()));
      assert.equal(new Set(answers.map((a) => a.body.token)).size, 3);
      assert.equal(h.github.count('access_tokens'), 3);
    });

    it('concurrent identical requests each get their own token: one revoking never revokes another', async () => {
      const answers = await Promise.all(Array.from({ length: 8 }, async () => h.token(await validBody())));
      assert.ok(answers.every((a) => a.status === 200));
      assert.equal(new Set(answers.map((a) => a.body.token)).size, 8);
      assert.equal(h.github.count('access_tokens'), 8);
    });

    it('configured permissions are stamped, but never beyond the installation grant (no error)', async () => {
      h.backend.env.TOKEN_PERMISSIONS = 'contents=read, issues:write, pull_requests=write';
      h.github.installations.get(INSTALLATION_ID)!.permissions = { contents: 'write', pull_requests: 'read', metadata: 'read' };
      const res = await h.token(await validBody());
      assert.equal(res.status, 200);
      assert.deepEqual(h.github.grantOf(res.body.token as string)?.permissions, { contents: 'read', pull_requests: 'read' });
    });

    it('a permission GitHub takes only as write (workflows) is stamped as configured', async () => {
      h.backend.env.TOKEN_PERMISSIONS = '{"contents":"write","workflows":"write"}';
      h.github.installations.get(INSTALLATION_ID)!.permissions = { contents: 'write', workflows: 'write', metadata: 'read' };
      const res = await h.token(await validBody());
      assert.equal(res.status, 200);
      assert.deepEqual(h.github.grantOf(res.body.token as string)?.permissions, { contents: 'write', workflows: 'write' });
    });

    it('a token with less than 10 minutes left is never handed out: the broker mints again', async () => {
      h.github.nextTokenLifetimesMs.push(5 * 60_000);
      const res = await h.token(await validBody());
      assert.equal(res.status, 200);
      assert.ok(Date.parse(res.body.expires_at as string) - Date.now() > 50 * 60_000);
      assert.equal(h.github.count('access_tokens'), 2);
      assert.equal(h.github.revoked.size, 1, 'the short-lived token is revoked');
    });

    it('never logs the minted token or the OIDC token, only their hashes', async () => {
      const body = await validBody();
      const res = await h.token(body);
      const logs = h.backend.logs.text();
      assert.ok(!logs.includes(res.body.token as string));
      assert.ok(!logs.includes(body.oidcToken));
      const line = h.backend.logs.lines().find((l) => l.msg === 'token minted');
      assert.match(line?.token_sha256 as string, /^[0-9a-f]{16}$/);
      assert.equal(line?.repository_id, String(REPO_ID));
    });

    it('accepts the legacy audience by default, and only the configured ones when OIDC_AUDIENCE is set', async () => {
      assert.equal((await h.token(await validBody({ oidcToken: await h.oidc({ aud: 'forge-token-broker' }) }))).status, 200);
      h.backend.env.OIDC_AUDIENCE = ' custom-aud , ';
      const legacy = await h.token(await validBody({ oidcToken: await h.oidc({ aud: 'forge-token-broker' }) }));
      assert.deepEqual([legacy.status, legacy.body], [401, { error: 'invalid_oidc_token', reason: 'audience_mismatch' }]);
      assert.equal((await h.token(await validBody({ oidcToken: await h.oidc({ aud: 'custom-aud' }) }))).status, 200);
    });

    it('installation lookups expire from the cache after their short TTL', async () => {
      const quick = await startBroker({ installations: new InstallationDirectory({ ttlMs: 30 }) });
      try {
        const body = { oidcToken: await quick.oidc(), owner: 'octo-org', repo: 'octo-repo' };
        assert.equal((await quick.token(body)).status, 200);
        await sleep(60);
        assert.equal((await quick.token(body)).status, 200);
        assert.equal(quick.github.count('repository_installation'), 2);
      } finally {
        await quick.close();
      }
    });
  });

  describe('error table', () => {
    const cases: [string, () => Promise<unknown> | unknown, number, Record<string, unknown>][] = [
      ['400 invalid_json: not JSON', () => '{"oidcToken":', 400, { error: 'invalid_json' }],
      ['400 invalid_json: empty body', () => '', 400, { error: 'invalid_json' }],
      ['400 invalid_json: invalid UTF-8', () => Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), 400, { error: 'invalid_json' }],
    ];
    for (const [name, raw, status, body] of cases) {
      it(name, async () => {
        const res = await call(`${h.backend.url}/token`, { raw: (await raw()) as string });
        assert.equal(res.status, status);
        assert.deepEqual(res.body, body);
      });
    }

    for (const json of [[], 'text', 42, null, [{ oidcToken: 'x' }]]) {
      it(`400 invalid_request: ${JSON.stringify(json)} is not a JSON object`, async () => {
        const res = await call(`${h.backend.url}/token`, { raw: JSON.stringify(json) });
        assert.equal(res.status, 400);
        assert.equal(res.body.error, 'invalid_request');
      });
    }

    for (const field of ['oidcToken', 'owner', 'repo']) {
      for (const value of [undefined, '', null]) {
        it(`400 missing_required_fields: ${field} ${value === undefined ? 'absent' : JSON.stringify(value)}`, async () => {
          const body: Record<string, unknown> = await validBody();
          if (value === undefined) delete body[field];
          else body[field] = value;
          const res = await h.token(body);
          assert.equal(res.status, 400);
          assert.equal(res.body.error, 'missing_required_fields');
          assert.equal(h.issuer.jwksFetches, 0, 'refused before any key fetch');
        });
      }
    }

    it('400 invalid_request: a field of the wrong type', async () => {
      const res = await h.token(await validBody({ owner: 7 }));
      assert.deepEqual([res.status, res.body.error], [400, 'invalid_request']);
    });

    for (const value of [
      'contents=admin',
      '{"contents":"admin"}',
      ',,',
      '{}',
      'Contents=write',
      'contents',
      '[1]',
      '{"contents":',
      'contents=write,contents=read',
      // GitHub's vocabulary: an unknown name, a value GitHub refuses for the name, organization and account permissions.
      'contents=write,pull_request=write',
      'workflows=read',
      'members=read',
      '{"contents":"write","organization_administration":"write"}',
      'gpg_keys:write',
    ]) {
      it(`400 invalid_token_permissions for every request when TOKEN_PERMISSIONS=${value}`, async () => {
        h.backend.env.TOKEN_PERMISSIONS = value;
        const res = await h.token(await validBody());
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid_token_permissions' }]);
        assert.equal(h.github.count(), 0);
        assert.ok(!h.backend.logs.text().includes(h.github.privateKeyPem.slice(40, 80)));
      });
    }

    const rejected: [string, (h: BrokerHarness) => Promise<string>][] = [
      ['audience_mismatch', (x) => x.oidc({ aud: 'gatehouse-ledger' })],
      ['audience_mismatch', (x) => x.oidc({ aud: ['gatehouse-broker', 'other'] })],
      ['expired', (x) => x.oidc({ exp: Math.floor(Date.now() / 1000) - 120 })],
      ['not_yet_valid', (x) => x.oidc({ nbf: Math.floor(Date.now() / 1000) + 600 })],
      ['issuer_not_trusted', (x) => x.oidc({ iss: 'https://token.actions.githubusercontent.com' })],
      ['issuer_not_trusted', (x) => x.oidc({ iss: `${x.issuer.url}/` })],
      ['signature_invalid', async (x) => x.oidc({}, { signWith: await TestIssuer.strayKey(), kid: x.issuer.kid })],
      ['signature_invalid', async (x) => x.oidc({}, { signWith: await TestIssuer.strayKey() })],
      ['algorithm_not_allowed', async (x) => withHeader(await x.oidc(), { alg: 'RS384', typ: 'JWT', kid: x.issuer.kid })],
      ['algorithm_not_allowed', async (x) => withHeader(await x.oidc(), { alg: 'none' })],
      ['malformed', async () => 'not.a.jwt'],
      ['missing_claims', (x) => x.oidc({}, { omit: ['repository_id'] })],
      ['missing_claims', (x) => x.oidc({}, { omit: ['repository'] })],
    ];
    for (const [reason, token] of rejected) {
      it(`401 invalid_oidc_token, reason ${reason}`, async () => {
        const res = await h.token(await validBody({ oidcToken: await token(h) }));
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, { error: 'invalid_oidc_token', reason });
        assert.equal(h.github.count(), 0, 'no platform call for a refused token');
      });
    }

    it('403 repo_mismatch: the token is for another repository', async () => {
      const res = await h.token(await validBody({ repo: 'other-repo' }));
      assert.deepEqual([res.status, res.body], [403, { error: 'repo_mismatch' }]);
      const owner = await h.token(await validBody({ owner: 'Octo-Org' }));
      assert.deepEqual([owner.status, owner.body], [403, { error: 'repo_mismatch' }]);
      assert.equal(h.github.count(), 0);
    });

    it('403 repo_not_allowed: outside ALLOWED_REPOSITORIES (exact match, no globbing), takes effect on the next request', async () => {
      h.backend.env.ALLOWED_REPOSITORIES = 'octo-org/*, octo-org/octo-repo-2';
      const res = await h.token(await validBody());
      assert.deepEqual([res.status, res.body], [403, { error: 'repo_not_allowed' }]);
      h.backend.env.ALLOWED_REPOSITORIES = ' octo-org/other ,  octo-org/octo-repo ';
      assert.equal((await h.token(await validBody())).status, 200);
    });

    it('404 app_not_installed: no installation covers the repository', async () => {
      h.github.repos.clear();
      h.github.addRepo(REPO, REPO_ID, null);
      const res = await h.token(await validBody());
      assert.deepEqual([res.status, res.body], [404, { error: 'app_not_installed' }]);
    });

    it('a repository without the app cannot spend the app\'s API budget: 80 replays of its token make one lookup', async () => {
      h.github.repos.clear();
      h.github.addRepo(REPO, REPO_ID, null);
      const replayed = await validBody();
      const answers = await Promise.all(Array.from({ length: 40 }, () => h.token(replayed)));
      for (let i = 0; i < 40; i++) answers.push(await h.token(replayed));
      assert.ok(answers.every((a) => a.status === 404 && a.body.error === 'app_not_installed'));
      assert.equal(h.github.count('repository_installation'), 1);
      assert.equal(h.github.count('access_tokens'), 0);
    });

    it('"not installed" is remembered briefly, and an installation event naming the repository ends it at once', async () => {
      const quick = await startBroker({ installations: new InstallationDirectory({ notInstalledTtlMs: 50 }) });
      try {
        quick.github.repos.clear();
        quick.github.addRepo(REPO, REPO_ID, null);
        const body = { oidcToken: await quick.oidc(), owner: 'octo-org', repo: 'octo-repo' };
        assert.equal((await quick.token(body)).status, 404);
        await sleep(80);
        assert.equal((await quick.token(body)).status, 404);
        assert.equal(quick.github.count('repository_installation'), 2, 'looked up again once the short memory ended');

        quick.github.addRepo(REPO, REPO_ID, INSTALLATION_ID); // installed now; the cache still says "not installed"
        const cached = await quick.token(body);
        assert.equal(cached.status, 404);
        const event = JSON.stringify({ action: 'added', installation: { id: INSTALLATION_ID }, repositories_added: [{ id: REPO_ID, full_name: REPO }], repositories_removed: [] });
        const delivered = await call(`${quick.backend.url}/webhook`, {
          raw: event,
          headers: { 'x-github-event': 'installation_repositories', 'x-github-delivery': 'install-1', 'x-hub-signature-256': hubSignature(quick.webhookSecret, event) },
        });
        assert.deepEqual([delivered.status, delivered.body], [200, { ok: true, ignored: 'installation_repositories' }]);
        assert.equal((await quick.token(body)).status, 200);
      } finally {
        await quick.close();
      }
    });

    it('400 invalid_token_permissions even when the installation holds the organization permission asked for', async () => {
      // Without the check the broker would narrow to the grant and mint a one-repository caller
      // a token with power over the whole organization.
      h.github.installations.get(INSTALLATION_ID)!.permissions = { contents: 'write', members: 'write', metadata: 'read' };
      h.backend.env.TOKEN_PERMISSIONS = 'contents=write,members=read';
      const res = await h.token(await validBody());
      assert.deepEqual([res.status, res.body], [400, { error: 'invalid_token_permissions' }]);
      assert.equal(h.github.count('access_tokens'), 0);
    });

    it('502 mint_failed, never app_not_installed: the installation no longer covers the repository id (mint 422); the cached lookup is dropped', async () => {
      assert.equal((await h.token(await validBody())).status, 200);
      h.github.repos.clear();
      h.github.addRepo(REPO, 999, INSTALLATION_ID); // the name now belongs to another repository
      const res = await h.token(await validBody());
      assert.deepEqual([res.status, res.body], [502, { error: 'mint_failed' }]);
      assert.match(h.backend.logs.text(), /not accessible to the parent installation/, "GitHub's reason is in the log");
      await h.token(await validBody());
      assert.equal(h.github.count('repository_installation'), 2, 'looked up again after the refusal');
    });

    it('502 mint_failed: the grant shrank after the cached lookup (mint 422, permissions not granted); the next request narrows to the new grant', async () => {
      assert.equal((await h.token(await validBody())).status, 200);
      h.github.installations.get(INSTALLATION_ID)!.permissions = { contents: 'read', metadata: 'read' };
      const res = await h.token(await validBody());
      assert.deepEqual([res.status, res.body], [502, { error: 'mint_failed' }]);
      assert.match(h.backend.logs.text(), /The permissions requested are not granted to this installation/);
      const next = await h.token(await validBody());
      assert.equal(next.status, 200);
      assert.deepEqual(h.github.grantOf(next.body.token as string)?.permissions, { contents: 'read' });
      assert.equal(h.github.count('repository_installation'), 2);
    });

    it('405 method_not_allowed for GET, PUT and DELETE', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await call(`${h.backend.url}/token`, { method });
        assert.deepEqual([res.status, res.body], [405, { error: 'method_not_allowed' }]);
        assert.equal(res.headers.get('allow'), 'POST');
      }
      // Each refused request still writes its one request log line.
      const lines = h.backend.logs.lines().filter((l) => (l.req as { path?: string } | undefined)?.path === '/token');
      assert.deepEqual(
        lines.map((l) => [(l.req as { method: string }).method, (l.res as { statusCode: number }).statusCode]),
        [['GET', 405], ['PUT', 405], ['DELETE', 405]],
      );
    });

    for (const [what, answer] of [
      ['a 500', { status: 500, body: { message: 'Server Error' } }],
      ['a secondary rate limit', secondaryRateLimit(403)],
      ['a dropped connection', 'reset'],
    ] as const) {
      it(`500 platform_installation_lookup_failed: the lookup answers ${what}`, async () => {
        h.github.inject('repository_installation', answer);
        const res = await h.token(await validBody());
        assert.deepEqual([res.status, res.body], [500, { error: 'platform_installation_lookup_failed' }]);
        // The failure is logged with its causes, but never the app JWT or key that went with the call.
        const logs = h.backend.logs.text();
        assert.match(logs, /platform_installation_lookup_failed|InstallationLookupFailed/);
        assert.ok(!/bearer eyJ/i.test(logs), 'no app JWT in the log');
        assert.ok(!logs.includes(h.github.privateKeyPem.split('\n')[1]!), 'no key in the log');
      });
    }

    it('500 platform_installation_lookup_failed: the platform refuses the app JWT (wrong app id)', async () => {
      h.backend.env.FORGE_APP_ID = '1';
      const res = await h.token(await validBody());
      assert.deepEqual([res.status, res.body], [500, { error: 'platform_installation_lookup_failed' }]);
      assert.ok(h.github.rejectedJwts >= 1);
    });

    it('502 mint_failed: the mint answers 5xx or a secondary rate limit (429)', async () => {
      h.github.inject('access_tokens', { status: 502, body: { message: 'Bad Gateway' } });
      const first = await h.token(await validBody());
      assert.deepEqual([first.status, first.body], [502, { error: 'mint_failed' }]);
      assert.equal(first.headers.get('retry-after'), null, 'no hint the platform did not give');
      h.github.inject('access_tokens', secondaryRateLimit(429, 42));
      const second = await h.token(await validBody());
      assert.deepEqual([second.status, second.body], [502, { error: 'mint_failed' }]);
      assert.equal(second.headers.get('retry-after'), '42', "the platform's Retry-After is passed on");
    });

    it("500 platform_installation_lookup_failed passes the platform's Retry-After of a secondary rate limit", async () => {
      h.github.inject('repository_installation', secondaryRateLimit(403, 17));
      const res = await h.token(await validBody());
      assert.deepEqual([res.status, res.body, res.headers.get('retry-after')], [500, { error: 'platform_installation_lookup_failed' }, '17']);
    });

    it('502 mint_failed: the platform keeps answering with tokens that expire within 10 minutes', async () => {
      h.github.tokenLifetimeMs = 9 * 60_000;
      const res = await h.token(await validBody());
      assert.deepEqual([res.status, res.body], [502, { error: 'mint_failed' }]);
      assert.equal(h.github.count('access_tokens'), 2);
    });

    it('503 app_unconfigured: FORGE_APP_ID or FORGE_APP_PRIVATE_KEY unset or unreadable', async () => {
      for (const [name, value] of [
        ['FORGE_APP_ID', undefined],
        ['FORGE_APP_PRIVATE_KEY', undefined],
        ['FORGE_APP_PRIVATE_KEY', 'not a pem'],
      ] as const) {
        const saved = h.backend.env[name];
        h.backend.env[name] = value;
        const res = await h.token(await validBody());
        assert.deepEqual([res.status, res.body], [503, { error: 'app_unconfigured' }], name);
        h.backend.env[name] = saved;
      }
    });

    it('503 oidc_key_fetch_failed with reason jwks_unavailable: key set unreachable and no snapshot', async () => {
      h.issuer.mode = 'down';
      const res = await h.token(await validBody());
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, { error: 'oidc_key_fetch_failed', reason: 'jwks_unavailable' });
      assert.equal(res.headers.get('retry-after'), '5');
    });

    it('any other path: 404 not_found', async () => {
      const res = await call(`${h.backend.url}/tokens`, { json: {} });
      assert.deepEqual([res.status, res.body], [404, { error: 'not_found' }]);
    });
  });
});

describe('broker key-set snapshot', () => {
  it('a replica whose issuer key endpoint is down verifies against the snapshot another request stored', async () => {
    const store = createMemoryStore();
    const first = await startBroker({ store });
    try {
      const body = { oidcToken: await first.oidc(), owner: 'octo-org', repo: 'octo-repo' };
      assert.equal((await first.token(body)).status, 200);
      assert.ok(await store.keyValues.get('jwks-snapshot', first.issuer.url, new Date()), 'snapshot written');

      // A second process (a fresh key-set cache) sharing the store, while the key endpoint is down.
      first.issuer.mode = 'down';
      const replica = await startBackend({ issuer: first.issuer, store, env: { ...first.backend.env } });
      try {
        const rescued = await call(`${replica.url}/token`, { json: { ...body, oidcToken: await first.oidc() } });
        assert.equal(rescued.status, 200);
        assert.ok(replica.logs.lines().some((l) => l.msg === 'key set unreachable; verified against the last-known-good snapshot'));

        // A token signed with a key the snapshot does not know gets no verdict: 503, not 401.
        const snapshotKid = first.issuer.kid;
        await first.issuer.rotate();
        const unknownKey = await call(`${replica.url}/token`, { json: { ...body, oidcToken: await first.oidc() } });
        assert.deepEqual([unknownKey.status, unknownKey.body], [503, { error: 'oidc_key_fetch_failed', reason: 'jwks_unavailable' }]);

        // The snapshot is a real key set: a forged signature is still refused.
        const forged = await call(`${replica.url}/token`, {
          json: { ...body, oidcToken: await first.oidc({}, { signWith: await TestIssuer.strayKey(), kid: snapshotKid }) },
        });
        assert.equal(forged.status, 401);
      } finally {
        await replica.close();
      }
    } finally {
      await first.close();
    }
  });
});

describe('broker enterprise support', () => {
  let h: BrokerHarness;
  let enterpriseIssuer: TestIssuer;
  let ghe: FakeGitHub;

  beforeEach(async () => {
    h = await startBroker();
    enterpriseIssuer = await TestIssuer.start();
    ghe = await FakeGitHub.start({ appId: '77', prefix: '/api/v3' });
    ghe.addInstallation(5, 'corp');
    ghe.addRepo('corp/service', 4242, 5);
    Object.assign(h.backend.env, {
      ENTERPRISE_OIDC_ISSUER: `  ${enterpriseIssuer.url}//  `,
      ENTERPRISE_API_BASE: ghe.apiBase,
      ENTERPRISE_APP_ID: ghe.appId,
      // One line with literal \n escapes, as secret stores often hold it.
      ENTERPRISE_APP_PRIVATE_KEY: ghe.privateKeyPem.trim().replace(/\n/g, '\\n'),
    });
  });
  afterEach(async () => {
    await h.close();
    await enterpriseIssuer.close();
    await ghe.close();
  });

  const enterpriseToken = (overrides: Record<string, unknown> = {}, options: Parameters<TestIssuer['mint']>[1] = {}) =>
    enterpriseIssuer.mint(
      { aud: 'gatehouse-broker', repository: 'corp/service', repository_id: '4242', repository_owner: 'corp', ...overrides },
      options,
    );

  it('a token of the enterprise issuer is minted by the enterprise app against its own API base', async () => {
    const res = await h.token({ oidcToken: await enterpriseToken(), owner: 'corp', repo: 'service' });
    assert.equal(res.status, 200);
    assert.equal(res.body.repository, 'corp/service');
    assert.deepEqual(ghe.grantOf(res.body.token as string)?.repositoryIds, [4242]);
    assert.equal(h.github.count(), 0, 'the primary platform is not called');
    assert.equal(ghe.rejectedJwts, 0);
  });

  it('a token of the primary issuer is still minted by the primary app', async () => {
    const res = await h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' });
    assert.equal(res.status, 200);
    assert.ok(h.github.grantOf(res.body.token as string));
    assert.equal(ghe.count(), 0);
  });

  it('the issuer is pinned before its key set: a token claiming the enterprise issuer but signed with the primary keys fails', async () => {
    const forged = await h.oidc(
      { iss: enterpriseIssuer.url, repository: 'corp/service', repository_id: '4242', repository_owner: 'corp' },
      { kid: enterpriseIssuer.kid },
    );
    const res = await h.token({ oidcToken: forged, owner: 'corp', repo: 'service' });
    assert.deepEqual([res.status, res.body], [401, { error: 'invalid_oidc_token', reason: 'signature_invalid' }]);
    const reverse = await enterpriseToken({ iss: h.issuer.url }, { kid: h.issuer.kid });
    const res2 = await h.token({ oidcToken: reverse, owner: 'corp', repo: 'service' });
    assert.deepEqual([res2.status, res2.body], [401, { error: 'invalid_oidc_token', reason: 'signature_invalid' }]);
    assert.equal(ghe.count() + h.github.count(), 0);
  });

  it('ENTERPRISE_APP_INSTALLATION_ID skips the per-repository lookup when it is a positive integer', async () => {
    h.backend.env.ENTERPRISE_APP_INSTALLATION_ID = ' 5 ';
    for (let i = 0; i < 2; i++) {
      assert.equal((await h.token({ oidcToken: await enterpriseToken(), owner: 'corp', repo: 'service' })).status, 200);
    }
    assert.equal(ghe.count('repository_installation'), 0);
    assert.equal(ghe.count('installation'), 1, 'the grant of the configured installation is read once');
    h.backend.env.ENTERPRISE_APP_INSTALLATION_ID = '-5';
    assert.equal((await h.token({ oidcToken: await enterpriseToken(), owner: 'corp', repo: 'service' })).status, 200);
    assert.equal(ghe.count('repository_installation'), 1, 'an unusable id means a lookup');
  });

  it('without ENTERPRISE_OIDC_ISSUER the enterprise issuer is not trusted', async () => {
    delete h.backend.env.ENTERPRISE_OIDC_ISSUER;
    const res = await h.token({ oidcToken: await enterpriseToken(), owner: 'corp', repo: 'service' });
    assert.deepEqual([res.status, res.body], [401, { error: 'invalid_oidc_token', reason: 'issuer_not_trusted' }]);
  });
});

describe('broker POST /token: the app transport carries every outbound call', () => {
  it("the installation lookup and the mint go through createApp's transport, as the key-set fetch does", async () => {
    const seen: string[] = [];
    const transport = ((input: string | URL | Request, init?: RequestInit) => {
      seen.push(new URL(typeof input === 'string' || input instanceof URL ? input : input.url).pathname);
      return fetch(input, init);
    }) as typeof fetch;
    const h = await startBroker({ transport });
    try {
      const res = await h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' });
      assert.equal(res.status, 200);
      assert.ok(seen.some((path) => path.endsWith('/repos/octo-org/octo-repo/installation')), seen.join(', '));
      assert.ok(seen.some((path) => path.endsWith('/access_tokens')), seen.join(', '));
      assert.equal(h.github.count(), seen.filter((path) => path.includes('/repos/') || path.includes('/app/')).length, 'every platform call was carried');
    } finally {
      await h.close();
    }
  });
});

