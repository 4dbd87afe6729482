import assert from 'node:assert/strict';
import { AnswerTooLarge, boundedFetch, CallTimedOut, sharedDeadline, transportFailure } from '../../server/http/outbound.js';
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
