import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import nock from 'nock';
import { PlatformError } from '../../server/platform/errors.js';
import { AppClient } from '../../server/platform/github-app.js';
import { InstallationDirectory } from '../../server/platform/installations.js';
import type { Access } from '../../server/platform/permissions.js';
import { AppNotInstalled, InstallationLookupFailed, MintFailed, mintRepositoryToken } from '../../server/platform/repository-token.js';
import { useNock } from '../support/nock.js';

const API = 'https://api.github.example';
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const clock = { now: () => Date.now() };
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('platform client (HTTP mocked with nock at the transport: the global fetch)', () => {
  useNock();
  const app = () => new AppClient(API, { appId: '99', privateKey }, { userAgent: 'gatehouse/test', transport: fetch, bounds: { connectMs: 500, totalMs: 500 } });

  it('app calls carry an RS256 app JWT with iss = app id and a lifetime of at most 10 minutes', async () => {
    let authorization = '';
    nock(API)
      .get('/repos/o/r/installation')
      .reply(function () {
        authorization = String(this.req.headers.authorization);
        return [200, { id: 5, permissions: { contents: 'write' } }];
      });
    assert.deepEqual(await app().repositoryInstallation('o', 'r'), { id: 5, permissions: { contents: 'write' }, suspended: false });
    const jwt = authorization.replace(/^bearer /i, '');
    assert.equal(decodeProtectedHeader(jwt).alg, 'RS256');
    const claims = decodeJwt(jwt);
    assert.equal(String(claims.iss), '99');
    assert.ok(claims.exp! - claims.iat! <= 600);
  });

  it('404 on the installation lookup is null, not an error', async () => {
    nock(API).get('/repos/o/r/installation').reply(404, { message: 'Not Found' });
    assert.equal(await app().repositoryInstallation('o', 'r'), null);
  });

  it('mints with repository_ids and permissions, and passes expires_at through unchanged', async () => {
    nock(API)
      .post('/app/installations/5/access_tokens', { repository_ids: [42], permissions: { contents: 'read' } })
      .reply(201, { token: 'ghs_x', expires_at: '2030-01-01T00:00:00Z', permissions: { contents: 'read' } });
    const minted = await app().mint(5, { repositoryIds: [42], permissions: { contents: 'read' } });
    assert.deepEqual(minted, { token: 'ghs_x', expiresAt: '2030-01-01T00:00:00Z', permissions: { contents: 'read' } });
  });

  it('errors become PlatformError with the status, the platform message and retry-after', async () => {
    nock(API)
      .post('/app/installations/5/access_tokens')
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '60' });
    const err = await app()
      .mint(5, { permissions: { contents: 'read' } })
      .catch((e: unknown) => e);
    assert.ok(err instanceof PlatformError);
    assert.equal(err.status, 403);
    assert.equal(err.details.retryAfterSeconds, 60);
    assert.equal(err.rateLimited, true);
  });

  it('a dropped connection or a timeout is a PlatformError without a status', async () => {
    nock(API).get('/app/installations/1').delay(2000).reply(200, { id: 1 });
    const err = await app()
      .installation(1)
      .catch((e: unknown) => e);
    assert.ok(err instanceof PlatformError, String(err));
    assert.equal(err.status, null);
  });

  it('follows Link pagination across pages of /installation/repositories', async () => {
    const repo = (id: number) => ({ id, name: `r${id}`, full_name: `o/r${id}`, owner: { login: 'o' } });
    nock(API)
      .get('/installation/repositories')
      .query({ per_page: '100' })
      .reply(200, { total_count: 3, repositories: [repo(1), repo(2)] }, { link: `<${API}/installation/repositories?per_page=100&page=2>; rel="next"` })
      .get('/installation/repositories')
      .query({ per_page: '100', page: '2' })
      .reply(200, { total_count: 3, repositories: [repo(3)] });
    const names = [];
    for await (const r of app().withToken('ghs_t').repositories()) names.push(r.fullName);
    assert.deepEqual(names, ['o/r1', 'o/r2', 'o/r3']);
  });

  it('installation-token calls send the token, and GraphQL errors become PlatformError with their type', async () => {
    nock(API, { reqheaders: { authorization: 'token ghs_t' } })
      .post('/graphql')
      .reply(200, { data: { createCommitOnBranch: null }, errors: [{ type: 'STALE_DATA', message: 'Expected branch to point to "x"' }] });
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
      nock(API)
        .get('/repos/o/r/installation')
        .reply(200, { id: 5, permissions: { metadata: 'read', issues: 'read' } })
        .post('/app/installations/5/access_tokens', { repository_ids: [42], permissions: { issues: 'read' } })
        .reply(201, { token: 'ghs_a', expires_at: inAnHour(), permissions: { issues: 'read' } })
        .post('/app/installations/5/access_tokens', { repository_ids: [42], permissions: { metadata: 'read' } })
        .reply(201, { token: 'ghs_b', expires_at: inAnHour(), permissions: { metadata: 'read' } });
      const d = deps();
      const client = app();
      assert.equal((await mintRepositoryToken(d, client, { owner: 'o', repo: 'r', repositoryId: 42 }, { issues: 'write', contents: 'write' })).token, 'ghs_a');
      assert.equal((await mintRepositoryToken(d, client, { owner: 'o', repo: 'r', repositoryId: 42 }, { contents: 'write' })).token, 'ghs_b');
    });

    it('maps the outcomes: not installed, lookup failure, mint failure', async () => {
      nock(API).get('/repos/o/r/installation').reply(404, { message: 'Not Found' });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'read' }), AppNotInstalled);
      nock(API).get('/repos/o/r/installation').reply(503, { message: 'Service Unavailable' });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'read' }), InstallationLookupFailed);
      nock(API)
        .get('/repos/o/r/installation')
        .reply(200, { id: 5, permissions: { contents: 'read' } })
        .post('/app/installations/5/access_tokens')
        .reply(500, { message: 'Server Error' });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'read' }), MintFailed);
    });

    it('refuses an unusable expires_at', async () => {
      nock(API)
        .get('/repos/o/r/installation')
        .reply(200, { id: 5, permissions: { contents: 'read' } })
        .post('/app/installations/5/access_tokens')
        .reply(201, { token: 'ghs_a', expires_at: 'soon', permissions: {} });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'read' }), MintFailed);
    });

    for (const [what, message] of [
      ['a repository it does not cover', 'There is at least one repository that does not exist or is not accessible to the parent installation.'],
      ['permissions it does not grant', 'The permissions requested are not granted to this installation.'],
    ]) {
      it(`a mint answered 422 (${what}) is MintFailed, not AppNotInstalled, and the cached lookup is dropped`, async () => {
        const scope = nock(API)
          .get('/repos/o/r/installation')
          .times(2)
          .reply(200, { id: 5, permissions: { contents: 'write' } })
          .post('/app/installations/5/access_tokens')
          .reply(422, { message, documentation_url: 'https://docs.github.com/rest', status: '422' })
          .post('/app/installations/5/access_tokens')
          .reply(201, { token: 'ghs_a', expires_at: inAnHour(), permissions: { contents: 'write' } });
        const d = deps();
        const client = app();
        const refused = await mintRepositoryToken(d, client, { owner: 'o', repo: 'r', repositoryId: 42 }, { contents: 'write' }).catch((err: unknown) => err);
        assert.ok(refused instanceof MintFailed, String(refused));
        assert.ok(refused.cause instanceof PlatformError && refused.cause.status === 422 && refused.cause.message === message);
        // The second lookup (times(2)) is only made because the refusal dropped the cached one.
        assert.equal((await mintRepositoryToken(d, client, { owner: 'o', repo: 'r', repositoryId: 42 }, { contents: 'write' })).token, 'ghs_a');
        assert.ok(scope.isDone());
      });
    }

    it('a mint answered 404 (the installation is gone since the lookup) is AppNotInstalled', async () => {
      nock(API)
        .get('/repos/o/r/installation')
        .reply(200, { id: 5, permissions: { contents: 'write' } })
        .post('/app/installations/5/access_tokens')
        .reply(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
      await assert.rejects(mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, { contents: 'write' }), AppNotInstalled);
    });

    const refusedSets: Record<string, Access>[] = [{ members: 'read' }, { contents: 'write', organization_administration: 'write' }, { workflows: 'read' }, { pull_request: 'write' }];
    for (const requested of refusedSets) {
      it(`refuses ${JSON.stringify(requested)} before any platform call (the vocabulary of TOKEN_PERMISSIONS)`, async () => {
        // No interceptor: any call would fail the test with a connection error instead of this refusal.
        const refused = await mintRepositoryToken(deps(), app(), { owner: 'o', repo: 'r' }, requested).catch((err: unknown) => err);
        assert.ok(refused instanceof MintFailed, String(refused));
        assert.match(refused.message, /^not asked of the platform: the request (names|sets) /);
        assert.ok(refused.message.includes(Object.keys(requested).at(-1)!));
      });
    }
  });

  afterEach(() => nock.abortPendingRequests());
});
