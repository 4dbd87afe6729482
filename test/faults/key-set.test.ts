import assert from 'node:assert/strict';
import { KeySetRegistry, type KeySetOptions } from '../../server/auth/key-sets.js';
import { SNAPSHOT_LIFETIME_MS } from '../../server/broker/key-set-snapshots.js';
import { createMinimalApp } from '../../server/minimal/app.js';
import { createMemoryStore } from '../../server/store/memory.js';
import { createMongoStore } from '../../server/store/mongo.js';
import { manualClock, startBackend } from '../support/backend.js';
import { BROKER_AUDIENCE, startBroker, type BrokerHarness } from '../support/broker.js';
import { call, type JsonAnswer } from '../support/http.js';
import { capturedLogger } from '../support/log-capture.js';
import { closedPort, listen, type Listening } from '../support/servers.js';
import { TestIssuer, type IssuerMode } from '../support/oidc-issuer.js';
import { FlakyStore, timed } from './support.js';

/** Short key-set fetch bound for these tests; the default (3 s) gets its own test. */
const FETCH_TIMEOUT_MS = 300;
/** Slack over the fetch bound for the rest of a request on a loaded 2-core machine. */
const SLACK_MS = 1500;

const record = { delivery_id: 'jwks-outage', environment: 'production', status: 'success' };

/** The backend (ledger and broker) and a minimal broker, sharing one test issuer and one fake GitHub. */
interface Services {
  readonly h: BrokerHarness;
  readonly minimal: Listening;
  readonly minimalLogs: ReturnType<typeof capturedLogger>;
  close(): Promise<void>;
}

async function startServices(keySets?: KeySetOptions): Promise<Services> {
  const h = await startBroker(keySets ? { keySets } : {});
  const env = { OIDC_ISSUER: h.issuer.url, FORGE_API_BASE: h.github.apiBase, FORGE_APP_ID: h.github.appId, FORGE_APP_PRIVATE_KEY: h.github.privateKeyPem };
  const minimalLogs = capturedLogger();
  const minimal = await listen(
    createMinimalApp({ env: () => env, logger: minimalLogs.logger, version: 'test', ...(keySets ? { keySets: new KeySetRegistry(keySets) } : {}) }),
  );
  return {
    h,
    minimal,
    minimalLogs,
    close: async () => {
      await minimal.close();
      await h.close();
    },
  };
}

type Service = 'ledger' | 'broker' | 'minimal';

async function request(s: Services, service: Service, oidcOverrides: Record<string, unknown> = {}): Promise<JsonAnswer> {
  if (service === 'ledger') return call(`${s.h.backend.url}/v1/deployments`, { token: await s.h.issuer.mint(oidcOverrides), json: record });
  const body = { oidcToken: await s.h.issuer.mint({ aud: BROKER_AUDIENCE, ...oidcOverrides }), owner: 'octo-org', repo: 'octo-repo' };
  return call(`${service === 'broker' ? s.h.backend.url : s.minimal.url}/token`, { json: body });
}

/** The spec's answer when the key set cannot be fetched, per service. */
const UNAVAILABLE: Record<Service, { body: Record<string, unknown>; retryAfter: string | null }> = {
  ledger: { body: { error: 'jwks_unavailable' }, retryAfter: '5' },
  broker: { body: { error: 'oidc_key_fetch_failed', reason: 'jwks_unavailable' }, retryAfter: '5' },
  minimal: { body: { error: 'jwks_unavailable' }, retryAfter: '5' },
};

