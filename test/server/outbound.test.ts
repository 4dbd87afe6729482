import assert from 'node:assert/strict';
import { RequestError } from '@octokit/request-error';
import { HttpError, TransportError } from '../../server/http/call-errors.js';
import { AnswerTooLarge, boundedFetch, callFailure, CallTimedOut, NoConnection, sharedDeadline, transportFailure } from '../../server/http/outbound.js';
import { PlatformError } from '../../server/platform/errors.js';
import { timed } from '../faults/support.js';
import { closedPort, listen, type Listening } from '../support/servers.js';
import { stallingPeer, type StallingPeer } from '../support/stalling.js';

const BOUNDS = { connectMs: 300, totalMs: 400 };
const SLACK_MS = 1000;

describe('outbound calls: boundedFetch', () => {
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
      const fetch = boundedFetch(BOUNDS, { maxBytes: 1024 * 1024 });
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
    const fetch = boundedFetch(BOUNDS, { maxBytes: 1024 });
    const response = await fetch(`${server.url}/slow-but-whole`, { headers: { 'x-github-api-version': '2022-11-28' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-seen-version'), '2022-11-28');
    assert.equal(response.url, `${server.url}/slow-but-whole`);
    assert.deepEqual(await response.json(), ['part1', 'part2', 'end']);
  });

  it('a 204 has no body', async () => {
    const fetch = boundedFetch(BOUNDS, { maxBytes: 1024 });
    const response = await fetch(`${server.url}/no-content`);
    assert.equal(response.status, 204);
    assert.equal(await response.text(), '');
  });

  it('a buffered answer larger than its bound is refused (AnswerTooLarge), not held', async () => {
    const fetch = boundedFetch({ connectMs: 1000, totalMs: 5000 }, { maxBytes: 1024 * 1024 });
    const err = await fetch(`${server.url}/endless`).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof AnswerTooLarge);
    assert.equal(transportFailure(err), 'the answer is larger than 1 MB');
  });

  it('an answer whose Content-Length is above the bound is refused at once, with that length, before its body is read', async () => {
    const fetch = boundedFetch({ connectMs: 1000, totalMs: 5000 }, { maxBytes: 1024 * 1024 });
    const { value: err, ms } = await timed(() => fetch(`${server.url}/announced-large`).then(() => undefined, (e: unknown) => e));
    assert.ok(err instanceof AnswerTooLarge, String(err));
    assert.equal(err.statedBytes, 3 * 1024 * 1024);
    assert.equal(transportFailure(err), 'the answer is larger than 1 MB');
    assert.ok(ms < 1000, `${Math.round(ms)} ms: not read until the deadline`);
  });

  it("a caller's own signal ends the call sooner; a shared deadline cuts several calls at once", async () => {
    peer = await stallingPeer('silent');
    const fetch = boundedFetch({ connectMs: 1000, totalMs: 10_000 }, { maxBytes: 1024 });
    const deadline = sharedDeadline(300);
    const { value: results, ms } = await timed(() => Promise.allSettled([fetch(`${peer!.url}/a`, { signal: deadline.signal }), fetch(`${peer!.url}/b`, { signal: deadline.signal })]));
    deadline.clear();
    assert.ok(results.every((r) => r.status === 'rejected' && r.reason instanceof CallTimedOut && r.reason.totalMs === 300));
    assert.ok(ms < 300 + SLACK_MS);
  });

  it('a refused connection is reported by its code, never by URL', async () => {
    const port = await closedPort();
    const err = await boundedFetch(BOUNDS, { maxBytes: 1024 })(`http://127.0.0.1:${port}/secret-path`).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal(transportFailure(err), 'ECONNREFUSED');
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

