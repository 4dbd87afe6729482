import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileGlob } from '../../../server/broker/policy/glob.js';
import { PROPERTY_SUITE_TIMEOUT_MS } from '../../support/properties.js';

/**
 * The definition, written as directly as possible: `**` consumes any characters, `*` any
 * characters up to a `/`, anything else itself. Exponential, so only for short strings.
 */
function reference(pattern: string, value: string): boolean {
  if (pattern === '') return value === '';
  if (pattern.startsWith('**')) {
    for (let i = 0; i <= value.length; i++) if (reference(pattern.slice(2), value.slice(i))) return true;
    return false;
  }
  if (pattern[0] === '*') {
    for (let i = 0; i <= value.length; i++) {
      if (i > 0 && value[i - 1] === '/') return false;
      if (reference(pattern.slice(1), value.slice(i))) return true;
    }
    return false;
  }
  return value !== '' && pattern[0] === value[0] && reference(pattern.slice(1), value.slice(1));
}

const chars = (alphabet: string[], maxLength: number) => fc.array(fc.constantFrom(...alphabet), { maxLength }).map((a) => a.join(''));
const patternArb = chars(['a', 'b', '/', '.', '-', '*', '*', 'é', '😀'], 12);
const valueArb = chars(['a', 'b', '/', '.', '-', 'é', '😀'], 14);
const segmentArb = chars(['a', 'b', '.', 'é'], 4);
const anyArb = chars(['a', 'b', '/', '.'], 6);

/** A value the pattern must match: each `**` replaced by anything, each `*` by text without `/`. */
const instanceArb = patternArb.chain((pattern) => {
  const parts = pattern.split(/(\*\*|\*)/);
  return fc.tuple(...parts.map((part) => (part === '**' ? anyArb : part === '*' ? segmentArb : fc.constant(part)))).map((filled) => ({ pattern, value: filled.join('') }));
});

describe('policy glob matching (property)', function () {
  this.timeout(PROPERTY_SUITE_TIMEOUT_MS);
  it('agrees with the reference definition on any pattern and value', () => {
    fc.assert(
      fc.property(patternArb, valueArb, (pattern, value) => {
        assert.equal(compileGlob(pattern)(value), reference(pattern, value), `${JSON.stringify(pattern)} on ${JSON.stringify(value)}`);
      }),
      { numRuns: 5000 },
    );
  });

  it('matches every value made from the pattern by filling its wildcards', () => {
    fc.assert(
      fc.property(instanceArb, ({ pattern, value }) => {
        assert.equal(compileGlob(pattern)(value), true, `${JSON.stringify(pattern)} on ${JSON.stringify(value)}`);
        assert.equal(reference(pattern, value), true);
      }),
      { numRuns: 3000 },
    );
  });

  it('a pattern without a wildcard matches exactly itself', () => {
    fc.assert(
      fc.property(valueArb, valueArb, (pattern, value) => {
        assert.equal(compileGlob(pattern)(value), pattern === value);
      }),
    );
  });

  it('a single * never crosses a /, and ** does', () => {
    fc.assert(
      fc.property(segmentArb, segmentArb, (left, right) => {
        assert.equal(compileGlob('refs/heads/*')(`refs/heads/${left}/${right}`), false);
        assert.equal(compileGlob('refs/heads/**')(`refs/heads/${left}/${right}`), true);
        assert.equal(compileGlob('refs/*/main')(`refs/${left}/main`), !left.includes('/'));
      }),
    );
  });

  it('examples of the policy reference', () => {
    const cases: [string, string, boolean][] = [
      ['refs/tags/v*', 'refs/tags/v1.2.3', true],
      ['refs/tags/v*', 'refs/tags/v1/evil', false],
      ['refs/tags/v*', 'refs/heads/v1', false],
      ['refs/heads/release/**', 'refs/heads/release/2024/q1', true],
      ['acme/*/.github/workflows/deploy.yml@refs/heads/main', 'acme/widgets/.github/workflows/deploy.yml@refs/heads/main', true],
      ['acme/*/.github/workflows/deploy.yml@refs/heads/main', 'acme/widgets/.github/workflows/deploy.yml@refs/heads/feature', false],
      ['*', '', true],
      ['*', 'a/b', false],
      ['**', 'a/b', true],
      ['*a*a*a*a*a*a*b', 'a'.repeat(5000), false],
    ];
    for (const [pattern, value, expected] of cases) assert.equal(compileGlob(pattern)(value), expected, `${pattern} on ${value.slice(0, 40)}`);
  });
});
