import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { FakeChat } from '../support/fake-chat.js';
import { call } from '../support/http.js';
import { DEFAULT_AUDIENCE, TestIssuer } from '../support/oidc-issuer.js';
import { runToEnd, startEntry, type Started } from '../support/processes.js';

/** Sends raw bytes and reads the whole answer (the server closes after a parser error). */
function rawExchange(url: string, bytes: string): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head.toLowerCase(), body });
    });
  });
}

const HUGE_HEADER = `GET /healthz HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`;

describe('backend process (server/main.ts)', () => {
  let issuer: TestIssuer;
  let chat: FakeChat;
  let started: Started | undefined;

  before(async () => {
    issuer = await TestIssuer.start();
    chat = await FakeChat.start();
  });
  after(async () => {
    await issuer.close();
    await chat.close();
  });
  afterEach(async () => {
    if (started && started.child.exitCode === null) {
      started.child.kill('SIGKILL');
      await started.exited;
    }
    started = undefined;
  });

  const env = () => ({
    OIDC_ISSUER: issuer.url,
    LEDGER_AUDIENCE: DEFAULT_AUDIENCE,
    LEDGER_ALLOWED_OWNERS: 'octo-org',
    LEDGER_CHAT_WEBHOOK_URL: chat.webhookUrl,
  });

  it('starts on the in-memory store with a warning, serves /healthz and the ledger', async () => {
    started = await startEntry('server/main.ts', env());
    const health = await call(`${started.url}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'ok');
    assert.match(String(health.body.version), /^\d+\.\d+\.\d+/);
    const res = await call(`${started.url}/v1/deployments`, {
      token: await issuer.mint(),
      json: { delivery_id: 'process-1', environment: 'production', status: 'success' },
    });
    assert.equal(res.status, 201);
    assert.match(started.output(), /MONGODB_URI is not set: using the in-memory store/);
  });

  it('on SIGTERM finishes the in-flight request, refuses new connections, exits 0', async () => {
    started = await startEntry('server/main.ts', env());
    chat.delayMs = 800;
    try {
      const inFlight = call<{ notified: Record<string, boolean> }>(`${started.url}/v1/deployments`, {
        token: await issuer.mint(),
        json: { delivery_id: 'in-flight', environment: 'production', status: 'success' },
      });
      await new Promise((r) => setTimeout(r, 300));
      started.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 100));
      await assert.rejects(fetch(`${started.url}/healthz`), 'accepted a connection while shutting down');
      const res = await inFlight;
      assert.equal(res.status, 201);
      assert.deepEqual(res.body.notified, { chat: true });
      assert.equal(await started.exited, 0);
      assert.match(started.output(), /"msg":"stopped"/);
    } finally {
      chat.delayMs = 0;
    }
  });

  it('SIGINT stops it too', async () => {
    started = await startEntry('server/main.ts', env());
    started.child.kill('SIGINT');
    assert.equal(await started.exited, 0);
  });

  for (const [setting, value] of [
    ['LEDGER_RETENTION_DAYS', 'ninety'],
    ['PORT', 'eighty'],
    ['OIDC_ISSUER', 'http://issuer.example.com'],
  ] as const) {
    it(`refuses to start with an unusable ${setting}, naming it`, async () => {
      const result = await runToEnd(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env(), [setting]: value },
      });
      assert.equal(result.code, 1);
      assert.match(result.stdout, new RegExp(`invalid configuration: ${setting}`));
    });
  }

  it('requests Node refuses before any route (headers over 16 KB, malformed HTTP) still get JSON, and the server stays up', async () => {
    started = await startEntry('server/main.ts', env());
    const big = await rawExchange(started.url, HUGE_HEADER);
    assert.equal(big.status, 431);
    assert.match(big.headers, /content-type: application\/json/);
    assert.match(big.headers, /cache-control: no-store/);
    assert.deepEqual(JSON.parse(big.body), { error: 'request_headers_too_large' });
    const garbage = await rawExchange(started.url, 'NOT HTTP AT ALL\r\n\r\n');
    assert.equal(garbage.status, 400);
    assert.deepEqual(JSON.parse(garbage.body), { error: 'invalid_request' });
    assert.equal((await call(`${started.url}/healthz`)).status, 200);
  });

  it('says at start when the ledger would refuse everyone', async () => {
    started = await startEntry('server/main.ts', { OIDC_ISSUER: issuer.url });
    assert.match(started.output(), /LEDGER_AUDIENCE is not set/);
    assert.match(started.output(), /LEDGER_ALLOWED_OWNERS is empty/);
  });
});

describe('minimal broker process (server/minimal/main.ts)', () => {
  it('starts without configuration: /healthz 200, /readyz 503 with the problem logged; SIGTERM exits 0', async () => {
    const started = await startEntry('server/minimal/main.ts', {}, 'gatehouse minimal broker listening');
    try {
      assert.deepEqual((await call(`${started.url}/healthz`)).body, { status: 'ok' });
      const ready = await call(`${started.url}/readyz`);
      assert.deepEqual([ready.status, ready.body], [503, { error: 'config_unavailable' }]);
      const token = await call(`${started.url}/token`, { json: { oidcToken: 'x', owner: 'o', repo: 'r' } });
      assert.deepEqual([token.status, token.body], [503, { error: 'config_unavailable' }]);
      assert.match(started.output(), /FORGE_APP_ID is not set/);
      const big = await rawExchange(started.url, HUGE_HEADER);
      assert.deepEqual([big.status, JSON.parse(big.body)], [431, { error: 'request_headers_too_large' }]);
      // The log line reaches this process through a pipe: it may land just after the answer.
      for (let i = 0; i < 40 && !started.output().includes('"outcome":"config_unavailable"'); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(started.output(), /"outcome":"config_unavailable"/);
      started.child.kill('SIGTERM');
      assert.equal(await started.exited, 0);
    } finally {
      if (started.child.exitCode === null) started.child.kill('SIGKILL');
    }
  });
});
