import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hasControlCharacter, spaceControlCharacters } from '../../server/http/control-characters.js';

/** The decision, spelled out as code points: C0, DEL, C1, LINE SEPARATOR, PARAGRAPH SEPARATOR. */
const refused = (cp: number): boolean => cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || cp === 0x2028 || cp === 0x2029;

describe('hasControlCharacter (the one "no control character" rule)', () => {
  it('refuses exactly C0, DEL, C1, U+2028 and U+2029 among all code points', () => {
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (hasControlCharacter(String.fromCodePoint(cp)) !== refused(cp)) assert.fail(`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
    }
  });

  it('is the Unicode category Cc plus Zl and Zp, on any string (lone surrogates included)', () => {
    const cc = /\p{Cc}/u;
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary-ascii' }), fc.string({ unit: fc.integer({ min: 0, max: 0x2100 }).map((c) => String.fromCharCode(c)) })), (s) => {
        assert.equal(hasControlCharacter(s), cc.test(s) || s.includes('\u2028') || s.includes('\u2029'), JSON.stringify(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds one control character anywhere in a long string', () => {
    const long = 'a'.repeat(100_000);
    for (const c of ['\u0085', '\u009b', '\u0000', '\u2029']) {
      assert.equal(hasControlCharacter(`${long}${c}`), true);
      assert.equal(hasControlCharacter(`${c}${long}`), true);
    }
    assert.equal(hasControlCharacter(`${long}\u00a0\u202e\u200d\u{1f600}`), false);
  });
});

describe('spaceControlCharacters (the same rule, for text written on one line)', () => {
  it('makes each run of refused characters one space and leaves everything else', () => {
    assert.equal(spaceControlCharacters('a\r\n\u0085b\u2028c\u2029\u0000d'), 'a b c d');
    assert.equal(spaceControlCharacters('\u202e\u200d\u00a0\u{1f600} ok'), '\u202e\u200d\u00a0\u{1f600} ok');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => assert.equal(hasControlCharacter(spaceControlCharacters(s)), false)),
      { numRuns: 1000 },
    );
  });
});
