import { readSync } from 'node:fs';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Malformed JSON. The message gives a byte offset, never the text: a report may hold secrets. */
export class JsonSyntaxError extends Error {}

export interface JsonReaderOptions {
  /** Where to start reading, and where the bytes to read end (file offsets). */
  readonly start?: number;
  readonly end?: number;
  /** Bytes read at a time (tests use tiny chunks to cross every boundary). */
  readonly chunkBytes?: number;
}

/**
 * Reads one JSON text from an open file, front to back, through a small buffer, so a large report
 * is never held whole. The caller walks the structure it cares about (`members`, `elements`) and
 * takes each value with `readValue` (cut out of the bytes and given to the native JSON.parse) or
 * steps over it with `skipValue`. Only the largest single value has to fit in the buffer.
 */
export class JsonReader {
  private buffer: Buffer;
  /** `buffer` cut to the filled bytes, so native searches never look at stale ones. */
  private view: Buffer;
  /** Next unread byte in `buffer`. */
  private pos = 0;
  /** File offset of `buffer[0]`. */
  private base: number;
  private done = false;
  private readonly limit: number;
  private readonly chunkBytes: number;

  constructor(
    private readonly fd: number,
    options: JsonReaderOptions = {},
  ) {
    this.chunkBytes = options.chunkBytes ?? 1 << 16;
    this.buffer = Buffer.allocUnsafe(this.chunkBytes);
    this.view = this.buffer.subarray(0, 0);
    this.base = options.start ?? 0;
    this.limit = options.end ?? Infinity;
  }

  /** File offset of the next unread byte. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** Steps over a UTF-8 byte-order mark, which some Windows tools write before the JSON. */
  skipByteOrderMark(): void {
    while (this.view.length - this.pos < 3 && this.more());
    if (this.view[this.pos] === 0xef && this.view[this.pos + 1] === 0xbb && this.view[this.pos + 2] === 0xbf) this.pos += 3;
  }

  /** The next byte that is not white space, left unread; -1 at the end. */
  peek(): number {
    for (;;) {
      const view = this.view;
      while (this.pos < view.length) {
        const c = view[this.pos]!;
        if (!isSpace(c)) return c;
        this.pos++;
      }
      if (!this.more()) return -1;
    }
  }

  /** Fails unless only white space is left. */
  expectEnd(): void {
    if (this.peek() !== -1) throw this.error('unexpected data after the JSON value');
  }

  /** The members of the object that comes next: yields each key; the caller must take its value. */
  *members(): Generator<string, void, undefined> {
    this.expect(OPEN_BRACE, "'{'");
    if (this.peek() === CLOSE_BRACE) {
      this.pos++;
      return;
    }
    for (;;) {
      if (this.peek() !== QUOTE) throw this.error('expected a property name');
      const key = this.readValue() as string;
      this.expect(COLON, "':'");
      yield key;
      if (this.separator(CLOSE_BRACE, "',' or '}'")) return;
    }
  }

  /** The elements of the array that comes next: yields before each; the caller must take it. */
  *elements(): Generator<void, void, undefined> {
    this.expect(OPEN_BRACKET, "'['");
    if (this.peek() === CLOSE_BRACKET) {
      this.pos++;
      return;
    }
    for (;;) {
      yield;
      if (this.separator(CLOSE_BRACKET, "',' or ']'")) return;
    }
  }

  /**
   * Steps over the array that comes next, calling `onElement` with the file offset of each
   * element's first byte: `elements()` and `skipValue()` in one loop, without a generator step per
   * element (the first pass's overhead on a report's results).
   */
  skipArray(onElement: (offset: number) => void): void {
    this.expect(OPEN_BRACKET, "'['");
    if (this.peek() === CLOSE_BRACKET) {
      this.pos++;
      return;
    }
    do {
      this.peek();
      onElement(this.base + this.pos);
      this.nextValue();
    } while (!this.separator(CLOSE_BRACKET, "',' or ']'"));
  }

  /** Parses the next value. */
  readValue(): unknown {
    const [start, end] = this.nextValue();
    try {
      return JSON.parse(this.view.toString('utf8', start, end));
    } catch {
      // JSON.parse's own message quotes the text; only the offset is kept.
      throw this.error('invalid JSON value', start);
    }
  }

  /** Steps over the next value without parsing it (its brackets and strings are still matched). */
  skipValue(): void {
    this.nextValue();
  }

  /** The bounds of the next value in `view`, after which reading resumes. */
  private nextValue(): [number, number] {
    if (this.peek() === -1) throw this.error('unexpected end of the JSON text');
    for (;;) {
      const end = this.valueEnd(this.pos);
      if (end >= 0) {
        const start = this.pos;
        this.pos = end;
        return [start, end];
      }
      if (!this.more()) throw this.error('unexpected end of the JSON text');
    }
  }

  private expect(byte: number, what: string): void {
    if (this.peek() !== byte) throw this.error(`expected ${what}`);
    this.pos++;
  }

  /** After a member or element: true at the closing byte, false after a comma. */
  private separator(close: number, what: string): boolean {
    const c = this.peek();
    this.pos++;
    if (c === COMMA) return false;
    if (c === close) return true;
    this.pos--;
    throw this.error(`expected ${what}`);
  }

  /** Where the value starting at `from` ends, or -1 when more bytes are needed to know. */
  private valueEnd(from: number): number {
    const view = this.view;
    const first = view[from];
    if (first === QUOTE) return this.stringEnd(from);
    if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
      // A number or literal runs to the next delimiter; JSON.parse judges the bytes.
      for (let i = from; i < view.length; i++) {
        const c = view[i];
        if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === COLON || isSpace(c)) return i;
      }
      return this.done ? view.length : -1;
    }
    let depth = 0;
    for (let i = from; i < view.length; ) {
      const c = view[i]!;
      if (c === QUOTE) {
        i = this.stringEnd(i);
        if (i < 0) return -1;
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
      i++;
    }
    return -1;
  }

  /** The offset after the string opening at `from`, found with the native byte search. */
  private stringEnd(from: number): number {
    const view = this.view;
    for (let q = from + 1; ; q++) {
      q = view.indexOf(QUOTE, q);
      if (q < 0) return -1;
      let escapes = 0;
      while (view[q - 1 - escapes] === BACKSLASH) escapes++;
      if (escapes % 2 === 0) return q + 1;
    }
  }

  /**
   * Reads more bytes, keeping the unread ones. The buffer grows so that its free room is never
   * smaller than what it holds: a value longer than a chunk is rescanned at most about twice.
   */
  private more(): boolean {
    if (this.done) return false;
    const kept = this.view.length - this.pos;
    if (this.pos > 0) {
      this.buffer.copy(this.buffer, 0, this.pos, this.view.length);
      this.base += this.pos;
      this.pos = 0;
    }
    if (this.buffer.length - kept < Math.max(this.chunkBytes, kept)) {
      const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, kept * 2 + this.chunkBytes));
      this.buffer.copy(larger, 0, 0, kept);
      this.buffer = larger;
    }
    const room = Math.min(this.buffer.length - kept, this.limit - (this.base + kept));
    const read = room > 0 ? readSync(this.fd, this.buffer, kept, room, this.base + kept) : 0;
    this.view = this.buffer.subarray(0, kept + read);
    if (read === 0) this.done = true;
    return read > 0;
  }

  private error(message: string, at = this.pos): JsonSyntaxError {
    return new JsonSyntaxError(`${message} at byte ${this.base + at}`);
  }
}
