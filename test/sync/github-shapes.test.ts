import assert from 'node:assert/strict';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { codeScanningAlert, dependabotAlert, secretScanningAlert } from '../support/github-alert-objects.js';
import { GitHubDescription } from '../support/github-openapi.js';
import { readFixture } from '../support/fixtures.js';

describe("the GitHub alerts fake's answers (the alert lists, issue push) match GitHub's published REST description", function () {
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

  it("the alert lists the sync reads, as the tests build them (github-alert-objects.ts): code scanning, Dependabot, secret scanning (hidden, and a server that ignores hide_secret)", async () => {
    const place = { api: `${gh.server}`, owner: 'acme', repo: 'api' };
    const [example] = readFixture<Record<string, any>[]>('sync', 'github__dependabot_alerts_rest_example.json');
    gh.repos[0]!.codeScanning = [
      codeScanningAlert(place, { number: 1, rule: 'js/sql-injection', path: 'src/db.js', line: 10 }),
      codeScanningAlert(place, { number: 2, rule: 'js/unused-local-variable', severity: 'note', securitySeverity: null, path: 'src/a.js', line: 3 }),
      codeScanningAlert(place, { number: 3, rule: 'js/xss', path: 'src/b.js', line: 7, state: 'dismissed' }),
      codeScanningAlert(place, { number: 4, rule: 'js/xss', path: 'src/c.js', line: 9, state: 'fixed' }),
    ];
    gh.repos[0]!.dependabot = [dependabotAlert(place, example!, { number: 1, manifestPath: 'a/requirements.txt' }), dependabotAlert(place, example!, { number: 2, state: 'dismissed' }), dependabotAlert(place, example!, { number: 3, state: 'fixed' })];
    gh.repos[0]!.secretScanning = [secretScanningAlert(place, { number: 1, validity: 'active' }), secretScanningAlert(place, { number: 2, state: 'resolved' })];
    const lists = [
      ['/repos/{owner}/{repo}/code-scanning/alerts', '/repos/acme/api/code-scanning/alerts?per_page=100', 4],
      ['/repos/{owner}/{repo}/dependabot/alerts', '/repos/acme/api/dependabot/alerts?per_page=100', 3],
      ['/repos/{owner}/{repo}/secret-scanning/alerts', '/repos/acme/api/secret-scanning/alerts?hide_secret=true&per_page=100', 2],
    ] as const;
    for (const [path, url, count] of lists) {
      const res = await call(url);
      assert.equal(res.status, 200, url);
      const body = (await res.json()) as unknown[];
      assert.equal(body.length, count);
      assertValid(validator(path, 'get', '200'), body, path);
    }
    gh.ignoresHideSecret = true;
    const leaking = (await (await call('/repos/acme/api/secret-scanning/alerts?hide_secret=true')).json()) as { secret?: string }[];
    assert.equal(leaking[0]!.secret, FakeGitHubAlerts.LEAKED_SECRET);
    assertValid(validator('/repos/{owner}/{repo}/secret-scanning/alerts', 'get', '200'), leaking, 'secret scanning with the secret');
  });

  it("refuses DefectDojo's parser samples as GitHub answers: their nulls are the string \"None\", their times and users not GitHub's", () => {
    const sast = readFixture<unknown[]>('sync', 'dd__github_sast_many_vul.json');
    const validate = validator('/repos/{owner}/{repo}/code-scanning/alerts', 'get', '200');
    assert.equal(validate(sast), false);
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath.replace(/^\/\d+/, '')} ${e.keyword}`);
    for (const expected of ['/fixed_at format', '/dismissed_at format', '/dismissed_by type', '/dismissed_reason enum']) assert.ok(problems.includes(expected), `${expected} in ${problems.join(', ')}`);
  });

  it('checks what it claims to: a wrong shape is refused', () => {
    assert.equal(validator('/repos/{owner}/{repo}/issues', 'post', '201')({ number: 1, title: 't' }), false);
    assert.equal(validator('/search/issues', 'get', '200')({ total_count: 0, incomplete_results: false, items: [] }), false, 'search_type is required');
  });
});
