import assert from 'node:assert/strict';
import { RequestError } from '@octokit/request-error';
import { HttpError, TransportError } from '../../server/http/call-errors.js';
import { apiTransport } from '../../server/http/api-transport.js';
import { AnswerTooLarge, boundedFetch, callFailure, CallTimedOut, NoConnection, networkTransport, sharedDeadline, transportFailure, type Fetch } from '../../server/http/outbound.js';
import { PlatformError } from '../../server/platform/errors.js';
import { timed } from '../faults/support.js';
import { closedPort, listen, type Listening } from '../support/servers.js';
import { stallingPeer, type StallingPeer } from '../support/stalling.js';

const BOUNDS = { connectMs: 300, totalMs: 400 };
const SLACK_MS = 1000;

/** Every bound holds over both transports: undici's `fetch` (the default) and `apiTransport` (GitHub's API). */
const TRANSPORTS: readonly (readonly [string, (connectMs: number) => Fetch])[] = [
  ['fetch', (connectMs) => networkTransport(connectMs)],
  ['apiTransport', (connectMs) => apiTransport(connectMs)],
];

for (const [transportName, transportOf] of TRANSPORTS) describe(`outbound calls: boundedFetch over ${transportName}`, () => {
  const bounded = (bounds: { connectMs: number; totalMs: number }, options: { maxBytes: number }): Fetch => boundedFetch(bounds, { ...options, transport: transportOf(bounds.connectMs) });
  let server: Listening;
  let peer: StallingPeer | undefined;
  before(async () => {
    server = await listen((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/slow-but-whole') {
        // Three chunks 100 ms apart: slower than any single wait, well inside the bound.
        res.writeHead(200, { 'content-type': 'application/json', 'x-seen-version': String(req.headers['x-github-api-version'] ?? '') });
        let n = 0;
        const timer = setInterval(() => {
          n++;
          if (n < 3) res.write(`"part${n}",`);
          else {
            clearInterval(timer);
            res.end('"end"]');
          }
        }, 100);
        res.write('[');
        return;
      }
      if (url.pathname === '/no-content') return void res.writeHead(204).end();
      // Announces 100 bytes, sends 10 and hangs up.
      if (url.pathname === '/cut') return void res.writeHead(200, { 'content-length': '100' }).write('0123456789', () => res.destroy());
      // Announces 3 MB and sends a first chunk only: a read to the end would wait for the deadline.
      if (url.pathname === '/announced-large') return void res.writeHead(200, { 'content-length': String(3 * 1024 * 1024) }).write(Buffer.alloc(1024));
      if (url.pathname === '/endless') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        const push = () => {
          while (res.write(chunk));
          res.once('drain', push);
        };
        push();
        res.on('close', () => res.removeAllListeners('drain'));
        return;
      }
      res.writeHead(404).end();
    });
  });
  after(() => server.close());
  afterEach(async () => {
    await peer?.close();
    peer = undefined;
  });

  for (const stall of ['silent', 'stall-body'] as const) {
    it(`${stall}: rejects with CallTimedOut within the bound, before resolving, so no caller sees a half answer`, async () => {
      peer = await stallingPeer(stall);
      const fetch = bounded(BOUNDS, { maxBytes: 1024 * 1024 });
      const { value: err, ms } = await timed(async () => {
        try {
          await fetch(`${peer!.url}/x`);
          return undefined;
        } catch (e) {
          return e;
        }
      });
      assert.ok(err instanceof CallTimedOut, String(err));
      assert.equal(err.message, 'no complete answer within 0.4 s');
      assert.ok(ms < BOUNDS.totalMs + SLACK_MS, `${Math.round(ms)} ms`);
    });
  }

  it('an answer that arrives whole inside the bound is passed on unchanged', async () => {
    const fetch = bounded(BOUNDS, { maxBytes: 1024 });
    const response = await fetch(`${server.url}/slow-but-whole`, { headers: { 'x-github-api-version': '2022-11-28' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-seen-version'), '2022-11-28');
    assert.equal(response.url, `${server.url}/slow-but-whole`);
    assert.deepEqual(await response.json(), ['part1', 'part2', 'end']);
  });

  it('a 204 has no body', async () => {
    const fetch = bounded(BOUNDS, { maxBytes: 1024 });
    const response = await fetch(`${server.url}/no-content`);
    assert.equal(response.status, 204);
    assert.equal(await response.text(), '');
  });

  it('an answer cut short by the peer is a failure, never a shorter answer', async () => {
    const err = await bounded(BOUNDS, { maxBytes: 1024 })(`${server.url}/cut`).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error, String(err));
    assert.equal(transportFailure(err), 'UND_ERR_SOCKET');
  });

  it('a buffered answer larger than its bound is refused (AnswerTooLarge), not held', async () => {
    const fetch = bounded({ connectMs: 1000, totalMs: 5000 }, { maxBytes: 1024 * 1024 });
    const err = await fetch(`${server.url}/endless`).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof AnswerTooLarge);
    assert.equal(transportFailure(err), 'the answer is larger than 1 MB');
  });

  it('an answer whose Content-Length is above the bound is refused at once, with that length, before its body is read', async () => {
    const fetch = bounded({ connectMs: 1000, totalMs: 5000 }, { maxBytes: 1024 * 1024 });
    const { value: err, ms } = await timed(() => fetch(`${server.url}/announced-large`).then(() => undefined, (e: unknown) => e));
    assert.ok(err instanceof AnswerTooLarge, String(err));
    assert.equal(err.statedBytes, 3 * 1024 * 1024);
    assert.equal(transportFailure(err), 'the answer is larger than 1 MB');
    assert.ok(ms < 1000, `${Math.round(ms)} ms: not read until the deadline`);
  });

  it("a caller's own signal ends the call sooner; a shared deadline cuts several calls at once", async () => {
    peer = await stallingPeer('silent');
    const fetch = bounded({ connectMs: 1000, totalMs: 10_000 }, { maxBytes: 1024 });
    const deadline = sharedDeadline(300);
    const { value: results, ms } = await timed(() => Promise.allSettled([fetch(`${peer!.url}/a`, { signal: deadline.signal }), fetch(`${peer!.url}/b`, { signal: deadline.signal })]));
    deadline.clear();
    assert.ok(results.every((r) => r.status === 'rejected' && r.reason instanceof CallTimedOut && r.reason.totalMs === 300));
    assert.ok(ms < 300 + SLACK_MS);
  });

  it('a refused connection is reported by its code, never by URL', async () => {
    const port = await closedPort();
    const err = await bounded(BOUNDS, { maxBytes: 1024 })(`http://127.0.0.1:${port}/secret-path`).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal(transportFailure(err), 'ECONNREFUSED');
  });
});

