import assert from 'node:assert/strict';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { GitHubDescription } from '../support/github-openapi.js';

describe("the GitHub fake's issue-push answers match GitHub's published REST description", function () {
  this.timeout(60_000);
  let github: GitHubDescription;
  let gh: FakeGitHubAlerts;

  before(() => {
    github = new GitHubDescription();
  });
  beforeEach(async () => {
    gh = await FakeGitHubAlerts.start({ token: 'ghp_shapeTest0123456789abcdefABCDEFGHIJK' });
    gh.addRepo({ owner: 'acme', name: 'api' });
  });
  afterEach(() => gh.close());

  const validator = (path: string, method: string, status: string) => github.validator(path, method, status);

  function call(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${gh.server}${path}`, { ...init, headers: { authorization: `Bearer ${gh.token}`, 'x-github-api-version': '2022-11-28', 'content-type': 'application/json', ...(init.headers ?? {}) } });
  }

  const assertValid = (validate: ReturnType<typeof validator>, body: unknown, what: string) => github.assertValid(validate, body, what);

  function assertRateHeaders(res: Response, resource: string): void {
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-used']) assert.match(res.headers.get(name) ?? '', /^\d+$/, name);
    assert.equal(res.headers.get('x-ratelimit-resource'), resource);
  }

  it('issue creation (201, with Location), the issue list and issue search', async () => {
    const created = await call('/repos/acme/api/issues', { method: 'POST', body: JSON.stringify({ title: 'High: x', body: 'Gatehouse finding: `0`', labels: ['gatehouse'] }) });
    assert.equal(created.status, 201);
    assert.ok(created.headers.get('location'));
    assertRateHeaders(created, 'core');
    assertValid(validator('/repos/{owner}/{repo}/issues', 'post', '201'), await created.json(), 'create an issue');

    const listed = await call('/repos/acme/api/issues?state=all&labels=gatehouse');
    assertValid(validator('/repos/{owner}/{repo}/issues', 'get', '200'), await listed.json(), 'list issues');

    gh.indexSearch();
    const searched = await call(`/search/issues?q=${encodeURIComponent('repo:acme/api is:issue in:body "0"')}`);
    assertRateHeaders(searched, 'search');
    const body = (await searched.json()) as { items: unknown[] };
    assert.equal(body.items.length, 1);
    assertValid(validator('/search/issues', 'get', '200'), body, 'search issues');
  });

  it('issue lifecycle: one issue, its update (close with state_reason, reopen), a comment, and 304 to a matching If-None-Match', async () => {
    const created = await call('/repos/acme/api/issues', { method: 'POST', body: JSON.stringify({ title: 'High: x', body: 'b', labels: ['gatehouse'] }) });
    const { number } = (await created.json()) as { number: number };
    const one = await call(`/repos/acme/api/issues/${number}`);
    assert.equal(one.status, 200);
    const etag = one.headers.get('etag');
    assert.ok(etag);
    assertValid(validator('/repos/{owner}/{repo}/issues/{issue_number}', 'get', '200'), await one.json(), 'get an issue');
    const unchanged = await call(`/repos/acme/api/issues/${number}`, { headers: { 'if-none-match': etag } });
    assert.equal(unchanged.status, 304);
    assert.equal(await unchanged.text(), '');
    const comment = await call(`/repos/acme/api/issues/${number}/comments`, { method: 'POST', body: JSON.stringify({ body: 'Closed by Gatehouse' }) });
    assert.equal(comment.status, 201);
    assertValid(validator('/repos/{owner}/{repo}/issues/{issue_number}/comments', 'post', '201'), await comment.json(), 'comment');
    const comments = await call(`/repos/acme/api/issues/${number}/comments?per_page=100`);
    assert.equal(comments.status, 200);
    const listed = (await comments.json()) as { body: string }[];
    assertValid(validator('/repos/{owner}/{repo}/issues/{issue_number}/comments', 'get', '200'), listed, 'comment list');
    assert.deepEqual(listed.map((c) => c.body), ['Closed by Gatehouse']);
    const closed = await call(`/repos/acme/api/issues/${number}`, { method: 'PATCH', body: JSON.stringify({ state: 'closed', state_reason: 'not_planned' }) });
    const closedBody = (await closed.json()) as { state: string; state_reason: string; closed_at: string };
    assertValid(validator('/repos/{owner}/{repo}/issues/{issue_number}', 'patch', '200'), closedBody, 'close');
    assert.deepEqual([closedBody.state, closedBody.state_reason], ['closed', 'not_planned']);
    assert.match(closedBody.closed_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal((await call(`/repos/acme/api/issues/${number}`, { headers: { 'if-none-match': etag } })).status, 200, 'changed: answered in full');
    const reopened = (await (await call(`/repos/acme/api/issues/${number}`, { method: 'PATCH', body: JSON.stringify({ state: 'open' }) })).json()) as { state: string; state_reason: string; closed_at: null };
    assert.deepEqual([reopened.state, reopened.state_reason, reopened.closed_at], ['open', 'reopened', null]);
    const invalid = await call(`/repos/acme/api/issues/${number}`, { method: 'PATCH', body: JSON.stringify({ state: 'closed', state_reason: 'wontfix' }) });
    assert.equal(invalid.status, 422);
    assertValid(validator('/repos/{owner}/{repo}/issues/{issue_number}', 'patch', '422'), await invalid.json(), 'refused update');
  });

  for (const status of [403, 429] as const) {
    it(`a spent primary limit answers ${status} with a basic error and x-ratelimit-remaining: 0, per resource`, async () => {
      gh.rateLimitStatus = status;
      gh.budgets.search.remaining = 0;
      const searched = await call(`/search/issues?q=${encodeURIComponent('repo:acme/api is:issue')}`);
      assert.equal(searched.status, status);
      assertRateHeaders(searched, 'search');
      assert.equal(searched.headers.get('x-ratelimit-remaining'), '0');
      assertValid(validator('/search/issues', 'get', '403'), await searched.json(), 'search refused');
      // The core budget is untouched by the spent search budget.
      const created = await call('/repos/acme/api/issues', { method: 'POST', body: JSON.stringify({ title: 't' }) });
      assert.equal(created.status, 201);
      gh.budgets.core.remaining = 0;
      const refused = await call('/repos/acme/api/issues', { method: 'POST', body: JSON.stringify({ title: 't' }) });
      assert.equal(refused.status, status);
      assertRateHeaders(refused, 'core');
      assertValid(validator('/repos/{owner}/{repo}/issues', 'post', '403'), await refused.json(), 'creation refused');
    });
  }

  it('checks what it claims to: a wrong shape is refused', () => {
    assert.equal(validator('/repos/{owner}/{repo}/issues', 'post', '201')({ number: 1, title: 't' }), false);
    assert.equal(validator('/search/issues', 'get', '200')({ total_count: 0, incomplete_results: false, items: [] }), false, 'search_type is required');
  });
});
