/**
 * A hash of one diff line's text after whitespace normalisation, computed on its bytes as they
 * arrive (a line may be cut across reads): leading and trailing whitespace (CR included) dropped,
 * inner runs of whitespace counted as one space. So `\tfoo(a,  b)\r` and `foo(a, b)` hash alike,
 * and `foo(a,b)` does not. Two 32-bit multiplicative hashes make one 53-bit number: a Set of them
 * stays small (no line text is kept), and a collision, which would let a finding pass as moved,
 * is about one in 10^15 per pair of lines.
 */
/** Byte classes: 1 whitespace (space, tab, CR, vertical tab, form feed), 2 letter, digit or non-ASCII, 0 the rest. */
const CLASS = new Uint8Array(256);
for (const b of [0x20, 0x09, 0x0d, 0x0b, 0x0c]) CLASS[b] = 1;
for (let b = 0; b < 256; b++) if (b >= 0x80 || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) CLASS[b] = 2;

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
    let h1 = this.h1;
    let h2 = this.h2;
    let started = this.started;
    let space = this.space;
    let meaningful = this.meaningful;
    for (let i = start; i < end; i++) {
      const b = buf[i]!;
      const kind = CLASS[b]!;
      if (kind === 1) {
        space = started;
        continue;
      }
      if (space) {
        h1 = Math.imul(h1 ^ 0x20, 0x01000193);
        h2 = Math.imul(h2 ^ 0x20, 0x5bd1e995);
        space = false;
      }
      // Two FNV-1a style hashes with different odd multipliers.
      h1 = Math.imul(h1 ^ b, 0x01000193);
      h2 = Math.imul(h2 ^ b, 0x5bd1e995);
      started = true;
      if (kind === 2) meaningful = true;
    }
    this.h1 = h1;
    this.h2 = h2;
    this.started = started;
    this.space = space;
    this.meaningful = meaningful;
  }

  /** The line's hash: a non-negative integer below 2^53. */
  digest(): number {
    // The second hash's low bits mix least: keep its high 21.
    return (this.h1 >>> 0) * 0x200000 + ((this.h2 ^ (this.h2 >>> 15)) >>> 11);
  }
}