describe('outbound calls: apiTransport, what GitHub calls send and get back', () => {
  let server: Listening;
  before(async () => {
    server = await listen((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/moved') return void res.writeHead(301, { location: '/repositories/42' }).end('{"message":"Moved Permanently"}');
      if (url.pathname === '/not-modified') return void res.writeHead(304, { etag: '"abc"' }).end();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.writeHead(201, { 'content-type': 'application/json', link: '<https://x/?page=2>; rel="next"' });
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
    });
  });
  after(() => server.close());

  const transport = apiTransport(1000);

  it('sends the method, the path with its query, the headers and a string body; answers status, headers, body and URL', async () => {
    const response = await transport(`${server.url}/app/installations/7/access_tokens?x=1`, {
      method: 'post',
      headers: { authorization: 'Bearer t', 'Content-Type': 'application/json', 'x-github-api-version': '2022-11-28' },
      body: '{"permissions":{"contents":"read"}}',
    });
    assert.equal(response.status, 201);
    assert.equal(response.url, `${server.url}/app/installations/7/access_tokens?x=1`);
    assert.equal(response.headers.get('link'), '<https://x/?page=2>; rel="next"');
    assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
    const seen = (await response.json()) as { method: string; url: string; headers: Record<string, string>; body: string };
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/app/installations/7/access_tokens?x=1');
    assert.equal(seen.headers.authorization, 'Bearer t');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(seen.headers['x-github-api-version'], '2022-11-28');
    assert.equal(seen.headers['content-length'], '35');
    assert.equal(seen.body, '{"permissions":{"contents":"read"}}');
  });

  it('sends bytes as they are, and nothing for a GET', async () => {
    const bytes = await transport(`${server.url}/graphql`, { method: 'POST', body: new TextEncoder().encode('{"query":"{ viewer { login } }"}') });
    assert.equal(((await bytes.json()) as { body: string }).body, '{"query":"{ viewer { login } }"}');
    const get = (await (await transport(`${server.url}/repos/o/r`)).json()) as { method: string; body: string; headers: Record<string, string> };
    assert.equal(get.method, 'GET');
    assert.equal(get.body, '');
    assert.equal(get.headers['transfer-encoding'], undefined);
  });

  it('follows no redirect: the 3xx comes back with its Location, for the GitHub client to judge', async () => {
    const response = await transport(`${server.url}/moved`);
    assert.equal(response.status, 301);
    assert.equal(response.headers.get('location'), '/repositories/42');
    assert.equal(response.url, `${server.url}/moved`);
  });

  it('a 304 has no body', async () => {
    const response = await transport(`${server.url}/not-modified`, { headers: { 'if-none-match': '"abc"' } });
    assert.equal(response.status, 304);
    assert.equal(response.body, null);
    assert.equal(response.headers.get('etag'), '"abc"');
  });

  it('refuses what it cannot send as it is: a form, a stream, a Request', async () => {
    const form = new FormData();
    form.set('file', 'x');
    await assert.rejects(transport(`${server.url}/upload`, { method: 'POST', body: form }), { name: 'TypeError', message: 'apiTransport sends a string or bytes' });
    await assert.rejects(transport(new Request(`${server.url}/x`)), { name: 'TypeError', message: 'apiTransport takes a URL, not a Request' });
  });
});

