import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { INSTALLATION_ID, REPO, REPO_ID } from '../support/broker.js';
import { FakeGitHub } from '../support/fake-github.js';
import { GitHubDescription } from '../support/github-openapi.js';

/**
 * The calls a token's life is made of, on the GitHub fake the brokers and request-token are tested
 * against: the installation lookup and the mint (the brokers), the repositories a token sees (how
 * the tests' git server checks a token), and the revocation (request-token's post step).
 */
describe("the GitHub fake's token answers match GitHub's published REST description", function () {
  this.timeout(60_000);
  let github: GitHubDescription;
  let gh: FakeGitHub;
  let appJwt: string;

  before(() => {
    github = new GitHubDescription();
  });
  beforeEach(async () => {
    gh = await FakeGitHub.start();
    gh.addInstallation(INSTALLATION_ID, 'octo-org');
    gh.addRepo(REPO, REPO_ID, INSTALLATION_ID);
    const now = Math.floor(Date.now() / 1000);
    appJwt = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuer(gh.appId).setIssuedAt(now - 60).setExpirationTime(now + 540).sign(createPrivateKey(gh.privateKeyPem));
  });
  afterEach(() => gh.close());

  const call = (path: string, credential: string, init: RequestInit = {}) =>
    fetch(`${gh.apiBase}${path}`, { ...init, headers: { authorization: `Bearer ${credential}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', ...(init.headers ?? {}) } });

  it('installation lookup (200), mint (201), the token\'s repositories (200), revocation (204), and the revoked token refused (401)', async () => {
    const found = await call(`/repos/${REPO}/installation`, appJwt);
    assert.equal(found.status, 200);
    github.assertValid(github.validator('/repos/{owner}/{repo}/installation', 'get', '200'), await found.json(), 'installation lookup');

    const minted = await call(`/app/installations/${INSTALLATION_ID}/access_tokens`, appJwt, { method: 'POST', body: JSON.stringify({ repository_ids: [REPO_ID], permissions: { contents: 'read' } }) });
    assert.equal(minted.status, 201);
    const body = (await minted.json()) as { token: string };
    github.assertValid(github.validator('/app/installations/{installation_id}/access_tokens', 'post', '201'), body, 'mint');

    const repositories = await call('/installation/repositories', body.token);
    assert.equal(repositories.status, 200);
    github.assertValid(github.validator('/installation/repositories', 'get', '200'), await repositories.json(), "the token's repositories");

    assert.ok(github.documents('/installation/token', 'delete', '204'));
    const revoked = await call('/installation/token', body.token, { method: 'DELETE' });
    assert.equal(revoked.status, 204);
    assert.equal(await revoked.text(), '');

    const refused = await call('/installation/repositories', body.token);
    assert.equal(refused.status, 401);
    github.assertValid(github.validator('/installation/repositories', 'get', '401'), await refused.json(), 'refused');
  });

  it('keepRecords off (the benchmarks): the same answers, every call counted, no call or token kept', async () => {
    gh.keepRecords = false;
    assert.equal((await call(`/repos/${REPO}/installation`, appJwt)).status, 200);
    const minted = await call(`/app/installations/${INSTALLATION_ID}/access_tokens`, appJwt, { method: 'POST', body: JSON.stringify({ repository_ids: [REPO_ID], permissions: { contents: 'read' } }) });
    assert.equal(minted.status, 201);
    const { token } = (await minted.json()) as { token: string };
    assert.match(token, /^ghs_/);
    assert.equal((await call('/nowhere', appJwt)).status, 404);
    assert.deepEqual([gh.count('repository_installation'), gh.count('access_tokens'), gh.count()], [1, 1, 3]);
    assert.deepEqual([gh.calls.length, gh.minted.length, gh.grantOf(token)], [0, 0, undefined]);
    assert.equal((await call('/installation/repositories', token)).status, 401, 'a token not kept authenticates nothing');
  });

  it('the checks can fail: a mint answer without its token is not GitHub\'s', () => {
    assert.equal(github.validator('/app/installations/{installation_id}/access_tokens', 'post', '201')({ expires_at: '2026-01-01T00:00:00Z' }), false);
  });
});
