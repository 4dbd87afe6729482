import assert from 'node:assert/strict';
import { MAX_ENVIRONMENT_LABELS } from '../../server/metrics/backend-metrics.js';
import { startBackend, type Backend } from '../support/backend.js';
import { FakeChat } from '../support/fake-chat.js';
import { startBroker } from '../support/broker.js';
import { call } from '../support/http.js';

/** The value of one series in Prometheus text, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(',') : [];
    if (wanted.every((w) => present.includes(w)) && present.length === wanted.length) return Number(match[3]);
  }
  return 0;
}

async function scrape(backend: Backend, token?: string): Promise<string> {
  const res = await fetch(`${backend.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return res.text();
}

describe('backend GET /metrics', () => {
  let backend: Backend;
  let token: string;
  let chat: FakeChat;
  const post = (json: unknown) => call(`${backend.url}/v1/deployments`, { token, json });

  before(async () => {
    chat = await FakeChat.start();
    backend = await startBackend({ env: { LEDGER_CHAT_WEBHOOK_URL: chat.webhookUrl } });
    token = await backend.issuer.mint();
  });
  after(async () => {
    await backend.close();
    await chat.close();
  });

  it('counts recorded deployments by status and environment, duplicates and chat outcomes; never a repository label', async () => {
    await post({ delivery_id: 'm-1', environment: 'production', status: 'success' });
    await post({ delivery_id: 'm-2', environment: 'production', status: 'failure' });
    await post({ delivery_id: 'm-3', environment: 'staging', status: 'success' });
    await post({ delivery_id: 'm-1', environment: 'production', status: 'success' });
    chat.status = 500;
    await post({ delivery_id: 'm-4', environment: 'staging', status: 'rolled-back' });
    chat.status = 200;
    const text = await scrape(backend);
    assert.equal(sample(text, 'gatehouse_ledger_deployments_total', { status: 'success', environment: 'production' }), 1);
    assert.equal(sample(text, 'gatehouse_ledger_deployments_total', { status: 'failure', environment: 'production' }), 1);
    assert.equal(sample(text, 'gatehouse_ledger_deployments_total', { status: 'success', environment: 'staging' }), 1);
    assert.equal(sample(text, 'gatehouse_ledger_deployments_total', { status: 'rolled-back', environment: 'staging' }), 1);
    assert.equal(sample(text, 'gatehouse_ledger_duplicates_total'), 1);
    assert.equal(sample(text, 'gatehouse_ledger_chat_notifications_total', { outcome: 'sent' }), 3);
    assert.equal(sample(text, 'gatehouse_ledger_chat_notifications_total', { outcome: 'failed' }), 1);
    assert.ok(!text.includes('octo-org'), 'a repository name in the metrics');
    assert.ok(!/repository/.test(text.split('\n').filter((l) => !l.startsWith('#')).join('\n')), 'a repository label');
  });

  it('caps the environment label: names past the first ones count as "other"', async () => {
    for (let i = 0; i < MAX_ENVIRONMENT_LABELS + 5; i++) await post({ delivery_id: `env-${i}`, environment: `env-${i}`, status: 'success' });
    const text = await scrape(backend);
    const environments = new Set([...text.matchAll(/^gatehouse_ledger_deployments_total\{[^}]*environment="([^"]*)"/gm)].map((m) => m[1]));
    assert.equal(environments.size, MAX_ENVIRONMENT_LABELS + 1);
    assert.ok(environments.has('other'));
    assert.ok(sample(text, 'gatehouse_ledger_deployments_total', { status: 'success', environment: 'other' }) >= 5);
  });

  it('counts /token answers by outcome (the error code) and key-set fetches by result', async () => {
    const before = await scrape(backend);
    const res = await call(`${backend.url}/token`, { json: { oidc_token: 'not-a-jwt' } });
    assert.ok(res.status >= 400);
    const code = (res.body as { error: string }).error;
    // A ledger request makes the verifier fetch the issuer's key set (the first time, at least once).
    const text = await scrape(backend);
    assert.equal(sample(text, 'gatehouse_token_requests_total', { outcome: code }) - sample(before, 'gatehouse_token_requests_total', { outcome: code }), 1);
    assert.ok(sample(text, 'gatehouse_key_set_fetches_total', { result: 'ok' }) >= 1);
    assert.equal(sample(text, 'gatehouse_token_requests_total', { outcome: 'minted' }), 0);
  });

  it('times requests by method, route and status; paths no route matched share one label', async () => {
    await call(`${backend.url}/healthz`);
    await call(`${backend.url}/no/such/${'x'.repeat(20)}`);
    await call(`${backend.url}/HEALTHZ`);
    const text = await scrape(backend);
    assert.ok(sample(text, 'gatehouse_http_request_duration_seconds_count', { method: 'GET', route: '/healthz', status: '200' }) >= 2, 'the route, not the path as sent');
    assert.ok(sample(text, 'gatehouse_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' }) >= 1);
    assert.ok(sample(text, 'gatehouse_http_request_duration_seconds_count', { method: 'POST', route: '/token', status: '400' }) + sample(text, 'gatehouse_http_request_duration_seconds_count', { method: 'POST', route: '/token', status: '401' }) >= 1);
    assert.ok(!text.includes('xxxxxxxx'));
  });
});

describe('backend GET /metrics: key-set fetches', () => {
  it('counts a failed fetch (the issuer down: 503 to the caller) and an ok one', async () => {
    const backend = await startBackend();
    try {
      backend.issuer.mode = 'down';
      const refused = await call(`${backend.url}/v1/deployments`, { token: await backend.issuer.mint() });
      assert.equal(refused.status, 503);
      let text = await scrape(backend);
      assert.equal(sample(text, 'gatehouse_key_set_fetches_total', { result: 'failed' }), 1);
      assert.equal(sample(text, 'gatehouse_key_set_fetches_total', { result: 'ok' }), 0);
      backend.issuer.mode = 'ok';
      // At most one fetch a second per issuer: the next one is allowed after that.
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal((await call(`${backend.url}/v1/deployments`, { token: await backend.issuer.mint() })).status, 200);
      text = await scrape(backend);
      assert.equal(sample(text, 'gatehouse_key_set_fetches_total', { result: 'ok' }), 1);
    } finally {
      await backend.close();
    }
  });
});

describe('backend GET /metrics with METRICS_TOKEN', () => {
  let backend: Backend;
  before(async () => {
    backend = await startBackend({ env: { METRICS_TOKEN: 'scrape-secret-123' } });
  });
  after(() => backend.close());

  it('needs the bearer: 401 without it or with another, 200 with it', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic c2NyYXBlLXNlY3JldC0xMjM=' }] as Record<string, string>[]) {
      const res = await call(`${backend.url}/metrics`, { headers });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'unauthorized' });
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    }
    assert.match(await scrape(backend, 'scrape-secret-123'), /gatehouse_ledger_duplicates_total 0/);
    assert.ok(!JSON.stringify(backend.logs.lines()).includes('scrape-secret-123'), 'the token in a log line');
  });

  it('applies a changed METRICS_TOKEN to the next scrape', async () => {
    backend.env.METRICS_TOKEN = 'rotated-token-456';
    await new Promise((r) => setTimeout(r, 10));
    assert.equal((await call(`${backend.url}/metrics`, { headers: { authorization: 'Bearer scrape-secret-123' } })).status, 401);
    await scrape(backend, 'rotated-token-456');
  });
});

describe('backend GET /metrics: /token outcomes of a working broker', () => {
  it('counts minted tokens and each refusal under its error code', async () => {
    const h = await startBroker();
    try {
      const ok = await h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' });
      assert.equal(ok.status, 200, ok.text);
      const mismatch = await h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'elsewhere' });
      assert.equal(mismatch.status, 403);
      const text = await scrape(h.backend);
      assert.equal(sample(text, 'gatehouse_token_requests_total', { outcome: 'minted' }), 1);
      assert.equal(sample(text, 'gatehouse_token_requests_total', { outcome: (mismatch.body as { error: string }).error }), 1);
      assert.ok(!text.includes('octo-repo'));
    } finally {
      await h.close();
    }
  });
});
