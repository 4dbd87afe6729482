import { readSync } from 'node:fs';
import { isSpace, JsonSyntaxError } from './json-reader.js';
import type { NumberList } from './number-list.js';

/** One element: its value and its exact byte range (white space and commas excluded). */
export interface ReadElement {
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

/**
 * The elements of a JSON array read again from the file once their starts are known: each one's
 * bytes run from its start to the comma before the next start (or to the array's `]`, the last
 * byte before `arrayEnd`), white space trimmed, and go straight to JSON.parse. No byte is scanned
 * in JavaScript, which is most of what reading element by element costs beside JSON.parse. The
 * bytes come through one buffer, refilled from the element being read, so only the largest
 * element has to fit in it. A file that no longer has a comma (or the `]`) where the first pass
 * saw one has changed since: refused.
 */
export function* readElements(fd: number, starts: NumberList, arrayEnd: number, chunkBytes = 1 << 16): Generator<ReadElement, void, undefined> {
  let buffer = Buffer.allocUnsafe(chunkBytes);
  /** File offset of `buffer[0]`, and how many bytes from there are filled. */
  let base = 0;
  let filled = 0;
  for (let i = 0; i < starts.length; i++) {
    const start = starts.at(i);
    // The separator: a comma before the next element, or the array's closing bracket.
    const last = i + 1 === starts.length;
    const boundary = last ? arrayEnd - 1 : starts.at(i + 1);
    const need = boundary + (last ? 1 : 0);
    if (start < base || need > base + filled) {
      if (need - start > buffer.length) buffer = Buffer.allocUnsafe(Math.max(need - start, buffer.length * 2));
      base = start;
      filled = readSync(fd, buffer, 0, buffer.length, start);
      if (filled < need - start) throw new JsonSyntaxError(`the report ended at byte ${start + filled} while it was read again`);
    }
    let end = boundary - base;
    if (last) {
      if (buffer[end] !== 0x5d) throw changed(boundary);
    } else {
      while (isSpace(buffer[end - 1])) end--;
      if (buffer[end - 1] !== 0x2c) throw changed(base + end - 1);
      end--;
    }
    while (end > start - base && isSpace(buffer[end - 1])) end--;
    let value: unknown;
    try {
      value = JSON.parse(buffer.toString('utf8', start - base, end));
    } catch {
      // JSON.parse's own message quotes the text; only the offset is kept.
      throw new JsonSyntaxError(`invalid JSON value at byte ${start}`);
    }
    yield { value, start, end: base + end };
  }
}

function changed(at: number): JsonSyntaxError {
  return new JsonSyntaxError(`the report changed at byte ${at} since it was first read`);
}
