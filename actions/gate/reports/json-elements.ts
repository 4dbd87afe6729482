import { readSync } from 'node:fs';
import { isSpace, JsonSyntaxError } from './json-reader.js';
import type { NumberList } from './number-list.js';

/** One element: its value and its exact byte range (white space and commas excluded). */
export interface ReadElement {
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

/** Elements parsed by one JSON.parse call: fewer calls, and few results alive at once. */
const BATCH = 16;

/**
 * The elements of a JSON array read again from the file once their starts are known: each one's
 * bytes run from its start to the comma before the next start (or to the array's `]`, the last
 * byte before `arrayEnd`), white space trimmed. No byte is scanned in JavaScript, which is most of
 * what reading element by element costs beside JSON.parse. Consecutive elements in the buffer
 * are parsed together, as the array they are part of (`[` + their bytes, separators included, +
 * `]`): the bytes between them are only commas and white space, so that array holds exactly
 * these values when each element is valid JSON; when the batch is refused, its elements are
 * parsed one by one and the first invalid one is reported. The bytes come through one buffer,
 * refilled from the element being read, so only the largest element has to fit in it. A file
 * that no longer has a comma (or the `]`) where the first pass saw one has changed since: refused.
 */
export function* readElements(fd: number, starts: NumberList, arrayEnd: number, chunkBytes = 1 << 16): Generator<ReadElement, void, undefined> {
  let buffer = Buffer.allocUnsafe(chunkBytes);
  /** File offset of `buffer[0]`, and how many bytes from there are filled. */
  let base = 0;
  let filled = 0;
  /** Where each element of the batch ends, relative to `buffer`. */
  const ends: number[] = [];
  for (let i = 0; i < starts.length; ) {
    let count = 0;
    for (let k = i; k < starts.length && count < BATCH; k++, count++) {
      const start = starts.at(k);
      // The separator: a comma before the next element, or the array's closing bracket.
      const last = k + 1 === starts.length;
      const boundary = last ? arrayEnd - 1 : starts.at(k + 1);
      const need = boundary + (last ? 1 : 0);
      if (start < base || need > base + filled) {
        if (count > 0) break;
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
      ends[count] = end;
    }
    let values: unknown[] | undefined;
    if (count > 1) {
      try {
        const parsed: unknown = JSON.parse(`[${buffer.toString('utf8', starts.at(i) - base, ends[count - 1])}]`);
        if (Array.isArray(parsed) && parsed.length === count) values = parsed;
      } catch {
        // One of them is not valid JSON: found below.
      }
    }
    for (let k = 0; k < count; k++, i++) {
      const start = starts.at(i);
      const end = ends[k]!;
      let value: unknown;
      if (values) value = values[k];
      else {
        try {
          value = JSON.parse(buffer.toString('utf8', start - base, end));
        } catch {
          // JSON.parse's own message quotes the text; only the offset is kept.
          throw new JsonSyntaxError(`invalid JSON value at byte ${start}`);
        }
      }
      yield { value, start, end: base + end };
    }
  }
}

function changed(at: number): JsonSyntaxError {
  return new JsonSyntaxError(`the report changed at byte ${at} since it was first read`);
}
