/**
 * A hash of one diff line's text after whitespace normalisation, computed on its bytes as they
 * arrive (a line may be cut across reads): leading and trailing whitespace (CR included) dropped,
 * inner runs of whitespace counted as one space. So `\tfoo(a,  b)\r` and `foo(a, b)` hash alike,
 * and `foo(a,b)` does not. Two 32-bit multiplicative hashes make one 53-bit number: a Set of them
 * stays small (no line text is kept), and a collision, which would let a finding pass as moved,
 * is about one in 10^15 per pair of lines.
 */
export class LineHasher {
  private h1 = 0;
  private h2 = 0;
  private started = false;
  private space = false;
  /** The line holds a letter, a digit or a non-ASCII byte: blank lines and lone brackets do not. */
  meaningful = false;

  reset(): void {
    this.h1 = 0x811c9dc5;
    this.h2 = 0x9747b28c;
    this.started = false;
    this.space = false;
    this.meaningful = false;
  }

  feed(buf: Uint8Array, start: number, end: number): void {
    let { h1, h2, started, space, meaningful } = this;
    for (let i = start; i < end; i++) {
      const b = buf[i]!;
      // space, tab, CR, vertical tab, form feed
      if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0b || b === 0x0c) {
        if (started) space = true;
        continue;
      }
      if (space) {
        h1 = Math.imul(h1 ^ 0x20, 0x01000193);
        h2 = Math.imul(h2 ^ 0x20, 0x5bd1e995);
        h2 ^= h2 >>> 15;
        space = false;
      }
      h1 = Math.imul(h1 ^ b, 0x01000193);
      h2 = Math.imul(h2 ^ b, 0x5bd1e995);
      h2 ^= h2 >>> 15;
      started = true;
      if (!meaningful && (b >= 0x80 || (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a))) meaningful = true;
    }
    this.h1 = h1;
    this.h2 = h2;
    this.started = started;
    this.space = space;
    this.meaningful = meaningful;
  }

  /** The line's hash: a non-negative integer below 2^53. */
  digest(): number {
    return (this.h1 >>> 0) * 0x200000 + (this.h2 >>> 11);
  }
}
