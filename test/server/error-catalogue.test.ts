import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { BACKEND_ERRORS } from '../../server/errors.js';
import { apiServer, PARSER_ERRORS } from '../../server/http/client-errors.js';
import { HTTP_ERRORS } from '../../server/http/errors.js';
import { createMinimalApp } from '../../server/minimal/app.js';
import { MINIMAL_ERRORS } from '../../server/minimal/outcomes.js';
import { SYNC_SERVICE_ERRORS } from '../../server/sync/service/errors.js';
import { startSyncSurface, send, type SyncSurface } from '../security/raw-http.js';
import { startBroker, type BrokerHarness } from '../support/broker.js';
import { capturedLogger } from '../support/log-capture.js';
import { REPO_ROOT } from '../support/processes.js';
import { listen, type Listening } from '../support/servers.js';

// Each server answers its errors from one catalogue (code → status): no route writes a status,
// and every code a server can answer is documented with that status.

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

const doc = (name: string) => readFileSync(join(REPO_ROOT, 'docs', name), 'utf8');

/** The docs say `<status> <code>` in prose, or put them in a table row (`| 503 | \`code\``, `| 503 | \`{"error":"code"…`). */
function documented(text: string, status: number, code: string): boolean {
  return [`${status} ${code}`, `${status} \`${code}\``, `| ${status} | \`${code}\``, `| ${status} | \`{"error":"${code}"`, `\`${status} ${code}\``, `${status} {"error":"${code}"`].some((form) => text.includes(form));
}

describe('error catalogues', () => {
  it('no route or use case writes a status: every refusal comes from a catalogue (server/errors.ts, server/sync/service/errors.ts, server/minimal/outcomes.ts)', () => {
    const offenders = files(join(REPO_ROOT, 'server'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ file: relative(REPO_ROOT, file), line: i + 1, text: line })),
      )
      .filter(({ text }) => /new AppError\(/.test(text))
      .map(({ file, text }) => `${file}: ${text.trim()}`);
    assert.deepEqual(offenders.sort(), [
      // The catalogues' own constructor.
      'server/http/errors.ts: new AppError(catalogue[code]!, code, extra, options);',
    ]);
  });

  it('every code of the backend is documented with its status (docs/ledger.md, docs/broker.md)', () => {
    const text = doc('ledger.md') + doc('broker.md') + doc('development.md');
    const missing = Object.entries(BACKEND_ERRORS).filter(([code, status]) => !documented(text, status, code));
    assert.deepEqual(missing, []);
  });

  it('every code of the sync service is documented with its status (docs/sync-service.md)', () => {
    const text = doc('sync-service.md') + doc('development.md');
    const own = Object.entries(SYNC_SERVICE_ERRORS).filter(([code]) => !(code in HTTP_ERRORS));
    assert.deepEqual(own.filter(([code, status]) => !documented(text, status, code)), []);
  });

  it('a code has one status wherever it is shared', () => {
    for (const [code, status] of Object.entries(HTTP_ERRORS)) {
      assert.equal(BACKEND_ERRORS[code as keyof typeof BACKEND_ERRORS], status, code);
      assert.equal(SYNC_SERVICE_ERRORS[code as keyof typeof SYNC_SERVICE_ERRORS], status, code);
    }
  });
});

/**
 * Every `error` a server answered a battery of odd and hostile requests with: each path and
 * method, percent-encoding that does not decode in a path parameter and elsewhere, bodies that
 * are not JSON, too large, compressed or in another charset, and what Node's parser refuses.
 */
