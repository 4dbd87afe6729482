import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo } from 'node:net';
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

// Recognisable fakes: a test fails if either ever reaches the output.
const FAKE_PASSWORD = 'Fake-Mongo-Pa55word-5521';
const FAKE_HOOK = 'http://hooks.example.com/services/T0/B0/fake-hook-secret';

/** RFC 9112 §3.2: an HTTP/1.1 request without Host is refused with 400 (Node's own refusal has no body). */
const NO_HOST = 'GET /healthz HTTP/1.1\r\n\r\n';
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

  it('reports every unusable setting at once, one line each, with no stack trace and no secret value, and exits 1', async () => {
    const result = await runToEnd(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: 'eighty',
        HOST: '0.0.0.0:8080',
        LOG_LEVEL: 'loud',
        // `@` typed for `:`: the driver reads the password as a host and quotes it in its message.
        MONGODB_URI: `mongodb://gatehouse@${FAKE_PASSWORD}:99999/gatehouse`,
        OIDC_ISSUER: 'http://issuer.example.com',
        LEDGER_RETENTION_DAYS: 'ninety',
        LEDGER_CHAT_WEBHOOK_URL: FAKE_HOOK,
        // A broker setting never stops the process, and is not in the list.
        TOKEN_PERMISSIONS: 'contents=admin',
      },
    });
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 1, output);
    const settings = ['PORT', 'HOST', 'LOG_LEVEL', 'MONGODB_URI', 'OIDC_ISSUER', 'LEDGER_RETENTION_DAYS', 'LEDGER_CHAT_WEBHOOK_URL'];
    const lines = output.trim().split('\n').map((l) => JSON.parse(l) as { level: string; setting: string; msg: string });
    assert.deepEqual(lines.map((l) => [l.level, l.setting]), settings.map((s) => ['fatal', s]));
    for (const line of lines) assert.ok(line.msg.startsWith(`invalid configuration: ${line.setting} `), line.msg);
    assert.match(output, /MONGODB_URI is not a connection string the MongoDB driver accepts: Unable to parse \[redacted\] with URL/);
    assert.ok(!output.includes('    at '), 'a stack trace was printed');
    assert.ok(!output.includes(FAKE_PASSWORD), 'the MongoDB password was printed');
    assert.ok(!output.includes('fake-hook-secret'), 'the chat webhook URL was printed');
  });

  it('reports start-up problems even with LOG_LEVEL=silent, and accepts level names in any case', async () => {
    const silent = await runToEnd(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', LEDGER_RETENTION_DAYS: '0' },
    });
    assert.equal(silent.code, 1);
    assert.match(silent.stdout, /"setting":"LEDGER_RETENTION_DAYS"/);
    started = await startEntry('server/main.ts', { ...env(), LOG_LEVEL: 'DEBUG' });
    assert.equal((await call(`${started.url}/healthz`)).status, 200);
  });

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
    const hostless = await rawExchange(started.url, NO_HOST);
    assert.deepEqual([hostless.status, JSON.parse(hostless.body)], [400, { error: 'invalid_request' }]);
    assert.match(hostless.headers, /cache-control: no-store/);
    assert.match(hostless.headers, /content-type: application\/json/);
    assert.equal((await call(`${started.url}/healthz`)).status, 200);
  });

  it('says at start when the ledger would refuse everyone', async () => {
    started = await startEntry('server/main.ts', { OIDC_ISSUER: issuer.url });
    assert.match(started.output(), /LEDGER_AUDIENCE is not set/);
    assert.match(started.output(), /LEDGER_ALLOWED_OWNERS is unset or empty: the ledger denies every caller/);
  });
});

describe('minimal broker process (server/minimal/main.ts)', () => {
  it('reports every unusable process setting at once, one line each, with no stack trace, and exits 1', async () => {
    const result = await runToEnd(process.execPath, ['--import', 'tsx', 'server/minimal/main.ts'], {
      env: { PATH: process.env.PATH ?? '', PORT: '70000', HOST: 'http://localhost', LOG_LEVEL: 'verbose', FORGE_APP_PRIVATE_KEY: 'not a key' },
    });
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 1, output);
    const lines = output.trim().split('\n').map((l) => JSON.parse(l) as { level: string; setting: string; msg: string });
    assert.deepEqual(lines.map((l) => [l.level, l.setting]), [['fatal', 'PORT'], ['fatal', 'HOST'], ['fatal', 'LOG_LEVEL']]);
    assert.match(output, /invalid configuration: LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent/);
    assert.ok(!output.includes('    at '), 'a stack trace was printed');
    assert.ok(!output.includes('not a key'));
  });

  it('a port already in use is one fatal line with its code, no stack trace, and exit 1', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = holder.address() as AddressInfo;
      const result = await runToEnd(process.execPath, ['--import', 'tsx', 'server/minimal/main.ts'], {
        env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1' },
      });
      const output = result.stdout + result.stderr;
      assert.equal(result.code, 1, output);
      assert.match(output, /"level":"fatal",.*"code":"EADDRINUSE","msg":"cannot listen: listen EADDRINUSE/);
      assert.ok(!output.includes('    at '), 'a stack trace was printed');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

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
      const hostless = await rawExchange(started.url, NO_HOST);
      assert.deepEqual([hostless.status, JSON.parse(hostless.body)], [400, { error: 'invalid_request' }]);
      assert.match(hostless.headers, /cache-control: no-store/);
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
