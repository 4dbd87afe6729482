import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isBase64 } from '../../server/broker/base64.js';

/** The reference: canonical base64 is exactly what survives a decode and re-encode unchanged. */
const canonical = (s: string): boolean => Buffer.from(s, 'base64').toString('base64') === s;

/** Strings near base64: its alphabet, padding, the URL-safe pair, whitespace, and anything else. */
const nearBase64 = fc.oneof(
  fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b).toString('base64')),
  fc.base64String({ maxLength: 60 }),
  fc.string({ unit: fc.constantFrom(...'AQgwBCDEabz09+/=-_ \n\r\t.'.split('')), maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  // A valid value with one character swapped, dropped or added.
  fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 30 }), fc.nat(), fc.string({ unit: 'binary', maxLength: 2 })).map(([b, at, put]) => {
    const s = Buffer.from(b).toString('base64');
    const i = at % s.length;
    return `${s.slice(0, i)}${put}${s.slice(i + 1)}`;
  }),
);

describe('isBase64 (the /sign contents check)', () => {
  it('agrees with a decode and re-encode on random strings', () => {
    fc.assert(
      fc.property(nearBase64, (s) => assert.equal(isBase64(s), canonical(s), JSON.stringify(s))),
      { numRuns: 5000 },
    );
  });

  it('accepts every encoding of random bytes, the empty one included', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 100 }), (b) => assert.ok(isBase64(Buffer.from(b).toString('base64')))));
    assert.ok(isBase64(''));
  });

  it('refuses bits under the padding, padding inside, the URL-safe alphabet and whitespace', () => {
    for (const s of ['eB==', 'eAB=', 'eA==eA==', '=AAA', 'A===', '====', 'eA', 'eA=', 'eA-_', 'eA_=', 'eA==\n', 'e A=', '\u0100AAA', 'ÀAAA']) {
      assert.equal(isBase64(s), false, JSON.stringify(s));
    }
  });

  it('checks 11 MB of base64 (more than the 8 MB body holds) without running out of stack', () => {
    const valid = Buffer.alloc(8 * 1024 * 1024, 0xa5).toString('base64');
    assert.equal(isBase64(valid), true);
    assert.equal(isBase64(`${valid.slice(0, -4)}AA!A`), false);
  });
});
