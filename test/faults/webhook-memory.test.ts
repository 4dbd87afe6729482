import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { slowWebhookAttack } from '../../bench/slow-webhooks.js';

const MB = 1024 * 1024;

// The backend reads webhook bodies before anyone is authenticated. Before the bound on body
// readers, 120 held 10 MB uploads took it from about 120 MB to over 1 GB of resident memory.
describe('faults: 120 slow 10 MB /webhook uploads held open against the backend process', function () {
  this.timeout(90_000);

  it('resident memory grows by less than 64 MB, and /token keeps answering', async function () {
    if (!existsSync('/proc/self/status')) this.skip(); // resident memory is read from /proc
    const r = await slowWebhookAttack({ connections: 120, bodyBytes: 10 * MB, holdSeconds: 5, viaTsx: true });
    const growth = (r.rssPeakBytes - r.rssBeforeBytes) / MB;
    assert.ok(growth < 64, `grew ${growth.toFixed(1)} MB while the uploads were held`);
    assert.ok(r.bytesSent > 100 * MB, `the senders only got ${(r.bytesSent / MB).toFixed(0)} MB out: not an attack`);
    assert.ok(r.tokenCalls >= 5 && r.tokenOk === r.tokenCalls, `${r.tokenOk} of ${r.tokenCalls} /token calls answered 200`);
    assert.ok(r.tokenMaxMs < 5000, `a /token call took ${Math.round(r.tokenMaxMs)} ms`);
  });
});