describe('outbound calls: callFailure, the one reading of a failed call', () => {
  const clock = { now: () => Date.UTC(2026, 0, 1) };
  const request = { method: 'GET' as const, url: 'https://api.example/x', headers: {} };

  it("an answer: Octokit's status and the Retry-After it carried, in milliseconds", () => {
    const err = new RequestError('limited', 429, { request, response: { status: 429, url: request.url, headers: { 'retry-after': '7' }, data: {} } });
    assert.deepEqual(callFailure(err, clock), { status: 429, retryAfterMs: 7000 });
    assert.deepEqual(callFailure(new HttpError('DefectDojo', 'listing', 503, undefined, 2000), clock), { status: 503, retryAfterMs: 2000 });
    assert.deepEqual(callFailure(new PlatformError('Bad credentials', 401), clock), { status: 401, retryAfterMs: undefined });
  });

  it('no answer: the bound that cut the call, or the code, and whether the request may have reached the peer', async () => {
    const timedOut = new RequestError('no complete answer', 500, { request, cause: new CallTimedOut(400) });
    assert.deepEqual(callFailure(timedOut, clock), { noAnswer: 'no complete answer within 0.4 s', maybeSent: true });
    const port = await closedPort();
    const refused = await boundedFetch(BOUNDS, { maxBytes: 1024 })(`http://127.0.0.1:${port}/`).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.deepEqual(callFailure(new RequestError('fetch failed', 500, { request, cause: refused }), clock), { noAnswer: 'ECONNREFUSED', maybeSent: false });
    assert.deepEqual(callFailure(TransportError.of('GitHub', 'GET /x', refused), clock), { noAnswer: 'ECONNREFUSED', maybeSent: false });
    assert.deepEqual(callFailure(new PlatformError('platform unreachable', null), clock), { noAnswer: 'platform unreachable', maybeSent: true });
  });

  it('a connection not made within the connect bound is NoConnection: named by its bound, never sent', async () => {
    const connectTimeout = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
    const transport = (async () => {
      throw new TypeError('fetch failed', { cause: connectTimeout });
    }) as unknown as typeof fetch;
    const err = await boundedFetch(BOUNDS, { maxBytes: 1024, transport })('http://127.0.0.1:9/').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof NoConnection, String(err));
    assert.deepEqual(callFailure(err, clock), { noAnswer: 'no connection within 0.3 s', maybeSent: false });
  });

  it('an error that is no failed call is undefined: callers pass it on', () => {
    assert.equal(callFailure(new Error('a bug'), clock), undefined);
    assert.equal(callFailure('not an error', clock), undefined);
  });
});

