import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { WEBHOOK_BODY } from '../../server/broker/routes.js';
import { send } from '../security/raw-http.js';
import { heldUpload } from '../support/held-upload.js';
import { call } from '../support/http.js';
import { hubSignature, pushPayload, REPO, startBroker, type BrokerHarness } from '../support/broker.js';

describe('broker POST /webhook', () => {
  let h: BrokerHarness;

  beforeEach(async () => {
    h = await startBroker({ env: { AUTO_UPDATE_BRANCHES: 'true' } });
    const repo = h.github.repos.get(REPO)!;
    repo.pulls = [
      { number: 1, base: 'main', headSha: 'a'.repeat(40) },
      { number: 2, base: 'main', headSha: 'b'.repeat(40), conflict: true },
      { number: 3, base: 'develop', headSha: 'c'.repeat(40) },
      { number: 4, base: 'main', headSha: 'd'.repeat(40) },
    ];
  });
  afterEach(() => h.close());

  /** A delivery as GitHub sends it: the signature is over exactly these bytes. */
  const deliver = (
    payload: unknown,
    options: { event?: string | null; id?: string | null; raw?: string; signature?: string | null } = {},
  ) => {
    const raw = options.raw ?? JSON.stringify(payload);
    const headers: Record<string, string> = {};
    const event = options.event === undefined ? 'push' : options.event;
    const id = options.id === undefined ? randomUUID() : options.id;
    const signature = options.signature === undefined ? hubSignature(h.webhookSecret, raw) : options.signature;
    if (event !== null) headers['x-github-event'] = event;
    if (id !== null) headers['x-github-delivery'] = id;
    if (signature !== null) headers['x-hub-signature-256'] = signature;
    return call(`${h.backend.url}/webhook`, { raw, headers });
  };

  it('push: every open pull request based on the pushed branch gets update-branch with its expected head; one failure is reported, not a 5xx', async () => {
    const res = await deliver(pushPayload());
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true, event: 'push', branch: 'main', updated: [1, 4], failed: [2] });
    const updates = h.github.calls.filter((c) => c.route === 'update_branch');
    assert.deepEqual(
      updates.map((c) => [c.path, c.body]).sort(),
      [
        ['/repos/octo-org/octo-repo/pulls/1/update-branch', { expected_head_sha: 'a'.repeat(40) }],
        ['/repos/octo-org/octo-repo/pulls/2/update-branch', { expected_head_sha: 'b'.repeat(40) }],
        ['/repos/octo-org/octo-repo/pulls/4/update-branch', { expected_head_sha: 'd'.repeat(40) }],
      ],
    );
    assert.ok(h.github.calls.some((c) => c.route === 'pulls' && c.path.includes('base=main') && c.path.includes('state=open')));
    assert.equal(h.github.count('revoke'), 1);
  });

  it('the installation id of the payload skips the repository lookup', async () => {
    await deliver(pushPayload());
    assert.equal(h.github.count('repository_installation'), 0);
    assert.equal(h.github.count('installation'), 1);
  });

  it('without AUTO_UPDATE_BRANCHES on, a push is verified and does nothing', async () => {
    for (const value of [undefined, 'false', 'enabled']) {
      h.backend.env.AUTO_UPDATE_BRANCHES = value;
      const res = await deliver(pushPayload());
      assert.deepEqual([res.status, res.body], [200, { ok: true, event: 'push', branch: 'main', updated: [], failed: [] }]);
    }
    assert.equal(h.github.count(), 0);
  });

  it('a tag push or a branch deletion updates nothing', async () => {
    const tag = await deliver(pushPayload({ ref: 'refs/tags/v1.0.0' }));
    assert.deepEqual(tag.body, { ok: true, event: 'push', branch: null, updated: [], failed: [] });
    const deleted = await deliver(pushPayload({ deleted: true, after: '0'.repeat(40) }));
    assert.deepEqual(deleted.body, { ok: true, event: 'push', branch: 'main', updated: [], failed: [] });
    assert.equal(h.github.count(), 0);
  });

  it('other events are acknowledged with {ok: true, ignored: <event>}', async () => {
    for (const event of ['ping', 'pull_request', 'installation']) {
      const res = await deliver({ zen: 'Keep it logically awesome.', hook_id: 1, action: event }, { event });
      assert.deepEqual([res.status, res.body], [200, { ok: true, ignored: event }]);
    }
    assert.equal(h.github.count(), 0);
  });

  it('installation events are acknowledged even when the app is unconfigured (nothing was cached for it to forget)', async () => {
    const configured = { ...h.backend.env };
    for (const change of [{ FORGE_APP_ID: undefined }, { FORGE_APP_PRIVATE_KEY: 'garbage' }, { FORGE_API_BASE: 'not a url' }]) {
      Object.assign(h.backend.env, change);
      for (const event of ['installation', 'installation_repositories']) {
        const payload = { action: 'added', installation: { id: 99 }, repositories_added: [{ full_name: REPO }], event, change: Object.keys(change) };
        const res = await deliver(payload, { event });
        assert.deepEqual([res.status, res.body], [200, { ok: true, ignored: event }], JSON.stringify(change));
      }
      Object.assign(h.backend.env, configured);
    }
    assert.equal(h.github.count(), 0);
  });

  it('a delivery id seen in the last 24 hours does nothing the second time', async () => {
    const id = randomUUID();
    const payload = pushPayload();
    assert.equal((await deliver(payload, { id })).status, 200);
    const again = await deliver(payload, { id });
    assert.deepEqual([again.status, again.body], [200, { ok: true, duplicate: true, delivery: id }]);
    assert.equal(h.github.count('update_branch'), 3, 'no second round of updates');
  });

  it('the same signed body replayed under a fresh delivery id is also a duplicate', async () => {
    const payload = pushPayload();
    assert.equal((await deliver(payload)).status, 200);
    const replay = await deliver(payload, { id: randomUUID() });
    assert.equal(replay.body.duplicate, true);
    assert.equal(h.github.count('update_branch'), 3);
  });

  it('502 update_branch_failed when no token can be minted for the repository', async () => {
    h.github.inject('access_tokens', { status: 500, body: { message: 'Server Error' } });
    const res = await deliver(pushPayload());
    assert.equal(res.status, 502);
    assert.equal(res.body.error, 'update_branch_failed');
  });

  describe('error table', () => {
    it('503 webhook_disabled while FORGE_WEBHOOK_SECRET is unset', async () => {
      delete h.backend.env.FORGE_WEBHOOK_SECRET;
      const res = await deliver(pushPayload());
      assert.deepEqual([res.status, res.body], [503, { error: 'webhook_disabled' }]);
    });

    const badSignatures: [string, (raw: string, secret: string) => string | null][] = [
      ['missing', () => null],
      ['empty', () => ''],
      ['of another secret', (raw) => hubSignature('not-the-secret', raw)],
      ['over re-serialised JSON', (raw, secret) => hubSignature(secret, JSON.stringify(JSON.parse(raw)))],
      ['without the sha256= prefix', (raw, secret) => hubSignature(secret, raw).slice('sha256='.length)],
      ['sha1 instead of sha256', (raw, secret) => hubSignature(secret, raw).replace('sha256=', 'sha1=')],
      ['truncated', (raw, secret) => hubSignature(secret, raw).slice(0, -2)],
    ];
    for (const [name, signature] of badSignatures) {
      it(`401 invalid_signature: a signature ${name}`, async () => {
        // Pretty-printed, as GitHub does not send it: re-serialising changes the bytes.
        const raw = JSON.stringify(pushPayload(), null, 2);
        const res = await deliver(undefined, { raw, signature: signature(raw, h.webhookSecret) });
        assert.deepEqual([res.status, res.body], [401, { error: 'invalid_signature' }]);
        assert.equal(h.github.count(), 0);
      });
    }

    it('401 invalid_signature at once, without reading the body, when the request carries no usable signature header', async () => {
      const port = Number(new URL(h.backend.url).port);
      const answer = await new Promise<{ text: string; ms: number }>((resolve) => {
        const started = Date.now();
        let text = '';
        const socket = connect(port, '127.0.0.1', () => {
          // Announces 10 MB and sends 10 bytes: an answer must not wait for the rest.
          socket.write('POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: 10485760\r\nX-GitHub-Event: push\r\nX-GitHub-Delivery: d\r\n\r\n{"ref": "x');
        });
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('close', () => resolve({ text, ms: Date.now() - started }));
        socket.on('error', () => undefined);
      });
      assert.match(answer.text, /^HTTP\/1\.1 401/);
      assert.match(answer.text, /\{"error":"invalid_signature"\}/);
      assert.ok(answer.ms < 2000, `closed after ${answer.ms} ms`);
    });

    it('503 webhook_busy with Retry-After: 10 once 2 bodies are being read and 64 wait; the read and wait bounds are 10 s', async () => {
      assert.deepEqual(WEBHOOK_BODY, { readers: 2, maxWaiting: 64, limit: 10 * 1024 * 1024, waitMs: 10_000, readMs: 10_000 });
      const port = Number(new URL(h.backend.url).port);
      const headers = { 'x-github-event': 'push', 'x-github-delivery': 'held', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` };
      // Two readers each hold a slot with a body half sent; 64 more wait for one, unread.
      const held = await Promise.all(Array.from({ length: 2 + 64 }, () => heldUpload(port, 500, 10, { path: '/webhook', headers })));
      try {
        // Time for the 66 held requests' heads to reach the server: generous, since a refusal
        // that comes too early would queue this probe instead of refusing it.
        await sleep(1500);
        const started = Date.now();
        const res = await send(`${h.backend.url}/webhook`, { body: '{}', headers: { ...headers, 'x-github-delivery': randomUUID() } });
        assert.deepEqual([res.status, res.body, res.headers['retry-after']], [503, { error: 'webhook_busy' }, '10']);
        assert.ok(Date.now() - started < 2000, 'refused at once, not after waiting');
      } finally {
        for (const socket of held) socket.destroy();
      }
    });

    it('413 payload_too_large for a body announced over 10 MB, before it is read', async () => {
      const res = await send(`${h.backend.url}/webhook`, {
        body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20),
        headers: { 'x-github-event': 'push', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
      });
      assert.deepEqual([res.status, res.body], [413, { error: 'payload_too_large' }]);
    });

    it('the pretty-printed raw body with its own signature is accepted (only the raw bytes count)', async () => {
      const res = await deliver(undefined, { raw: JSON.stringify(pushPayload(), null, 2) });
      assert.equal(res.status, 200);
    });

    it('400 invalid_json: a signed body that is not JSON', async () => {
      const res = await deliver(undefined, { raw: '{"ref": ' });
      assert.deepEqual([res.status, res.body], [400, { error: 'invalid_json' }]);
    });

    it('400 invalid_request: a signed body that is not an object, or a push without a repository', async () => {
      for (const raw of ['[]', '"push"', JSON.stringify({ ref: 'refs/heads/main' })]) {
        const res = await deliver(undefined, { raw });
        assert.deepEqual([res.status, res.body.error], [400, 'invalid_request'], raw);
      }
    });

    it('400 invalid_request: the event or delivery header is missing', async () => {
      assert.equal((await deliver(pushPayload(), { event: null })).body.error, 'invalid_request');
      assert.equal((await deliver(pushPayload(), { id: null })).body.error, 'invalid_request');
    });

    it('405 method_not_allowed for GET', async () => {
      const res = await call(`${h.backend.url}/webhook`);
      assert.deepEqual([res.status, res.body], [405, { error: 'method_not_allowed' }]);
    });

    it('the webhook secret never reaches the log', async () => {
      await deliver(pushPayload(), { signature: 'sha256=' + '0'.repeat(64) });
      await deliver(pushPayload());
      assert.ok(!h.backend.logs.text().includes(h.webhookSecret));
    });
  });
});
