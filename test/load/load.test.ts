import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fittedGrowth, soakLedger, soakToken } from '../../bench/soak.js';

// The load suite's short form (the 30 s form runs under `npm run bench`): the real backend process
// at concurrency 100 for a few seconds must answer every request; memory is sampled as it runs
// (the growth verdict needs the long form: a few seconds show warm-up, not a trend).
const SHORT = { seconds: 3, connections: 100, viaTsx: true };
const PROC = existsSync('/proc/self/status');

describe('load (short form)', function () {
  this.timeout(60_000);

  it('/token: every request answered 2xx, one platform call each, memory sampled', async () => {
    // The fill's tokens come before the sampled run and are not counted in it.
    const r = await soakToken({ ...SHORT, fillAudit: 500 });
    assert.ok(r.requests > 100, `only ${r.requests} requests`);
    assert.equal(r.errors, 0);
    assert.equal(r.non2xx, 0);
    // A mint per answered request, plus one installation lookup (then cached); requests still in
    // flight when the run stopped may have minted too, so the sent count bounds it from above.
    assert.ok(r.platformCalls >= r.requests && r.platformCalls <= r.sent + 1, `${r.platformCalls} calls, ${r.requests} answered, ${r.sent} sent`);
    if (PROC) assert.ok(r.rssSamples.length >= 2, `${r.rssSamples.length} samples`);
    assert.ok(r.heapSamples.length >= 2, `${r.heapSamples.length} retained-heap samples`);
  });

  it('the ledger: writes and reads at once, every request answered 2xx', async () => {
    const r = await soakLedger(SHORT);
    assert.ok(r.requests > 100, `only ${r.requests} requests`);
    assert.equal(r.errors, 0);
    assert.equal(r.non2xx, 0);
    if (PROC) assert.ok(r.rssSamples.length >= 2, `${r.rssSamples.length} samples`);
    assert.ok(r.heapSamples.length >= 2, `${r.heapSamples.length} retained-heap samples`);
  });

  it('memory trend: a flat series is no growth, a rising one is', () => {
    assert.equal(fittedGrowth([100, 100, 100, 100]), 0);
    assert.ok(Math.abs(fittedGrowth([100, 110, 120, 130]) - 0.3) < 1e-9);
    assert.ok(fittedGrowth([100, 90, 110, 95, 105, 100]) < 0.05);
  });
});
