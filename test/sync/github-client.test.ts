import assert from 'node:assert/strict';
import { rateLimitedClient, RateLimitExhausted } from '../../server/github/rate-limited-client.js';
import { GITHUB_API_VERSION as API_VERSION, resourceOf } from '../../server/github/api.js';
import type { GithubTarget } from '../../server/github/targets.js';
import { SYNC_RETRY as DEFAULT_RETRY } from '../../server/http/retry.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { HttpError, TransportError } from '../../server/http/call-errors.js';
import { closedPort, listen, readBody } from '../support/servers.js';
import { FAST_RETRY } from './support.js';

const RETRY = { ...DEFAULT_RETRY, ...FAST_RETRY, retries: 2 };

/**
 * One virtual clock for the fake and the client: a sleep moves it at once (and is recorded), so a
 * reset minutes away is waited out without real waiting.
 */
function virtualClock() {
  let offset = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => Date.now() + offset,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      offset += ms;
    },
  };
}

describe('sync GitHub client: rate-limit budgets per resource, waited out within a bound', () => {
  let gh: FakeGitHubAlerts;
  let target: GithubTarget;
  let clock: ReturnType<typeof virtualClock>;

  beforeEach(async () => {
    gh = await FakeGitHubAlerts.start({ token: 'ghp_clientTest0123456789abcdefABCDEFGHIJ' });
    gh.addRepo({ owner: 'acme', name: 'api' });
    target = { server: gh.server, apiBase: gh.server, kind: 'public', owners: ['acme'], token: gh.token };
    clock = virtualClock();
    gh.now = clock.now;
  });
  afterEach(() => gh.close());

  const client = (maxRateLimitWaitMs?: number) =>
    rateLimitedClient(target, { timeoutMs: 5000, retry: RETRY, clock, ...(maxRateLimitWaitMs === undefined ? {} : { maxRateLimitWaitMs }) });

  for (const status of [403, 429] as const) {
    it(`a spent primary limit (${status}, x-ratelimit-remaining: 0) is waited out until x-ratelimit-reset, then the call is made again`, async () => {
      gh.rateLimitStatus = status;
      gh.budgets.core.remaining = 0;
      gh.budgets.core.reset = Math.floor(clock.now() / 1000) + 90;
      const { data } = await client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'api' });
      assert.equal(data.full_name, 'acme/api');
      assert.equal(gh.count('repo'), 2, 'refused once, then answered after the reset');
      assert.equal(clock.sleeps.length, 1);
      assert.ok(clock.sleeps[0]! >= 89_000 && clock.sleeps[0]! <= 92_000, `slept ${clock.sleeps[0]} ms`);
      assert.ok(gh.calls[1]!.at! >= gh.budgets.core.reset * 1000 - gh.budgets.core.windowS * 1000, 'the second call came after the reset');
    });
  }

  it('an answer saying the budget is spent holds the next call until the reset, without a refused call', async () => {
    gh.budgets.core.remaining = 1;
    gh.budgets.core.reset = Math.floor(clock.now() / 1000) + 30;
    const c = client();
    await c.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'api' });
    await c.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'api' });
    assert.equal(gh.count('repo'), 2, 'no 403 was provoked');
    assert.equal(clock.sleeps.length, 1);
  });

  it('a reset further away than the bound fails the call at once with a message naming the reset and the bound', async () => {
    gh.budgets.core.remaining = 0;
    gh.budgets.core.reset = Math.floor(clock.now() / 1000) + 3000;
    const c = client(60_000);
    await assert.rejects(c.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'api' }), (err: unknown) => {
      assert.ok(err instanceof RateLimitExhausted);
      assert.match(err.message, /rate limit exhausted until \d{4}-.*Z, later than the 60 s the sync waits for a reset; not attempted/);
      return true;
    });
    await assert.rejects(c.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'api' }), RateLimitExhausted);
    assert.equal(gh.count('repo'), 1, 'no call after the answer that said the limit was spent');
    assert.deepEqual(clock.sleeps, [], 'nothing waited');
  });

  it('a spent search budget does not hold back issue creation (budgets are per x-ratelimit-resource)', async () => {
    gh.budgets.search.remaining = 0;
    gh.budgets.search.reset = Math.floor(clock.now() / 1000) + 3000;
    const c = client(60_000);
    await assert.rejects(c.request('GET /search/issues', { q: 'repo:acme/api is:issue in:body "x"' }), (err: unknown) => err instanceof RateLimitExhausted && err.resource === 'search');
    const { data } = await c.request('POST /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'api', title: 't', body: 'b' });
    assert.equal(data.number, 1);
    await assert.rejects(c.request('GET /search/issues', { q: 'repo:acme/api is:issue in:body "x"' }), RateLimitExhausted);
    assert.equal(gh.count('search_issues'), 1);
  });

  it('names the resource of a call before its answer does', () => {
    assert.equal(resourceOf('/search/issues?q=x'), 'search');
    assert.equal(resourceOf('https://ghe.example.com/api/v3/search/issues'), 'search');
    assert.equal(resourceOf('/graphql'), 'graphql');
    assert.equal(resourceOf('/repos/acme/search/issues'), 'core');
    assert.equal(resourceOf('/repos/acme/api/issues'), 'core');
  });

  it(`every call sends X-GitHub-Api-Version: ${API_VERSION}, pages included`, async () => {
    for (let i = 0; i < 150; i++) gh.repos[0]!.issues.push({ number: i + 1, title: `t${i}`, body: '', labels: ['gatehouse'], state: 'open', html_url: `${gh.server}/acme/api/issues/${i + 1}`, indexed: true, createdAt: clock.now() });
    const c = client();
    const all = await c.paginate('GET /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'api', per_page: 100, state: 'all' });
    assert.equal(all.length, 150);
    await c.request('GET /search/issues', { q: 'repo:acme/api is:issue in:body "x"' });
    assert.equal(gh.calls.length, 3);
    assert.deepEqual(gh.calls.map((call) => call.apiVersion), [API_VERSION, API_VERSION, API_VERSION]);
  });
});

