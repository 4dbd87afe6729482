import assert from 'node:assert/strict';
import { CHAT_POST } from '../../server/http/call-bounds.js';
import { startBackend, type Backend } from '../support/backend.js';
import { FakeChat } from '../support/fake-chat.js';
import { playFault } from '../support/faults.js';
import { call, type JsonAnswer } from '../support/http.js';
import { closedPort, listen, type Listening } from '../support/servers.js';
import { timed } from './support.js';

type Recorded = { deployment_id: string; duplicate: boolean; notified: Record<string, boolean> };

/** The part of a Slack-style webhook URL that is the secret. */
const SECRET_PATH = '/services/T000/B000/secret-part-of-the-url';

const CHAT_TIMEOUT_MS = CHAT_POST.totalMs;

describe('faults: the chat sink slow or down', () => {
  let chat: FakeChat;
  let resetting: Listening;
  let backend: Backend;

  before(async () => {
    chat = await FakeChat.start();
    // Reads the start of the request, then drops the connection without an answer.
    resetting = await listen((req, res) => void playFault('reset', req, res));
  });
  after(async () => {
    await chat.close();
    await resetting.close();
  });
  beforeEach(async () => {
    chat.status = 200;
    chat.delayMs = 0;
    chat.messages.length = 0;
    backend = await startBackend({ env: { LEDGER_CHAT_WEBHOOK_URL: chat.webhookUrl } });
  });
  afterEach(() => backend.close());

  const post = async (deliveryId: string): Promise<JsonAnswer<Recorded>> =>
    call<Recorded>(`${backend.url}/v1/deployments`, {
      token: await backend.issuer.mint(),
      json: { delivery_id: deliveryId, environment: 'production', status: 'success', version: '1.2.3' },
    });

  /** The deployment is kept with the failed outcome, announced nowhere else, and the log keeps the URL secret. */
  async function assertRecordedWithFailedSink(res: JsonAnswer<Recorded>, deliveryId: string, webhookUrl: string): Promise<void> {
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.notified, { chat: false });
    const history = await call<{ deployments: { delivery_id: string; notified: Record<string, boolean> }[] }>(`${backend.url}/v1/deployments`, {
      token: await backend.issuer.mint(),
    });
    assert.deepEqual(
      history.body.deployments.filter((d) => d.delivery_id === deliveryId).map((d) => d.notified),
      [{ chat: false }],
    );
    const warnings = backend.logs.lines().filter((l) => l.sink === 'chat');
    assert.equal(warnings.length, 1, 'one line about the failed notification');
    const text = backend.logs.text();
    assert.ok(!text.includes(SECRET_PATH) && !text.includes(new URL(webhookUrl).pathname), 'the webhook URL is a secret and must not be logged');
  }

  it(`slower than its ${CHAT_TIMEOUT_MS} ms timeout: the deployment is still recorded and answered in bounded time, notified.chat false`, async () => {
    chat.delayMs = CHAT_TIMEOUT_MS + 2000;
    const pending = timed(() => post('slow-sink'));
    // A slow sink holds only its own request: the service keeps answering meanwhile.
    await new Promise((r) => setTimeout(r, 200));
    const health = await timed(() => call(`${backend.url}/healthz`));
    assert.ok(health.ms < 500, `healthz took ${Math.round(health.ms)} ms`);

    const { value: res, ms } = await pending;
    assert.ok(ms >= CHAT_TIMEOUT_MS - 100 && ms < CHAT_TIMEOUT_MS + 1500, `answered after ${Math.round(ms)} ms`);
    await assertRecordedWithFailedSink(res, 'slow-sink', chat.webhookUrl);
    assert.ok(backend.logs.lines().some((l) => l.sink === 'chat' && l.failure === 'CallTimedOut'));

    // The retried step is a duplicate: it neither waits on the sink again nor sends anything.
    const retried = await timed(() => post('slow-sink'));
    assert.deepEqual([retried.value.status, retried.value.body.duplicate, retried.value.body.deployment_id], [200, true, res.body.deployment_id]);
    assert.ok(retried.ms < 1000);
    assert.equal(chat.messages.length, 0);
  });

  it('answering 503: recorded, notified.chat false, the status logged without the URL', async () => {
    chat.status = 503;
    const res = await post('sink-503');
    await assertRecordedWithFailedSink(res, 'sink-503', chat.webhookUrl);
    assert.ok(backend.logs.lines().some((l) => l.sink === 'chat' && l.status === 503));
  });

  it('resetting the connection: recorded, notified.chat false, the failure kind logged without the URL', async () => {
    const url = `${resetting.url}${SECRET_PATH}`;
    backend.env.LEDGER_CHAT_WEBHOOK_URL = url;
    const res = await post('sink-reset');
    await assertRecordedWithFailedSink(res, 'sink-reset', url);
    const line = backend.logs.lines().find((l) => l.sink === 'chat')!;
    assert.equal(line.failure, 'TypeError');
    assert.match(String(line.code), /^(ECONNRESET|UND_ERR_SOCKET|EPIPE)$/);
  });

  it('refusing connections: recorded, notified.chat false, logged without the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}${SECRET_PATH}`;
    backend.env.LEDGER_CHAT_WEBHOOK_URL = url;
    const res = await post('sink-refused');
    await assertRecordedWithFailedSink(res, 'sink-refused', url);
    assert.equal(backend.logs.lines().find((l) => l.sink === 'chat')!.code, 'ECONNREFUSED');
  });
});
