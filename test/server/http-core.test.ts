import assert from 'node:assert/strict';
import { StoreUnavailable } from '../../server/store/types.js';
import { startBackend, type Backend } from '../support/backend.js';
import { call } from '../support/http.js';

describe('HTTP core', () => {
  let backend: Backend;

  before(async () => {
    backend = await startBackend();
  });
  after(() => backend.close());

  it('GET /healthz: 200 with status, service and the package version; no auth', async () => {
    const res = await call(`${backend.url}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', service: 'gatehouse', version: '0.0.0-test' });
  });

  it('/healthz reads nothing from the store', async () => {
    const failing = await startBackend({
      store: {
        kind: 'memory',
        deployments: new Proxy({} as never, {
          get: () => () => Promise.reject(new Error('store must not be read')),
        }),
        keyValues: new Proxy({} as never, {
          get: () => () => Promise.reject(new Error('store must not be read')),
        }),
        sessions: new Proxy({} as never, {
          get: () => () => Promise.reject(new Error('store must not be read')),
        }),
        tokenAudit: new Proxy({} as never, {
          get: () => () => Promise.reject(new Error('store must not be read')),
        }),
        close: async () => {},
      },
    });
    try {
      assert.equal((await call(`${failing.url}/healthz`)).status, 200);
    } finally {
      await failing.close();
    }
  });

  it('unknown path: 404 not_found in JSON', async () => {
    for (const path of ['/', '/v2/deployments', '/healthz/extra', '/v1/deployments/abc']) {
      const res = await call(`${backend.url}${path}`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { error: 'not_found' });
    }
  });

  it('known path, wrong method: 405 method_not_allowed with Allow', async () => {
    for (const [path, method, allow] of [
      ['/healthz', 'POST', 'GET, HEAD'],
      ['/v1/deployments', 'DELETE', 'POST, GET, HEAD'],
      ['/v1/deployments', 'PUT', 'POST, GET, HEAD'],
    ] as const) {
      const res = await call(`${backend.url}${path}`, { method });
      assert.equal(res.status, 405);
      assert.deepEqual(res.body, { error: 'method_not_allowed' });
      assert.equal(res.headers.get('allow'), allow);
    }
  });

  it('a compressed body is refused (415) so the size limit bounds what is parsed', async () => {
    const res = await call(`${backend.url}/v1/deployments`, {
      token: await backend.issuer.mint(),
      raw: Buffer.from([0x1f, 0x8b]),
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(res.status, 415);
    assert.deepEqual(res.body, { error: 'unsupported_media_type' });
  });

  it('a malformed path is still a JSON answer', async () => {
    const bad = await call(`${backend.url}/%E0%A4%A`);
    assert.equal(bad.status, 404);
    assert.deepEqual(bad.body, { error: 'not_found' });
  });

  it('every answer carries a request id (a sane incoming one is kept) and is not cacheable', async () => {
    const own = await call(`${backend.url}/healthz`, { headers: { 'x-request-id': 'deploy-42.a_b' } });
    assert.equal(own.headers.get('x-request-id'), 'deploy-42.a_b');
    const odd = await call(`${backend.url}/healthz`, { headers: { 'x-request-id': 'no spaces please' } });
    assert.match(odd.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(odd.headers.get('cache-control'), 'no-store');
    assert.equal(odd.headers.get('x-powered-by'), null);
  });

  it('logs one structured line per request with its id, method, path and status', async () => {
    await call(`${backend.url}/healthz?probe=1`, { headers: { 'x-request-id': 'log-line-check' } });
    const line = backend.logs.lines().find((l) => (l.req as { id?: string } | undefined)?.id === 'log-line-check');
    assert.ok(line, 'no request log line');
    assert.deepEqual(line.req, { id: 'log-line-check', method: 'GET', path: '/healthz' });
    assert.deepEqual(line.res, { statusCode: 200 });
    assert.equal(line.level, 'info');
  });

  it('a store outage answers 503 store_unavailable, retryable', async () => {
    const down = await startBackend({
      store: {
        kind: 'memory',
        deployments: {
          insert: () => Promise.reject(new StoreUnavailable()),
          setNotified: () => Promise.reject(new StoreUnavailable()),
          list: () => Promise.reject(new StoreUnavailable()),
          figures: () => Promise.reject(new StoreUnavailable()),
          groupedFigures: () => Promise.reject(new StoreUnavailable()),
          environments: () => Promise.reject(new StoreUnavailable()),
        },
        keyValues: {
          get: () => Promise.reject(new StoreUnavailable()),
          put: () => Promise.reject(new StoreUnavailable()),
          claim: () => Promise.reject(new StoreUnavailable()),
        },
        sessions: {
          create: () => Promise.reject(new StoreUnavailable()),
          get: () => Promise.reject(new StoreUnavailable()),
          replaceCredentials: () => Promise.reject(new StoreUnavailable()),
          cacheRepositories: () => Promise.reject(new StoreUnavailable()),
          end: () => Promise.reject(new StoreUnavailable()),
          endForUser: () => Promise.reject(new StoreUnavailable()),
        },
        tokenAudit: {
          insert: () => Promise.reject(new StoreUnavailable()),
          list: () => Promise.reject(new StoreUnavailable()),
        },
        close: async () => {},
      },
    });
    try {
      const token = await down.issuer.mint();
      const post = await call(`${down.url}/v1/deployments`, { token, json: { delivery_id: 'x', environment: 'e', status: 'success' } });
      assert.equal(post.status, 503);
      assert.deepEqual(post.body, { error: 'store_unavailable' });
      const get = await call(`${down.url}/v1/deployments`, { token, headers: { 'x-request-id': 'outage-get' } });
      assert.equal(get.status, 503);
      const lines = down.logs.lines().filter((l) => (l.req as { id?: string } | undefined)?.id === 'outage-get');
      assert.equal(lines.length, 1, 'one log line per failed request');
      assert.equal((lines[0]!.err as { type?: string }).type, 'StoreUnavailable');
      assert.equal(lines[0]!.level, 'error');
    } finally {
      await down.close();
    }
  });
});
