import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createMongoStore } from '../../server/store/mongo.js';
import { StoreUnavailable } from '../../server/store/types.js';
import { hubSignature, INSTALLATION_ID, pushPayload, REPO, startBroker, type BrokerHarness } from '../support/broker.js';
import { startBackend } from '../support/backend.js';
import { call } from '../support/http.js';
import { stallingPeer, STALLS } from '../support/stalling.js';
import { timed } from './support.js';

/**
 * Every outbound call of the backend is bounded (docs/outbound-calls.md): a peer that accepts the
 * connection and never answers, or sends its headers and stalls the body, costs a route at most
 * its documented bound. The bounds are shortened here; a test in test/docs compares the defaults
 * with the table.
 */
const PLATFORM = { connectMs: 300, totalMs: 600 };
const COMMIT = { connectMs: 300, totalMs: 900 };
const CHAT = { connectMs: 300, totalMs: 500 };
const CRAWL_MS = 800;
/** Slack over a bound for the rest of a request on a loaded 2-core machine. */
const SLACK_MS = 1500;

const within = (ms: number, bound: number) => assert.ok(ms < bound + SLACK_MS, `answered after ${Math.round(ms)} ms (bound ${bound} ms)`);

describe('faults: every backend route that calls out answers within its bound when the peer stalls', () => {
  let h: BrokerHarness;
  beforeEach(async () => {
    h = await startBroker({ env: { AUTO_UPDATE_BRANCHES: 'true' }, bounds: { platform: PLATFORM, commit: COMMIT, releasesCrawlMs: CRAWL_MS } });
  });
  afterEach(() => h.close());

  for (const stall of ['hang', 'stall-body'] as const) {
    it(`/sign: createCommitOnBranch ${stall} → 502 sign_failed within the commit bound; the token is still revoked`, async () => {
      h.github.inject('graphql', stall);
      const head = h.github.repos.get(REPO)!.branches.get('main')!;
      const body = { repo: REPO, branch: 'main', expected_head_oid: head, message: { headline: 'x' }, deletions: [{ path: 'a' }] };
      const { value: res, ms } = await timed(() => call(`${h.backend.url}/sign`, { json: body, token: h.triggerSecret }));
      assert.equal(res.status, 502);
      assert.equal(res.body.error, 'sign_failed');
      assert.match(String(res.body.message), /no complete answer within 0\.9 s/);
      within(ms, COMMIT.totalMs);
      assert.equal(h.github.count('revoke'), 1);
    });

    it(`/sign: the mint ${stall} → 502 installation_token_failed within the platform bound`, async () => {
      h.github.inject('access_tokens', stall);
      const head = h.github.repos.get(REPO)!.branches.get('main')!;
      const body = { repo: REPO, branch: 'main', expected_head_oid: head, message: { headline: 'x' }, deletions: [{ path: 'a' }] };
      const { value: res, ms } = await timed(() => call(`${h.backend.url}/sign`, { json: body, token: h.triggerSecret }));
      assert.deepEqual([res.status, res.body.error], [502, 'installation_token_failed']);
      within(ms, PLATFORM.totalMs);
    });

    it(`/releases: the installation list ${stall} → 502 releases_failed within the platform bound`, async () => {
      h.github.inject('installations', stall);
      const { value: res, ms } = await timed(() => call(`${h.backend.url}/releases`, { token: h.triggerSecret }));
      assert.deepEqual([res.status, res.body.error], [502, 'releases_failed']);
      within(ms, PLATFORM.totalMs);
    });

    it(`/webhook: listing the open pull requests ${stall} → 502 update_branch_failed within the platform bound`, async () => {
      h.github.inject('pulls', stall);
      const { value: res, ms } = await timed(() => deliver(h));
      assert.deepEqual([res.status, res.body.error], [502, 'update_branch_failed']);
      within(ms, PLATFORM.totalMs);
    });

    it(`/webhook: one update-branch ${stall} → that pull request is listed as failed, the others updated, within the platform bound`, async () => {
      h.github.repos.get(REPO)!.pulls = [
        { number: 1, base: 'main', headSha: 'a'.repeat(40) },
        { number: 2, base: 'main', headSha: 'b'.repeat(40) },
      ];
      h.github.inject('update_branch', stall);
      const { value: res, ms } = await timed(() => deliver(h));
      assert.equal(res.status, 200);
      assert.equal((res.body.updated as number[]).length + (res.body.failed as number[]).length, 2);
      assert.equal((res.body.failed as number[]).length, 1);
      within(ms, PLATFORM.totalMs);
    });
  }

  it('/releases: a crawl slower than its whole bound → 502 releases_failed at that bound, although each call answers within its own', async () => {
    for (let i = 0; i < 40; i++) h.github.addRepo(`octo-org/slow-${i}`, 5000 + i, INSTALLATION_ID);
    h.github.delayMs = 150; // 42 repositories, 8 at a time: about 0.9 s of latest-release calls alone
    const { value: res, ms } = await timed(() => call(`${h.backend.url}/releases`, { token: h.triggerSecret }));
    assert.deepEqual([res.status, res.body.error], [502, 'releases_failed']);
    assert.match(String(res.body.message), /within 0\.8 s/);
    within(ms, CRAWL_MS);
  });
});

describe('faults: the chat sink and the store stalling', () => {
  for (const stall of STALLS) {
    it(`chat webhook ${stall} → the deployment is recorded (201, notified.chat false) within the chat bound`, async () => {
      const peer = await stallingPeer(stall);
      // The chat URL must be https in production; plain http is accepted for loopback.
      const backend = await startBackend({ env: { LEDGER_CHAT_WEBHOOK_URL: `${peer.url}/hooks/T0/B0/secret` }, bounds: { chat: CHAT } });
      try {
        const { value: res, ms } = await timed(async () =>
          call(`${backend.url}/v1/deployments`, { token: await backend.issuer.mint(), json: { delivery_id: `chat-${stall}`, environment: 'production', status: 'success' } }),
        );
        assert.equal(res.status, 201);
        assert.deepEqual(res.body.notified, { chat: false });
        within(ms, CHAT.totalMs);
        assert.ok(backend.logs.lines().some((l) => l.sink === 'chat' && l.failure === 'CallTimedOut'));
      } finally {
        await backend.close();
        await peer.close();
      }
    });
  }

  it('MongoDB accepting connections and never answering: a store call fails (StoreUnavailable) within server selection', async () => {
    const peer = await stallingPeer('silent');
    const store = createMongoStore(`mongodb://127.0.0.1:${peer.port}/gatehouse`, { serverSelectionTimeoutMs: 400 });
    try {
      const { value: err, ms } = await timed(() => store.deployments.list({ repositoryId: '1', limit: 1, now: new Date() }).then(() => undefined, (e: unknown) => e));
      assert.ok(err instanceof StoreUnavailable, String(err));
      within(ms, 400);
      assert.ok(peer.connections >= 1, 'the driver did connect');
    } finally {
      await store.close();
      await peer.close();
    }
  });
});

function deliver(h: BrokerHarness) {
  const raw = JSON.stringify(pushPayload());
  return call(`${h.backend.url}/webhook`, {
    raw,
    headers: { 'x-github-event': 'push', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': hubSignature(h.webhookSecret, raw) },
  });
}
