import assert from 'node:assert/strict';
import { hashedToken } from '../../server/audit/record.js';
import { randomUUID } from 'node:crypto';
import { createMongoStore } from '../../server/store/mongo.js';
import type { DeploymentRecord } from '../../server/store/types.js';
import { startBackend, type Backend } from '../support/backend.js';
import { hubSignature, pushPayload, REPO, startBroker, type BrokerHarness } from '../support/broker.js';
import { FakeChat } from '../support/fake-chat.js';
import { call, type JsonAnswer } from '../support/http.js';
import { DEFAULT_AUDIENCE, TestIssuer } from '../support/oidc-issuer.js';
import { startEntry } from '../support/processes.js';
import { closedPort } from '../support/servers.js';
import { eventually, FlakyStore, realDriverFailure, timed } from './support.js';

const STORE_UNAVAILABLE = [503, { error: 'store_unavailable' }];
/** Server selection bound for the real driver in these tests (the default is 5 s). */
const SELECTION_MS = 200;

type Recorded = { deployment_id: string; duplicate: boolean; notified: Record<string, boolean> };

const deployment = (deliveryId: string) => ({ delivery_id: deliveryId, environment: 'production', status: 'success' });

describe('faults: MongoDB unreachable from the start (the real driver, a closed loopback port)', () => {
  let h: BrokerHarness;
  let chat: FakeChat;

  before(async () => {
    chat = await FakeChat.start();
    const store = createMongoStore(`mongodb://127.0.0.1:${await closedPort()}/gatehouse`, { serverSelectionTimeoutMs: SELECTION_MS });
    h = await startBroker({ store, env: { LEDGER_CHAT_WEBHOOK_URL: chat.webhookUrl, AUTO_UPDATE_BRANCHES: 'true' } });
  });
  after(async () => {
    await h.close();
    await chat.close();
  });

  it('/healthz answers 200 at once: it never touches the store', async () => {
    const { value: res, ms } = await timed(() => call(`${h.backend.url}/healthz`));
    assert.deepEqual([res.status, res.body.status], [200, 'ok']);
    assert.ok(ms < SELECTION_MS, `took ${Math.round(ms)} ms: it waited on the store`);
  });

  it('a deployment write answers 503 store_unavailable with Retry-After, and notifies nobody', async () => {
    const res = await call(`${h.backend.url}/v1/deployments`, { token: await h.issuer.mint(), json: deployment('mongo-down') });
    assert.deepEqual([res.status, res.body], STORE_UNAVAILABLE);
    assert.equal(res.headers.get('retry-after'), '2');
    assert.equal(chat.messages.length, 0, 'nothing recorded, so nothing announced');
  });

  it('the history answers 503 store_unavailable too', async () => {
    const res = await call(`${h.backend.url}/v1/deployments`, { token: await h.issuer.mint() });
    assert.deepEqual([res.status, res.body], STORE_UNAVAILABLE);
  });

  it('a webhook delivery (its dedupe marker is a write) answers 503 store_unavailable and updates nothing', async () => {
    h.github.repos.get(REPO)!.pulls = [{ number: 1, base: 'main', headSha: 'a'.repeat(40) }];
    const res = await deliver(h, pushPayload());
    assert.deepEqual([res.status, res.body], STORE_UNAVAILABLE);
    assert.equal(h.github.count('update_branch'), 0);
  });

  it('/token still mints: its audit record is tried once (bounded by the driver\'s server selection), then for 10 s not tried, each counted and logged at error level; the key-set snapshot is best effort, not retried per request', async () => {
    const body = async () => ({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' });
    const failedWrites = () => h.backend.logs.lines().filter((l) => String(l.msg).startsWith('key-set snapshot not written')).length;
    const auditLines = () => h.backend.logs.lines().filter((l) => l.msg === 'token audit record not written');
    for (let i = 0; i < 3; i++) {
      const { value: res, ms } = await timed(async () => h.token(await body()));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // The record is written before the answer: the first request waits for the store's verdict, once.
      if (i === 0) assert.ok(ms < SELECTION_MS + 1000, `took ${Math.round(ms)} ms: more than one store attempt`);
      else assert.ok(ms < SELECTION_MS, `took ${Math.round(ms)} ms: it waited on the store again`);
      assert.equal(auditLines().length, i + 1);
      assert.equal((auditLines()[i]!.audit as { hashed_token: unknown }).hashed_token, hashedToken(res.body.token as string));
    }
    assert.match(String((auditLines()[0]!.err as { message?: unknown }).message), /store unavailable/);
    assert.match(String(auditLines()[1]!.skipped), /less than 10 s ago/);
    assert.match(await h.backend.metrics.text(), /^gatehouse_audit_write_failures_total\{route="\/token"\} 3$/m);
    await eventually(() => failedWrites() > 0, 'the failed snapshot write is logged');
    assert.equal(failedWrites(), 1, 'one attempt, then a minute without');
  });

  it('/releases still answers: its cache is an optimisation, so an outage means a fresh crawl', async () => {
    const res = await call(`${h.backend.url}/releases`, { token: h.triggerSecret });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.cached, false);
    assert.deepEqual(res.body.repos, [{ repo: REPO, latest: null }]);
  });
});

describe('faults: the backend process started with MONGODB_URI pointing at nothing', () => {
  it('starts, answers /healthz, refuses writes with 503 store_unavailable, honours the URI’s serverSelectionTimeoutMS, and stops with 0', async () => {
    const issuer = await TestIssuer.start();
    const started = await startEntry('server/main.ts', {
      OIDC_ISSUER: issuer.url,
      LEDGER_AUDIENCE: DEFAULT_AUDIENCE,
      LEDGER_ALLOWED_OWNERS: 'octo-org',
      MONGODB_URI: `mongodb://127.0.0.1:${await closedPort()}/gatehouse?serverSelectionTimeoutMS=300`,
    });
    try {
      assert.match(started.output(), /"store":"mongodb"/);
      assert.equal((await call(`${started.url}/healthz`)).status, 200);
      const { value: res, ms } = await timed(async () => call(`${started.url}/v1/deployments`, { token: await issuer.mint(), json: deployment('process-mongo-down') }));
      assert.deepEqual([res.status, res.body], STORE_UNAVAILABLE);
      // 300 ms from the URI, not the built-in 5 s.
      assert.ok(ms < 2500, `answered after ${Math.round(ms)} ms`);
      await eventually(() => started.output().includes('MongoDB indexes could not be created yet'), 'the start-up index failure is logged');
      started.child.kill('SIGTERM');
      assert.equal(await started.exited, 0);
    } finally {
      if (started.child.exitCode === null) started.child.kill('SIGKILL');
      await issuer.close();
    }
  });
});

describe('faults: the store failing in the middle of requests (nothing half-written)', () => {
  let store: FlakyStore;
  let backend: Backend;
  let chat: FakeChat;

  before(async () => {
    await realDriverFailure(); // captured once, so the first planned failure is not slower than the rest
    chat = await FakeChat.start();
  });
  after(() => chat.close());
  beforeEach(async () => {
    chat.messages.length = 0;
    store = new FlakyStore();
    backend = await startBackend({ store, env: { LEDGER_CHAT_WEBHOOK_URL: chat.webhookUrl } });
  });
  afterEach(() => backend.close());

  const post = async (deliveryId: string): Promise<JsonAnswer<Recorded>> =>
    call<Recorded>(`${backend.url}/v1/deployments`, { token: await backend.issuer.mint(), json: deployment(deliveryId) });
  const stored = (deliveryId: string): Promise<DeploymentRecord[]> =>
    store.inner.deployments.list({ repositoryId: '123456789', limit: 100, now: new Date() }).then((all) => all.filter((r) => r.deliveryId === deliveryId));

  it('the write fails before reaching the data: 503, no record, no notification; the retry records once and notifies once', async () => {
    store.failNext('insert', 'before');
    const failed = await post('mid-1');
    assert.deepEqual([failed.status, failed.body], STORE_UNAVAILABLE);
    assert.equal(failed.headers.get('retry-after'), '2');
    assert.equal((await stored('mid-1')).length, 0);
    assert.equal(chat.messages.length, 0);

    const retried = await post('mid-1');
    assert.equal(retried.status, 201);
    assert.deepEqual(retried.body.notified, { chat: true });
    const again = await post('mid-1');
    assert.deepEqual([again.status, again.body.duplicate, again.body.deployment_id], [200, true, retried.body.deployment_id]);
    assert.equal((await stored('mid-1')).length, 1);
    assert.equal(chat.messages.length, 1);
  });

  it('the store goes down between requests: writes and reads answer 503 while /healthz stays 200; it works again once back', async () => {
    assert.equal((await post('before-outage')).status, 201);
    store.down = true;
    assert.deepEqual(pick(await post('during-outage')), STORE_UNAVAILABLE);
    assert.deepEqual(pick(await call(`${backend.url}/v1/deployments`, { token: await backend.issuer.mint() })), STORE_UNAVAILABLE);
    assert.equal((await call(`${backend.url}/healthz`)).status, 200);
    store.down = false;
    assert.equal((await post('during-outage')).status, 201);
    const history = await call<{ deployments: { delivery_id: string }[] }>(`${backend.url}/v1/deployments`, { token: await backend.issuer.mint() });
    assert.deepEqual(history.body.deployments.map((d) => d.delivery_id), ['during-outage', 'before-outage']);
    assert.equal(chat.messages.length, 2);
  });

  it('the store fails after the record but before its notification outcome is saved: still 201, and a retry sends nothing more', async () => {
    store.failNext('setNotified', 'before');
    const first = await post('mid-2');
    assert.equal(first.status, 201);
    assert.deepEqual(first.body.notified, { chat: true });
    assert.ok(backend.logs.lines().some((l) => l.msg === 'notification outcome not saved'));
    // The record is its own idempotency marker: it exists with it, so the retry is a duplicate.
    const retried = await post('mid-2');
    assert.deepEqual([retried.status, retried.body.duplicate, retried.body.deployment_id], [200, true, first.body.deployment_id]);
    assert.equal((await stored('mid-2')).length, 1);
    assert.equal(chat.messages.length, 1);
  });

  it('the write is applied but its answer is lost: 503, and the retry finds the record (duplicate) without a second notification', async () => {
    store.failNext('insert', 'after');
    const failed = await post('mid-3');
    assert.deepEqual([failed.status, failed.body], STORE_UNAVAILABLE);
    const retried = await post('mid-3');
    assert.deepEqual([retried.status, retried.body.duplicate], [200, true]);
    assert.equal((await stored('mid-3')).length, 1);
    // Notification is at most once: the failed attempt stopped before notifying, the duplicate never notifies.
    assert.ok(chat.messages.length <= 1, `${chat.messages.length} notifications`);
  });

  it('concurrent deliveries of one id while inserts keep failing: retried until answered, one record, one notification', async () => {
    store.failNext('insert', 'before', 15);
    let answers = await Promise.all(Array.from({ length: 20 }, () => post('mid-4')));
    for (let round = 0; round < 5 && answers.some((a) => a.status === 503); round++) {
      answers = await Promise.all(answers.map((a) => (a.status === 503 ? post('mid-4') : a)));
    }
    assert.deepEqual(answers.map((a) => a.status).sort(), [...Array.from({ length: 19 }, () => 200), 201]);
    assert.equal(new Set(answers.map((a) => a.body.deployment_id)).size, 1);
    assert.equal((await stored('mid-4')).length, 1);
    assert.equal(chat.messages.length, 1);
  });
});

describe('faults: the store failing in the middle of a webhook delivery', () => {
  let store: FlakyStore;
  let h: BrokerHarness;

  before(() => realDriverFailure());
  beforeEach(async () => {
    store = new FlakyStore();
    h = await startBroker({ store, env: { AUTO_UPDATE_BRANCHES: 'true' } });
    h.github.repos.get(REPO)!.pulls = [
      { number: 1, base: 'main', headSha: 'a'.repeat(40) },
      { number: 2, base: 'main', headSha: 'b'.repeat(40) },
    ];
  });
  afterEach(() => h.close());

  it('the second dedupe marker cannot be written: 503, and GitHub’s redelivery (same id, same body) is handled, not taken for a replay', async () => {
    store.plan('claim', 'ok', 'before');
    const id = randomUUID();
    const payload = pushPayload();
    const failed = await deliver(h, payload, id);
    assert.deepEqual([failed.status, failed.body], STORE_UNAVAILABLE);
    assert.equal(h.github.count('update_branch'), 0);

    const redelivered = await deliver(h, payload, id);
    assert.deepEqual([redelivered.status, redelivered.body], [200, { ok: true, event: 'push', branch: 'main', updated: [1, 2], failed: [] }]);
    // Once handled, it is a duplicate like any other.
    const replay = await deliver(h, payload, id);
    assert.deepEqual(replay.body, { ok: true, duplicate: true, delivery: id });
    assert.equal(h.github.count('update_branch'), 2);
  });

  it('a delivery that failed after its markers were written (no token could be minted) is handled on redelivery', async () => {
    h.github.inject('access_tokens', { status: 500, body: { message: 'Server Error' } });
    const id = randomUUID();
    const payload = pushPayload();
    const failed = await deliver(h, payload, id);
    assert.equal(failed.status, 502);
    assert.equal(failed.body.error, 'update_branch_failed');

    const redelivered = await deliver(h, payload, id);
    assert.equal(redelivered.status, 200);
    assert.deepEqual(redelivered.body.updated, [1, 2]);
    assert.equal(h.github.count('update_branch'), 2);
  });
});

function pick(res: JsonAnswer): [number, unknown] {
  return [res.status, res.body];
}

/** A signed delivery as GitHub sends it (a redelivery repeats the id and the bytes). */
function deliver(h: BrokerHarness, payload: unknown, id = randomUUID()): Promise<JsonAnswer> {
  const raw = JSON.stringify(payload);
  return call(`${h.backend.url}/webhook`, {
    raw,
    headers: { 'x-github-event': 'push', 'x-github-delivery': id, 'x-hub-signature-256': hubSignature(h.webhookSecret, raw) },
  });
}
