import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import { AppError } from '../../server/http/errors.js';
import { errorHandler } from '../../server/http/error-handler.js';
import { BodySlots, slottedRawBody } from '../../server/http/slotted-body.js';
import { send } from '../security/raw-http.js';
import { heldUpload } from '../support/held-upload.js';
import { listen, type Listening } from '../support/servers.js';

describe('slotted request bodies (bounded readers, size and time)', () => {
  let server: Listening;
  let slots: BodySlots;
  const seen: number[] = [];

  beforeEach(async () => {
    slots = new BodySlots(1, 1);
    seen.length = 0;
    const app = express();
    app.post('/in', slottedRawBody({ slots, limit: 1000, waitMs: 400, readMs: 400, busy: (retryAfterSeconds) => new AppError(503, 'busy', {}, { headers: { 'Retry-After': String(retryAfterSeconds) } }), onChunk: (_req, c) => void seen.push(c.length) }), (req, res) => {
      res.json({ bytes: req.rawBody!.length });
    });
    app.use(errorHandler);
    server = await listen(app);
  });
  afterEach(() => server.close());

  it('reads a body within the bounds, each chunk seen as it arrives', async () => {
    const res = await send(`${server.url}/in`, { body: 'x'.repeat(900) });
    assert.deepEqual([res.status, res.body], [200, { bytes: 900 }]);
    assert.equal(seen.reduce((a, b) => a + b, 0), 900);
  });

  it('413 for a declared or a streamed body over the limit; 415 for a compressed one', async () => {
    assert.deepEqual([(await send(`${server.url}/in`, { body: 'x'.repeat(1001) })).status], [413]);
    assert.equal((await send(`${server.url}/in`, { body: 'x'.repeat(2000), chunked: true })).status, 413);
    const gz = await send(`${server.url}/in`, { body: 'x', headers: { 'content-encoding': 'gzip' } });
    assert.deepEqual([gz.status, gz.body], [415, { error: 'unsupported_media_type' }]);
  });

  it('408 when the body does not arrive within the read bound, and the slot is freed', async () => {
    const socket = await heldUpload(server.port, 500, 10);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('close', () => resolve(text));
    });
    assert.match(answer, /^HTTP\/1\.1 408/);
    assert.match(answer, /\{"error":"request_timeout"\}/);
    assert.equal((await send(`${server.url}/in`, { body: 'ok' })).status, 200, 'the slot is free again');
  });

  it('one reader at a time: the next waits unread, a third beyond the queue is 503 with Retry-After', async () => {
    const holder = await heldUpload(server.port, 500, 10);
    await sleep(50);
    const waiting = send(`${server.url}/in`, { body: 'second' });
    await sleep(50);
    const third = await send(`${server.url}/in`, { body: 'third' });
    assert.deepEqual([third.status, third.body, third.headers['retry-after']], [503, { error: 'busy' }, '1']);
    holder.destroy(); // the reader's sender hangs up: its slot goes to the one waiting
    const second = await waiting;
    assert.deepEqual([second.status, second.body], [200, { bytes: 6 }]);
  });

  it('a request waiting for a slot that hangs up gives its place back at once', async () => {
    const holder = await heldUpload(server.port, 500, 10);
    await sleep(50);
    const quitter = await heldUpload(server.port, 500, 0);
    await sleep(50);
    quitter.destroy();
    await sleep(50);
    // The queue (one place) is free again: this request waits for the slot instead of being refused.
    const next = send(`${server.url}/in`, { body: 'next' });
    await sleep(50);
    holder.destroy();
    assert.equal((await next).status, 200);
  });
});
