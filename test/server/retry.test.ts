import assert from 'node:assert/strict';
import { delayBefore, retryAfterMs, retrying, SYNC_RETRY, type RetryPolicy } from '../../server/http/retry.js';

/** A clock that records its waits and does not wait. */
function recordingClock() {
  const waits: number[] = [];
  return { waits, now: () => Date.now(), sleep: async (ms: number) => void waits.push(ms) };
}

class Failure extends Error {
  constructor(
    readonly transient: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(transient ? 'try again' : 'final');
  }
}

const POLICY: RetryPolicy = { retries: 3, minDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

describe('the one retry helper (server/http/retry.ts, p-retry)', () => {
  it('retries what shouldRetry accepts, up to the policy, waiting the back-off on the injected clock and reporting each retry', async () => {
    const clock = recordingClock();
    const retries: [string, number, number][] = [];
    let attempts = 0;
    const result = await retrying(
      async (n) => {
        attempts = n;
        if (n < 3) throw new Failure(true);
        return 'done';
      },
      POLICY,
      { shouldRetry: (e) => e instanceof Failure && e.transient, onRetry: (e, retry, delayMs) => retries.push([e.message, retry, delayMs]), clock },
    );
    assert.equal(result, 'done');
    assert.equal(attempts, 3);
    assert.deepEqual(retries.map(([m, n]) => [m, n]), [
      ['try again', 1],
      ['try again', 2],
    ]);
    assert.deepEqual(clock.waits, retries.map(([, , ms]) => ms));
    assert.ok(clock.waits[0]! >= 50 && clock.waits[0]! <= 100 && clock.waits[1]! >= 100 && clock.waits[1]! <= 200, String(clock.waits));
  });

  it('never sooner than a Retry-After the failure carries; one longer than maxRetryAfterMs ends the retries at once', async () => {
    const clock = recordingClock();
    let attempts = 0;
    await assert.rejects(
      retrying(
        async () => {
          attempts++;
          throw new Failure(true, attempts === 1 ? 3000 : 9000);
        },
        POLICY,
        { clock },
      ),
      (err: unknown) => err instanceof Failure && err.retryAfterMs === 9000,
    );
    assert.equal(attempts, 2);
    assert.deepEqual(clock.waits, [3000]);
  });

  it('a failure shouldRetry refuses, and the last failure after the retries, are thrown as they are', async () => {
    const clock = recordingClock();
    let attempts = 0;
    const final = new Failure(false);
    await assert.rejects(
      retrying(async () => {
        attempts++;
        throw final;
      }, POLICY, { shouldRetry: (e) => (e as Failure).transient, clock }),
      (err: unknown) => err === final,
    );
    assert.equal(attempts, 1);
    attempts = 0;
    await assert.rejects(
      retrying(async () => {
        attempts++;
        throw new Failure(true);
      }, POLICY, { clock }),
      Failure,
    );
    assert.equal(attempts, 4);
    assert.equal(clock.waits.length, 3);
  });

  it('back-off: half to full of the doubling minimum, capped; a Retry-After above it wins', () => {
    assert.equal(delayBefore(1, SYNC_RETRY, undefined, () => 1), 1000);
    assert.equal(delayBefore(3, SYNC_RETRY, undefined, () => 0), 2000);
    assert.equal(delayBefore(10, SYNC_RETRY, undefined, () => 1), 30_000);
    assert.equal(delayBefore(1, SYNC_RETRY, 45_000, () => 1), 45_000);
  });

  it('reads Retry-After as seconds or an HTTP date, nothing else', () => {
    const now = Date.UTC(2026, 0, 1);
    assert.equal(retryAfterMs('7', now), 7000);
    assert.equal(retryAfterMs(' 120 ', now), 120_000);
    assert.equal(retryAfterMs(new Date(now + 30_000).toUTCString(), now), 30_000);
    assert.equal(retryAfterMs(new Date(now - 30_000).toUTCString(), now), 0);
    assert.equal(retryAfterMs('soon', now), undefined);
    assert.equal(retryAfterMs(undefined, now), undefined);
  });
});