describe('sync GitHub client: redirects within GitHub only (the one factory, server/github/client.ts)', () => {
  let gh: FakeGitHubAlerts;
  let target: GithubTarget;
  let elsewhere: Awaited<ReturnType<typeof listen>>;
  const reached: string[] = [];

  beforeEach(async () => {
    gh = await FakeGitHubAlerts.start({ token: 'ghp_redirectTest0123456789abcdefABCDEFGH' });
    gh.addRepo({ owner: 'acme', name: 'api' });
    target = { server: gh.server, apiBase: gh.server, kind: 'public', owners: ['acme'], token: gh.token };
    reached.length = 0;
    elsewhere = await listen(async (req, res) => {
      reached.push(`${req.method} ${req.url} ${await readBody(req)}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ full_name: 'acme/api', number: 1 }));
    });
  });
  afterEach(async () => {
    await elsewhere.close();
    await gh.close();
  });

  const client = () => rateLimitedClient(target, { timeoutMs: 5000, retry: RETRY, clock: virtualClock() });
  const refusedRedirect = (status: number) => (err: unknown) => {
    assert.ok(err instanceof HttpError, String(err));
    assert.equal(err.status, status);
    assert.match(err.message, /answered \d{3}: a redirect to http:\/\/127\.0\.0\.1:\d+, not followed/);
    return true;
  };

  for (const status of [301, 302, 307, 308]) {
    it(`a GET answered ${status} to another host fails at once (not retried); the other host is never asked`, async () => {
      gh.faults.inject('repo', { status, headers: { location: `${elsewhere.url}/repos/acme/api` }, body: {} });
      await assert.rejects(client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'api' }), refusedRedirect(status));
      assert.deepEqual(reached, []);
      assert.equal(gh.count('repo'), 1);
    });
  }

  it('a POST answered 307, even within GitHub, is not re-sent: the issue body goes nowhere else', async () => {
    gh.faults.inject('create_issue', { status: 307, headers: { location: `${elsewhere.url}/repos/acme/api/issues` }, body: {} });
    await assert.rejects(client().request('POST /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'api', title: 't', body: 'finding details' }), refusedRedirect(307));
    gh.faults.inject('create_issue', { status: 307, headers: { location: `${gh.server}/repos/acme/api/issues` }, body: {} });
    await assert.rejects(client().request('POST /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'api', title: 't', body: 'finding details' }), (err: unknown) => err instanceof HttpError && err.status === 307);
    assert.deepEqual(reached, []);
    assert.equal(gh.count('create_issue'), 2);
    assert.equal(gh.repos[0]!.issues.length, 0);
  });

  it("a GET redirected within GitHub's own origin is followed (a renamed repository's 301 to /repositories/{id})", async () => {
    gh.moved.set('acme/old-api', gh.repos[0]!);
    const { data } = await client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'old-api' });
    assert.equal(data.full_name, 'acme/api');
    assert.equal(gh.count('repository_by_id'), 1);
  });
});

describe('sync GitHub client: a POST or PATCH is made again only when GitHub cannot have acted on it', () => {
  let gh: FakeGitHubAlerts;
  let target: GithubTarget;
  let retries: string[];

  beforeEach(async () => {
    gh = await FakeGitHubAlerts.start({ token: 'ghp_repeatTest0123456789abcdefABCDEFGHIJ' });
    gh.addRepo({ owner: 'acme', name: 'api' });
    target = { server: gh.server, apiBase: gh.server, kind: 'public', owners: ['acme'], token: gh.token };
    retries = [];
  });
  afterEach(() => gh.close());

  const client = (t = target, timeoutMs = 5000) =>
    rateLimitedClient(t, { timeoutMs, retry: { ...RETRY, retries: 2 }, clock: virtualClock(), onRetry: (operation) => retries.push(operation) });
  const create = (c = client()) => c.request('POST /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'api', title: 'High: x', body: 'b' });

  for (const [what, fault] of [
    ['a 502', { status: 502, body: { message: 'Server Error' } }],
    ['a dropped connection', 'reset'],
  ] as const) {
    it(`a POST that got ${what} is not made again (GitHub may have acted on it); a GET is`, async () => {
      gh.faults.inject('create_issue', fault);
      await assert.rejects(create(), fault === 'reset' ? TransportError : HttpError);
      assert.equal(gh.count('create_issue'), 1);
      assert.deepEqual(retries, []);
      gh.faults.inject('repo', fault);
      await client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'api' });
      assert.equal(gh.count('repo'), 2);
      assert.deepEqual(retries, ['GET /repos/{owner}/{repo}']);
    });
  }

  it('a POST that timed out is not made again', async () => {
    gh.faults.inject('create_issue', 'hang');
    await assert.rejects(create(client(target, 300)), TransportError);
    assert.equal(gh.count('create_issue'), 1);
    assert.deepEqual(retries, []);
  });

  it('a POST refused by a secondary rate limit (GitHub did not act) is made again after its Retry-After', async () => {
    gh.faults.inject('create_issue', { status: 403, headers: { 'retry-after': '1' }, body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' } });
    const { status } = await create();
    assert.equal(status, 201);
    assert.equal(gh.count('create_issue'), 2);
    assert.equal(gh.repos[0]!.issues.length, 1);
  });

  it('a POST whose connection was refused (never sent) is made again', async () => {
    const port = await closedPort();
    const nowhere = { ...target, server: `http://127.0.0.1:${port}`, apiBase: `http://127.0.0.1:${port}` };
    await assert.rejects(create(client(nowhere)), (err: unknown) => err instanceof TransportError && /ECONNREFUSED/.test(err.message));
    assert.deepEqual(retries, ['POST /repos/{owner}/{repo}/issues', 'POST /repos/{owner}/{repo}/issues']);
  });
});