describe('faults: the issuer key endpoint down, hanging, stalling its body or answering garbage', () => {
  let s: Services;
  afterEach(() => s?.close());

  for (const service of ['ledger', 'broker', 'minimal'] as const) {
    for (const mode of ['down', 'hang', 'stall-body', 'garbage'] as const satisfies readonly IssuerMode[]) {
      it(`${service}: key endpoint ${mode} → 503 ${JSON.stringify(UNAVAILABLE[service].body)} within the fetch bound`, async () => {
        s = await startServices({ timeoutMs: FETCH_TIMEOUT_MS });
        s.h.issuer.mode = mode;
        const { value: res, ms } = await timed(() => request(s, service));
        assert.deepEqual([res.status, res.body], [503, UNAVAILABLE[service].body]);
        assert.equal(res.headers.get('retry-after'), UNAVAILABLE[service].retryAfter);
        assert.ok(ms < FETCH_TIMEOUT_MS + SLACK_MS, `answered after ${Math.round(ms)} ms`);
        assert.equal(s.h.issuer.jwksFetches, 1);
        if (service === 'ledger') {
          // No verdict, so nothing was recorded.
          const stored = await s.h.backend.store.deployments.list({ repositoryId: '123456789', limit: 10, now: new Date() });
          assert.equal(stored.length, 0);
        }
        if (service === 'minimal') {
          // One line, the outcome and only the exception's class: never the issuer's URL or body.
          const lines = s.minimalLogs.lines().filter((l) => 'outcome' in l);
          assert.equal(lines.length, 1);
          assert.equal(lines[0]!.outcome, 'jwks_unavailable');
          assert.match(String(lines[0]!.exception), /^[A-Za-z]+$/);
          assert.ok(!s.minimalLogs.text().includes(s.h.issuer.url));
        }
      });
    }
  }

  it('with the default settings a hanging key endpoint is cut off by the 3 s fetch timeout, in every service', async () => {
    s = await startServices();
    s.h.issuer.mode = 'hang';
    const answers = await Promise.all((['ledger', 'broker', 'minimal'] as const).map((service) => timed(() => request(s, service)).then((t) => ({ service, ...t }))));
    for (const { service, value, ms } of answers) {
      assert.deepEqual([value.status, value.body], [503, UNAVAILABLE[service].body], service);
      assert.ok(ms < 3000 + SLACK_MS, `${service} answered after ${Math.round(ms)} ms`);
    }
  });

  it('concurrent requests while the endpoint hangs share one fetch; after it failed they fail fast; once it is back they pass', async () => {
    s = await startServices({ timeoutMs: FETCH_TIMEOUT_MS, refetchIntervalMs: 1000 });
    s.h.issuer.mode = 'hang';
    const storm = await timed(() => Promise.all(Array.from({ length: 20 }, () => request(s, 'broker'))));
    assert.ok(storm.value.every((r) => r.status === 503 && r.body.error === 'oidc_key_fetch_failed'));
    assert.equal(s.h.issuer.jwksFetches, 1, 'one fetch for the whole storm');
    assert.ok(storm.ms < FETCH_TIMEOUT_MS + SLACK_MS * 2, `storm answered after ${Math.round(storm.ms)} ms`);

    // Within the back-off no request waits on the endpoint again.
    const fast = await timed(() => request(s, 'ledger'));
    assert.deepEqual([fast.value.status, fast.value.body], [503, { error: 'jwks_unavailable' }]);
    assert.ok(fast.ms < FETCH_TIMEOUT_MS, `took ${Math.round(fast.ms)} ms: it waited on the endpoint`);
    assert.equal(s.h.issuer.jwksFetches, 1);

    // Recovery needs no restart.
    s.h.issuer.mode = 'ok';
    await new Promise((r) => setTimeout(r, 1050));
    assert.equal((await request(s, 'broker')).status, 200);
    assert.equal((await request(s, 'ledger')).status, 201);
    assert.equal(s.h.issuer.jwksFetches, 2);
  });
});