async function answeredCodes(url: string, paths: readonly string[]): Promise<Map<string, Set<number>>> {
  const seen = new Map<string, Set<number>>();
  const note = (status: number, body: Record<string, unknown> | undefined, what: string) => {
    if (status < 400) return;
    assert.equal(typeof body?.error, 'string', `${what}: ${status} without a JSON error`);
    const statuses = seen.get(body!.error as string) ?? new Set<number>();
    statuses.add(status);
    seen.set(body!.error as string, statuses);
  };
  const requests: { path: string; method: string; body?: string | Buffer; headers?: Record<string, string> }[] = [];
  for (const path of [...paths, '/nowhere', '/v1/%E0%A4%A']) {
    for (const variant of [path, `${path}/%E0%A4%A`, `${path}/%ZZ`, `${path}?%ZZ=%E0`, `${path}//x`]) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) requests.push({ path: variant, method });
    }
    for (const [body, headers] of [
      ['not json', { 'content-type': 'application/json' }],
      ['', { 'content-type': 'application/json' }],
      ['[]', { 'content-type': 'application/json' }],
      ['{"a":', { 'content-type': 'text/plain' }],
      [JSON.stringify({ pad: 'x'.repeat(70_000) }), { 'content-type': 'application/json' }],
      ['{}', { 'content-type': 'application/json', 'content-encoding': 'gzip' }],
      ['{}', { 'content-type': 'application/json; charset=latin1' }],
    ] as const) {
      requests.push({ path, method: 'POST', body, headers: { ...headers, authorization: 'Bearer not-a-token' } });
    }
  }
  for (const r of requests) {
    const answer = await send(`${url}${r.path}`, { method: r.method, headers: { host: '127.0.0.1', ...r.headers }, ...(r.body === undefined ? {} : { body: r.body }) });
    note(answer.status, answer.body, `${r.method} ${r.path}`);
  }
  // What the parser refuses before any route: garbage, headers over 16 KB, HTTP/1.1 without Host.
  for (const raw of ['NOT A REQUEST LINE\r\n\r\n', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 'GET /healthz HTTP/1.1\r\n\r\n']) {
    const received = await rawExchange(url, raw);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);
    note(status, JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>, raw.slice(0, 30));
  }
  return seen;
}

function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(bytes);
  });
}

describe('error catalogues: every code a server answers is in its catalogue and documented with that status', function () {
  let h: BrokerHarness;
  let minimal: Listening;
  let sync: SyncSurface;
  before(async () => {
    h = await startBroker();
    minimal = await listen(apiServer(createMinimalApp({ env: () => h.backend.env, logger: capturedLogger().logger, version: 'catalogue' })));
    sync = await startSyncSurface();
  });
  after(async () => {
    await sync?.close();
    await minimal?.close();
    await h?.close();
  });

  const servers: { name: string; url: () => string; paths: string[]; catalogue: Record<string, number>; docs: string[] }[] = [
    {
      name: 'backend',
      url: () => h.backend.url,
      paths: ['/healthz', '/readyz', '/metrics', '/v1/deployments', '/v1/deployments/metrics', '/v1/environments', '/token', '/sign', '/releases', '/webhook'],
      catalogue: BACKEND_ERRORS,
      docs: ['ledger.md', 'broker.md', 'development.md'],
    },
    { name: 'minimal broker', url: () => minimal.url, paths: ['/healthz', '/readyz', '/token'], catalogue: { ...MINIMAL_ERRORS, ...PARSER_ERRORS }, docs: ['broker.md'] },
    {
      name: 'sync service',
      url: () => sync.url,
      paths: ['/healthz', '/readyz', '/metrics', '/sync/dependencytrack', '/sync/%E0%A4%A', '/hooks/dependency-track', '/hooks/dependency-track/%E0%A4%A'],
      catalogue: SYNC_SERVICE_ERRORS,
      docs: ['sync-service.md', 'development.md'],
    },
  ];

  for (const server of servers) {
    it(server.name, async () => {
      const seen = await answeredCodes(server.url(), server.paths);
      const text = server.docs.map(doc).join('\n');
      const stray = [...seen].flatMap(([code, statuses]) => [...statuses].filter((status) => server.catalogue[code] !== status || !documented(text, status, code)).map((status) => `${status} ${code}`));
      assert.deepEqual(stray, []);
      // The walk reached the HTTP layer's own refusals, not only the routes'.
      for (const code of ['not_found', 'invalid_request', 'request_headers_too_large']) assert.ok(seen.has(code), `${code} was answered`);
    });
  }

  it("a path parameter whose percent-encoding does not decode (Express's own 400) is 400 invalid_request, before the trigger token is checked", async () => {
    for (const path of ['/sync/%E0%A4%A', '/hooks/dependency-track/%E0%A4%A']) {
      const answer = await send(`${sync.url}${path}`, { method: 'POST', headers: { host: '127.0.0.1' } });
      assert.deepEqual([answer.status, answer.body], [400, { error: 'invalid_request' }], path);
    }
  });
});
