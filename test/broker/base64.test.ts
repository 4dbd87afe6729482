import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseSignRequest } from '../../server/broker/sign-commit.js';
import { AppError } from '../../server/http/errors.js';

/** Whether `/sign` takes `contents` for a file; a refusal of anything but the contents fails the test. */
function isBase64(contents: string): boolean {
  try {
    parseSignRequest({ repo: 'octo/app', branch: 'main', expected_head_oid: 'a'.repeat(40), message: { headline: 'x' }, additions: [{ path: 'a', contents }] });
    return true;
  } catch (err) {
    if (err instanceof AppError && err.extra.message === 'additions[0].contents must be base64') return false;
    throw err;
  }
}

/**
 * The reference, written from RFC 4648 independently of the code: groups of four from the standard
 * alphabet, then optionally two characters and `==` (the second with its low four bits zero) or
 * three and `=` (the third with its low two bits zero).
 */
const CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;
const canonical = (s: string): boolean => CANONICAL.test(s);

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

describe('/sign contents: the canonical base64 check', () => {
  it('agrees with the RFC 4648 grammar of canonical base64 on random strings', () => {
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