describe('key rotation: a new key id is fetched, never refused from a stale cache (ledger, broker, minimal broker)', () => {
  let s: Services;
  afterEach(() => s?.close());

  /** Verified and answered (the ledger's later posts of the one record are duplicates: 200). */
  const ok = (res: JsonAnswer) => res.status === 200 || res.status === 201;

  for (const service of ['ledger', 'broker', 'minimal'] as const) {
    it(`${service}: right after a fetch a rotated key is 503 with Retry-After 1 (not 401); a second later it verifies`, async () => {
      s = await startServices({ timeoutMs: FETCH_TIMEOUT_MS });
      // Made before the first fetch: generating an RSA key on a loaded machine can outlast the 1 s cooldown.
      const next = await TestIssuer.strayKey();
      assert.ok(ok(await request(s, service)));
      await s.h.issuer.rotate(next);
      const early = await request(s, service);
      assert.deepEqual([early.status, early.body], [503, UNAVAILABLE[service].body]);
      assert.equal(early.headers.get('retry-after'), '1');
      await new Promise((r) => setTimeout(r, 1050));
      const later = await request(s, service);
      assert.ok(ok(later), JSON.stringify(later.body));
      assert.equal(s.h.issuer.jwksFetches, 2, 'one refetch for the new key');
    });

    it(`${service}: a new key id while the key endpoint is down is 503, not 401`, async () => {
      s = await startServices({ timeoutMs: FETCH_TIMEOUT_MS, refetchIntervalMs: 0 });
      assert.ok(ok(await request(s, service)));
      await s.h.issuer.rotate();
      s.h.issuer.mode = 'down';
      const res = await request(s, service);
      assert.deepEqual([res.status, res.body], [503, UNAVAILABLE[service].body]);
    });
  }
});

