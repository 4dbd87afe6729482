import assert from 'node:assert/strict';
import { createdOnce } from '../../server/store/created-once.js';

describe('createdOnce (the MongoDB stores\' indexes)', () => {
  it('runs the creation once for every caller, concurrent or later', async () => {
    let runs = 0;
    const ensure = createdOnce(async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return 'index names';
    });
    const answers = await Promise.all([ensure(), ensure(), ensure()]);
    assert.deepEqual(answers, [undefined, undefined, undefined]);
    await ensure();
    assert.equal(runs, 1);
  });

  it('does not keep a failure: the callers waiting on it see it, the next caller tries again', async () => {
    let runs = 0;
    const ensure = createdOnce(async () => {
      runs++;
      if (runs === 1) throw new Error('not primary');
    });
    const waiting = await Promise.allSettled([ensure(), ensure()]);
    assert.deepEqual(
      waiting.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'fulfilled')),
      ['not primary', 'not primary'],
    );
    assert.equal(runs, 1);
    await ensure();
    await ensure();
    assert.equal(runs, 2);
  });
});
