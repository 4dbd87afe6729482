import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createMinimalApp } from '../../server/minimal/app.js';
import { apiServer } from '../../server/http/client-errors.js';
import { startBroker, type BrokerHarness } from '../support/broker.js';
import { capturedLogger } from '../support/log-capture.js';
import { listen, type Listening } from '../support/servers.js';
import { startSyncSurface, SYNC_TRIGGER, type SyncSurface } from './raw-http.js';

// A request whose body framing is broken (a chunk size that overflows 64 bits, a chunk with no
// size) gets one answer on its connection, and the connection is closed: the parser cannot tell
// where the next request would start. A route that answers before reading the body (a refused
// credential) must not be followed by the parser's own 400 on the same connection.

/** Writes `bytes` on a fresh connection and collects everything until the server closes it. */
function exchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was left open; received so far:\n${received}`));
    }, 5000);
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.write(bytes);
  });
}

const statusLines = (received: string) => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

const FRAMINGS: Record<string, string> = {
  'a chunk size overflowing 64 bits': 'FFFFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n',
  'a chunk with no size': '\r\n{}\r\n0\r\n\r\n',
  'a chunk size that is not hexadecimal': 'zz\r\n{}\r\n0\r\n\r\n',
};

interface Target {
  readonly name: string;
  readonly path: string;
  readonly headers: () => Promise<Record<string, string>> | Record<string, string>;
}

let h: BrokerHarness;
let minimal: Listening;
let sync: SyncSurface;

const servers = (): { name: string; url: () => string; targets: Target[] }[] => [
  {
    name: 'backend',
    url: () => h.backend.url,
    targets: [
      { name: 'POST /v1/deployments without a token (401 before the body)', path: '/v1/deployments', headers: () => ({}) },
      { name: 'POST /v1/deployments with a token (the body is read)', path: '/v1/deployments', headers: async () => ({ authorization: `Bearer ${await h.issuer.mint()}` }) },
      { name: 'POST /webhook unsigned', path: '/webhook', headers: () => ({ 'x-github-event': 'push', 'x-github-delivery': 'framing' }) },
      { name: 'POST /token', path: '/token', headers: () => ({}) },
      { name: 'POST /sign without a bearer', path: '/sign', headers: () => ({}) },
      { name: 'POST to an unknown path (404 before the body)', path: '/nowhere', headers: () => ({}) },
    ],
  },
  {
    name: 'minimal broker',
    url: () => minimal.url,
    targets: [
      { name: 'POST /token', path: '/token', headers: () => ({}) },
      { name: 'POST to an unknown path', path: '/nowhere', headers: () => ({}) },
    ],
  },
  {
    name: 'sync service',
    url: () => sync.url,
    targets: [
      { name: 'POST /sync/dependency-track without the trigger token (401 before the body)', path: '/sync/dependency-track', headers: () => ({}) },
      { name: 'POST /sync/dependency-track with the trigger token', path: '/sync/dependency-track', headers: () => ({ authorization: `Bearer ${SYNC_TRIGGER}` }) },
      { name: 'POST to an unknown path', path: '/nowhere', headers: () => ({}) },
    ],
  },
];

describe('attack suite: malformed chunked bodies get one answer, then the connection closes', function () {
  before(async () => {
    h = await startBroker();
    minimal = await listen(apiServer(createMinimalApp({ env: () => h.backend.env, logger: capturedLogger().logger, version: 'framing' })));
    sync = await startSyncSurface();
  });
  after(async () => {
    await sync?.close();
    await minimal?.close();
    await h?.close();
  });

  for (const server of servers()) {
    describe(server.name, () => {
      for (const target of server.targets) {
        for (const [framing, body] of Object.entries(FRAMINGS)) {
          it(`${target.name}, ${framing}`, async () => {
            const headers = Object.entries({ host: '127.0.0.1', 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...(await target.headers()) })
              .map(([name, value]) => `${name}: ${value}\r\n`)
              .join('');
            const received = await exchange(server.url(), `POST ${target.path} HTTP/1.1\r\n${headers}\r\n${body}`);
            const statuses = statusLines(received);
            assert.equal(statuses.length, 1, `one answer, got:\n${received}`);
            assert.ok(statuses[0]! >= 400 && statuses[0]! < 500, received);
            // The answer is the JSON error of the route or of the parser, never a bare status line.
            assert.match(received, /\r\n\r\n\{"error":"[a-z_]+"/);
            // The server keeps serving.
            const health = await fetch(`${server.url()}/healthz`);
            assert.equal(health.status, 200);
          });
        }
      }

      it('a good request and then a malformed one on the same connection: each gets its answer (200, then 400 invalid_request), then the connection closes', async () => {
        const received = await exchange(server.url(), 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nNOT A REQUEST LINE\r\n\r\n');
        assert.deepEqual(statusLines(received), [200, 400], received);
        assert.match(received, /\{"error":"invalid_request"\}$/);
      });
    });
  }
});

describe('attack suite: a token request followed on its connection by a malformed one still gets its token', function () {
  let broker: BrokerHarness;
  let minimalBroker: Listening;
  before(async () => {
    broker = await startBroker();
    minimalBroker = await listen(apiServer(createMinimalApp({ env: () => broker.backend.env, logger: capturedLogger().logger, version: 'pipelined' })));
  });
  after(async () => {
    await minimalBroker?.close();
    await broker?.close();
  });

  // The mint answers after the parser has refused the next request (the mint is a call to GitHub):
  // the parser's 400 must wait for the 200, or the token minted at GitHub is never delivered.
  for (const [name, url] of [
    ['backend', () => broker.backend.url],
    ['minimal broker', () => minimalBroker.url],
  ] as const) {
    it(`${name}: two POST /token and garbage in one write: each 200 with its token first, then 400 invalid_request, then the connection closes`, async () => {
      const request = async (): Promise<string> => {
        const body = JSON.stringify({ oidcToken: await broker.oidc(), owner: 'octo-org', repo: 'octo-repo' });
        return `POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      };
      const received = await exchange(url(), `${await request()}${await request()}NOT A REQUEST LINE\r\n\r\n`);
      assert.deepEqual(statusLines(received), [200, 200, 400], received);
      const tokens = [...received.slice(0, received.indexOf('HTTP/1.1 400')).matchAll(/"token":"([^"]+)"/g)].map((m) => m[1]!);
      assert.equal(new Set(tokens).size, 2, `each 200 carries its token:\n${received}`);
      for (const token of tokens) assert.ok(broker.github.grantOf(token), 'the tokens delivered are the ones minted');
      assert.match(received, /\{"error":"invalid_request"\}$/);
    });
  }
});
