import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NumberList } from '../../actions/gate/reports/number-list.js';

describe('NumberList', () => {
  it('property: keeps every number pushed, in order, across its blocks (integers below 2^53 exactly)', () => {
    fc.assert(
      fc.property(fc.array(fc.maxSafeNat(), { maxLength: 10_000, size: 'max' }), (values) => {
        const list = new NumberList();
        for (const v of values) list.push(v);
        assert.equal(list.length, values.length);
        values.forEach((v, i) => assert.equal(list.at(i), v));
      }),
      { numRuns: 30 },
    );
  });

  it('property: sorted().includes answers as a Set of the same numbers does', () => {
    fc.assert(
      fc.property(fc.array(fc.maxSafeNat(), { maxLength: 9000, size: 'max' }), fc.array(fc.maxSafeNat(), { maxLength: 50 }), (values, others) => {
        const list = new NumberList();
        for (const v of values) list.push(v);
        const set = new Set(values);
        const sorted = list.sorted();
        for (const v of [...values.slice(0, 200), ...others, ...values.map((v) => v + 1).slice(0, 50)]) assert.equal(sorted.includes(v), set.has(v), String(v));
      }),
      { numRuns: 50 },
    );
  });

  it('an empty list includes nothing', () => {
    assert.equal(new NumberList().sorted().includes(0), false);
  });
});
