const BLOCK = 4096;

/**
 * A list of numbers kept off the JavaScript heap, in fixed blocks of doubles (exact for every
 * integer below 2^53): it grows without copying, and the garbage collector neither scans nor
 * moves it. The gate keeps such lists for every result or diff line, tens of thousands on a large
 * pull request; on the heap, every one that survives a young-generation pass counts towards V8
 * doubling that generation, which the gate's memory target does not allow (docs/gate.md).
 */
export class NumberList {
  private readonly blocks: Float64Array[] = [];
  length = 0;

  push(value: number): void {
    const slot = this.length % BLOCK;
    if (slot === 0) this.blocks.push(new Float64Array(BLOCK));
    this.blocks[this.blocks.length - 1]![slot] = value;
    this.length++;
  }

  at(index: number): number {
    return this.blocks[Math.floor(index / BLOCK)]![index % BLOCK]!;
  }

  /** The numbers in ascending order, for `includes`. */
  sorted(): SortedNumbers {
    const all = new Float64Array(this.length);
    this.blocks.forEach((block, i) => all.set(i === this.blocks.length - 1 ? block.subarray(0, this.length - i * BLOCK) : block, i * BLOCK));
    return new SortedNumbers(all.sort());
  }
}

/** Numbers in ascending order, searched by halving. */
class SortedNumbers {
  constructor(private readonly values: Float64Array) {}

  includes(value: number): boolean {
    let low = 0;
    let high = this.values.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.values[middle]!;
      if (found === value) return true;
      if (found < value) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}
