import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CallerIdentity } from '../../server/auth/verifier.js';
import { deliveryFigures } from '../../server/ledger/delivery-figures.js';
import { createMemoryStore } from '../../server/store/memory.js';
import { historyArbitrary } from '../store/contract.js';
import { referenceMetricsBody } from '../support/figures-reference.js';
import { PROPERTY_SUITE_TIMEOUT_MS } from '../support/properties.js';

describe('ledger figures (property: generated histories against a direct computation)', function () {
  this.timeout(PROPERTY_SUITE_TIMEOUT_MS);
  const now = Date.UTC(2026, 10, 20, 12, 34, 56, 789);

  it('every figure of the metrics answer, for any environment filter and any days from 1 to 365', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(historyArbitrary(now, 'repo'), fc.constantFrom(undefined, 'production', 'staging'), fc.integer({ min: 1, max: 365 }), async (history, environment, days) => {
        const store = createMemoryStore();
        const repositoryId = `repo`;
        for (const r of history) await store.deployments.insert(r, new Date(now));
        const caller = { repository: 'octo-org/app', repositoryId, repositoryOwner: 'octo-org' } as CallerIdentity;
        const body = await deliveryFigures({ store, clock: { now: () => now } }, caller, { days, ...(environment ? { environment } : {}) });
        assert.deepEqual(body, referenceMetricsBody(history, { repositoryId, repository: 'octo-org/app', days, now: new Date(now), ...(environment ? { environment } : {}) }));
        // The daily series: the window's UTC dates in order (days + 1, as the window starts off midnight), adding up to the totals.
        const daily = body.daily as { date: string; success: number; failure: number; rolled_back: number; skipped: number }[];
        const totals = body.deployments as { total: number };
        assert.equal(daily.length, days + 1);
        assert.deepEqual(daily.map((d) => d.date), [...daily.map((d) => d.date)].sort());
        assert.equal(daily.reduce((n, d) => n + d.success + d.failure + d.rolled_back + d.skipped, 0), totals.total);
        run++;
      }),
      { numRuns: 200 },
    );
    assert.equal(run, 200);
  });
});