describe('key rotation under a flood of made-up key ids (main broker)', () => {
  it('costs about one key-set fetch a second and no store read, and real tokens keep verifying', async () => {
    const store = new FlakyStore();
    const h = await startBroker({ store, keySets: { timeoutMs: FETCH_TIMEOUT_MS } });
    try {
      assert.equal((await h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' })).status, 200);
      const readsBefore = store.calls.get;
      const stray = await TestIssuer.strayKey();
      const started = Date.now();
      const answers: number[] = [];
      while (Date.now() - started < 2500) {
        const forged = await h.issuer.mint({ aud: BROKER_AUDIENCE }, { signWith: stray, kid: `made-up-${answers.length}` });
        const res = await h.token({ oidcToken: forged, owner: 'octo-org', repo: 'octo-repo' });
        answers.push(res.status);
      }
      assert.ok(answers.length > 20, `only ${answers.length} requests`);
      assert.ok(answers.every((st) => st === 401 || st === 503), answers.join(','));
      assert.ok(h.issuer.jwksFetches <= 1 + 4, `${h.issuer.jwksFetches} fetches in 2.5 s`);
      assert.equal(store.calls.get, readsBefore, 'no snapshot read while the issuer answers');
      assert.equal((await h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' })).status, 200);
    } finally {
      await h.close();
    }
  });
});

describe('faults: key sets kept through an outage of the key endpoint', () => {
  let s: Services;
  afterEach(() => s?.close());

  it('main broker: a snapshot saved while the issuer was up verifies tokens in the same process once its cache has expired and the endpoint hangs', async () => {
    s = await startServices({ timeoutMs: FETCH_TIMEOUT_MS, cacheMaxAgeMs: 200 });
    assert.equal((await request(s, 'broker')).status, 200);
    assert.ok(await s.h.backend.store.keyValues.get('jwks-snapshot', s.h.issuer.url, new Date()), 'snapshot written');

    s.h.issuer.mode = 'hang';
    await new Promise((r) => setTimeout(r, 1050)); // the cached key set is too old to use, and a refetch is allowed
    const rescued = await timed(() => request(s, 'broker'));
    assert.equal(rescued.value.status, 200, JSON.stringify(rescued.value.body));
    assert.ok(rescued.ms < FETCH_TIMEOUT_MS + SLACK_MS);
    assert.equal(s.h.issuer.jwksFetches, 2);
    assert.ok(s.h.backend.logs.lines().some((l) => l.msg === 'key set unreachable; verified against the last-known-good snapshot'));

    // During the back-off the snapshot serves without another wait on the endpoint.
    const next = await timed(() => request(s, 'broker'));
    assert.equal(next.value.status, 200);
    assert.equal(s.h.issuer.jwksFetches, 2);

    // The snapshot is the broker's alone: the ledger has no such fallback and says so.
    assert.deepEqual((await request(s, 'ledger')).body, { error: 'jwks_unavailable' });
  });

  it('main broker: a snapshot older than its 7-day lifetime rescues nothing (503, not a stale verdict)', async () => {
    const clock = manualClock();
    const store = createMemoryStore();
    const h = await startBroker({ store, clock, keySets: { timeoutMs: FETCH_TIMEOUT_MS } });
    // Minted tokens must outlive the clock's jumps, or the mint rule (10 minutes left) would refuse them.
    h.github.tokenLifetimeMs = 30 * 86_400_000;
    const body = async () => ({ oidcToken: await h.oidc({}, { nowMs: clock.now() }), owner: 'octo-org', repo: 'octo-repo' });
    try {
      assert.equal((await h.token(await body())).status, 200);
      h.issuer.mode = 'down';
      // A replica with an empty key-set cache, sharing the store and the clock.
      const replica = await startBackend({ issuer: h.issuer, store, clock, env: { ...h.backend.env }, keySets: { timeoutMs: FETCH_TIMEOUT_MS } });
      try {
        clock.advance(SNAPSHOT_LIFETIME_MS - 60_000);
        const young = await call(`${replica.url}/token`, { json: await body() });
        assert.equal(young.status, 200, 'a snapshot within its lifetime rescues');
        clock.advance(120_000);
        const old = await call(`${replica.url}/token`, { json: await body() });
        assert.deepEqual([old.status, old.body], [503, { error: 'oidc_key_fetch_failed', reason: 'jwks_unavailable' }]);
      } finally {
        await replica.close();
      }
    } finally {
      await h.close();
    }
  });

  it('main broker with MongoDB unreachable too: the snapshot cannot be read, so 503 (no crash, no 401)', async () => {
    const store = createMongoStore(`mongodb://127.0.0.1:${await closedPort()}/gatehouse`, { serverSelectionTimeoutMs: 200 });
    const h = await startBroker({ store, keySets: { timeoutMs: FETCH_TIMEOUT_MS } });
    try {
      h.issuer.mode = 'hang';
      const { value: res, ms } = await timed(async () => h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' }));
      assert.deepEqual([res.status, res.body], [503, { error: 'oidc_key_fetch_failed', reason: 'jwks_unavailable' }]);
      assert.ok(ms < FETCH_TIMEOUT_MS + 200 + SLACK_MS, `answered after ${Math.round(ms)} ms`);
      assert.ok(h.backend.logs.lines().some((l) => l.msg === 'key-set snapshot unreadable'));
    } finally {
      await h.close();
    }
  });

  it('minimal broker (no store, no snapshot): keys it already fetched keep verifying through the outage; a key it has not seen is 503, not 401', async () => {
    s = await startServices({ timeoutMs: FETCH_TIMEOUT_MS, refetchIntervalMs: 0 });
    assert.equal((await request(s, 'minimal')).status, 200);
    s.h.issuer.mode = 'down';
    assert.equal((await request(s, 'minimal')).status, 200, 'cached keys still verify');
    assert.equal(s.h.issuer.jwksFetches, 1, 'no fetch for a known key');

    await s.h.issuer.rotate(); // new tokens carry a kid the cache has not seen: a refetch is due, and fails
    const unknown = await request(s, 'minimal');
    assert.deepEqual([unknown.status, unknown.body], [503, { error: 'jwks_unavailable' }]);
    assert.equal(s.h.issuer.jwksFetches, 2);
  });
});
