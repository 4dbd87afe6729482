import assert from 'node:assert/strict';
import { chatMessage, createChatSink } from '../../server/ledger/chat-sink.js';
import type { DeploymentRecord } from '../../server/store/types.js';
import { startBackend, type Backend } from '../support/backend.js';
import { FakeChat } from '../support/fake-chat.js';
import { call } from '../support/http.js';
import { capturedLogger } from '../support/log-capture.js';
import { closedPort } from '../support/servers.js';

type Recorded = { notified: Record<string, boolean>; duplicate: boolean };

describe('ledger: chat notification', () => {
  let chat: FakeChat;
  let backend: Backend;
  let deployments: string;

  before(async () => {
    chat = await FakeChat.start();
    backend = await startBackend({ env: { LEDGER_CHAT_WEBHOOK_URL: chat.webhookUrl } });
    deployments = `${backend.url}/v1/deployments`;
  });
  after(async () => {
    await backend.close();
    await chat.close();
  });
  beforeEach(() => {
    chat.status = 200;
    chat.delayMs = 0;
    chat.messages.length = 0;
    backend.env.LEDGER_CHAT_WEBHOOK_URL = chat.webhookUrl;
  });

  const post = async (deliveryId: string, extra: Record<string, unknown> = {}) =>
    call<Recorded>(deployments, {
      token: await backend.issuer.mint(),
      json: { delivery_id: deliveryId, environment: 'production', status: 'success', ...extra },
    });

  it('notifies the chat once for a first-seen record and reports notified.chat: true', async () => {
    const res = await post('chat-1', {
      version: '2.0.1',
      url: 'https://app.example.com/',
      run_url: 'https://github.com/octo-org/octo-repo/actions/runs/9',
    });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.notified, { chat: true });
    assert.equal(chat.messages.length, 1);
    const message = JSON.stringify(chat.messages[0]);
    for (const part of ['octo-org/octo-repo', 'production', 'success', '2.0.1', '<https://app.example.com/|Deployment>', '<https://github.com/octo-org/octo-repo/actions/runs/9|Workflow run>']) {
      assert.ok(message.includes(part), `message lacks ${part}`);
    }
  });

  it('a duplicate sends nothing and reports the original outcome', async () => {
    await post('chat-dup');
    const again = await post('chat-dup');
    assert.equal(again.status, 200);
    assert.equal(again.body.duplicate, true);
    assert.deepEqual(again.body.notified, { chat: true });
    assert.equal(chat.messages.length, 1);
  });

  it('50 concurrent POSTs with one delivery id send exactly one notification', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => post('chat-concurrent')));
    assert.equal(answers.filter((a) => a.status === 201).length, 1);
    assert.equal(answers.filter((a) => a.body.duplicate).length, 49);
    assert.equal(chat.messages.length, 1);
  });

  it('a failing sink gives notified.chat: false and never fails the request', async () => {
    chat.status = 500;
    const res = await post('chat-fails');
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.notified, { chat: false });
  });

  it('an unreachable sink gives notified.chat: false', async () => {
    backend.env.LEDGER_CHAT_WEBHOOK_URL = `http://127.0.0.1:${await closedPort()}/hook`;
    const res = await post('chat-unreachable');
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.notified, { chat: false });
  });

  it('an unconfigured sink is absent from notified', async () => {
    delete backend.env.LEDGER_CHAT_WEBHOOK_URL;
    const res = await post('chat-none');
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.notified, {});
  });

  it('never writes the webhook URL (a secret) to the log', async () => {
    chat.status = 404;
    await post('chat-log');
    assert.ok(!backend.logs.text().includes('secret-part-of-the-url'));
    assert.ok(backend.logs.lines().some((l) => l.sink === 'chat' && l.status === 404));
  });

  it('gives up on a slow sink after the timeout', async () => {
    chat.delayMs = 1000;
    const { logger, lines } = capturedLogger();
    const sink = createChatSink({ logger, bounds: { connectMs: 100, totalMs: 100 } });
    const started = Date.now();
    const delivered = await sink.notify(sampleRecord(), chat.webhookUrl);
    assert.equal(delivered, false);
    assert.ok(Date.now() - started < 900, 'did not wait for the slow sink');
    assert.ok(lines().some((l) => l.failure === 'CallTimedOut'));
  });

  it('escapes Slack markup in caller-supplied text', () => {
    const message = chatMessage(sampleRecord({ environment: '<!channel> & co', version: '<https://evil.example|click>' }));
    const text = JSON.stringify(message);
    assert.ok(!text.includes('<!channel>'));
    assert.ok(text.includes('&lt;!channel&gt; &amp; co'));
    assert.ok(!text.includes('<https://evil.example|click>'));
  });
});

function sampleRecord(overrides: Partial<DeploymentRecord> = {}): DeploymentRecord {
  return {
    deploymentId: 'd',
    repositoryId: '1',
    repository: 'octo-org/octo-repo',
    deliveryId: 'x',
    environment: 'production',
    status: 'success',
    mode: 'deploy',
    recordedAt: new Date(),
    expireAt: new Date(Date.now() + 1000),
    ...overrides,
  };
}
