import assert from 'node:assert/strict';
import { FakeGitHubUser } from '../support/fake-github-user.js';
import { GitHubDescription } from '../support/github-openapi.js';

/**
 * The GitHub fake the console is tested against answers its REST calls as GitHub's published
 * description says, and its revocation delivery is the documented `github_app_authorization`
 * payload. (The `/login/oauth/…` endpoints are not in the REST description; the fake follows
 * GitHub's documentation for them: see test/support/fake-github-user.ts.)
 */
describe("the console's GitHub fake matches GitHub's published description", function () {
  this.timeout(60_000);
  let github: GitHubDescription;
  let fake: FakeGitHubUser;
  const mona = { id: 583231, login: 'mona', access: new Map([[11, [101, 102]], [12, [103]]]), admin: new Set([101]) };

  before(() => {
    github = new GitHubDescription();
  });
  beforeEach(async () => {
    fake = await FakeGitHubUser.start({
      clientId: 'Iv23liFake',
      clientSecret: 'fake-secret',
      callbackUrl: () => 'http://127.0.0.1:9/console/callback',
      repositories: [
        { id: 101, owner: 'octo-org', name: 'app' },
        { id: 102, owner: 'octo-org', name: 'api' },
        { id: 103, owner: 'other-org', name: 'site' },
      ],
    });
    fake.addPerson(mona);
    fake.signedIn = mona;
  });
  afterEach(() => fake.close());

  /** A user token through the fake's own web flow (no PKCE here: the console's flow is tested end to end). */
  async function userToken(): Promise<{ access_token: string; refresh_token: string }> {
    const authorize = await fetch(`${fake.url}/login/oauth/authorize?client_id=Iv23liFake&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/console/callback')}&state=s1`, { redirect: 'manual' });
    const code = new URL(authorize.headers.get('location')!).searchParams.get('code')!;
    const res = await fetch(`${fake.url}/login/oauth/access_token`, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: 'Iv23liFake', client_secret: 'fake-secret', code }) });
    return (await res.json()) as { access_token: string; refresh_token: string };
  }

  const valid = async (res: Response, path: string, status: number, what: string) => {
    assert.equal(res.status, status, what);
    github.assertValid(github.validator(path, 'get', String(status)), await res.json(), what);
  };

  it('GET /user (200, 401), GET /user/installations (200), GET /user/installations/{id}/repositories (200 with permissions, 404)', async () => {
    const { access_token } = await userToken();
    const get = (path: string, token = access_token) => fetch(`${fake.url}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json' } });
    await valid(await get('/user'), '/user', 200, 'user');
    await valid(await get('/user', 'ghu_unknown'), '/user', 401, 'bad credentials');
    await valid(await get('/user/installations'), '/user/installations', 200, 'installations');
    const repositories = await get('/user/installations/11/repositories?per_page=1');
    assert.match(repositories.headers.get('link') ?? '', /rel="next"/);
    const body = (await repositories.clone().json()) as { total_count: number; repositories: { permissions: { admin: boolean } }[] };
    assert.equal(body.total_count, 2);
    assert.equal(body.repositories[0]!.permissions.admin, true);
    await valid(repositories, '/user/installations/{installation_id}/repositories', 200, 'repositories');
    await valid(await get('/user/installations/99/repositories'), '/user/installations/{installation_id}/repositories', 404, 'another installation');
  });

  it('the github_app_authorization delivery is the documented revoked payload', () => {
    const { body, headers } = fake.revocationDelivery(mona, 'webhook-secret');
    assert.equal(headers['x-github-event'], 'github_app_authorization');
    github.assertValid(github.webhookValidator('github-app-authorization-revoked'), JSON.parse(body), 'revocation');
  });

  it('the token endpoint refuses with 200 and an error, as GitHub documents: a used code, a wrong secret, a used refresh token', async () => {
    const post = (form: Record<string, string>) =>
      fetch(`${fake.url}/login/oauth/access_token`, { method: 'POST', headers: { accept: 'application/json' }, body: new URLSearchParams(form) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const { refresh_token } = await userToken();
    const wrong = await post({ client_id: 'Iv23liFake', client_secret: 'nope', code: 'x' });
    assert.deepEqual([wrong.status, wrong.body.error], [200, 'incorrect_client_credentials']);
    const unknown = await post({ client_id: 'Iv23liFake', client_secret: 'fake-secret', code: 'never-issued' });
    assert.deepEqual([unknown.status, unknown.body.error], [200, 'bad_verification_code']);
    const refreshed = await post({ client_id: 'Iv23liFake', client_secret: 'fake-secret', grant_type: 'refresh_token', refresh_token });
    assert.equal(refreshed.body.token_type, 'bearer');
    assert.equal(refreshed.body.expires_in, 28_800);
    const again = await post({ client_id: 'Iv23liFake', client_secret: 'fake-secret', grant_type: 'refresh_token', refresh_token });
    assert.deepEqual([again.status, again.body.error], [200, 'bad_refresh_token']);
  });
});
