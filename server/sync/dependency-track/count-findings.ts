// Every FPF finding carries exactly one `matrix` key. Inside a JSON string a quote is escaped, so
// the unescaped `"matrix":` can only be a key: counting it counts findings without parsing.
const KEY = /"matrix"\s*:/g;
const CARRY = 16;

/** Passes the bytes through unchanged and counts the findings in them as they go by. */
export function countingFindings(source: AsyncIterable<Uint8Array>): { stream: AsyncGenerator<Uint8Array>; count: () => number } {
  let count = 0;
  async function* stream(): AsyncGenerator<Uint8Array> {
    let tail = '';
    for await (const chunk of source) {
      // latin1 keeps one character per byte; the key is ASCII, and UTF-8 multi-byte units never match it.
      const text = tail + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
      let last = -1;
      for (const match of text.matchAll(KEY)) {
        count++;
        last = match.index + match[0].length;
      }
      const keep = Math.max(last, text.length - CARRY);
      tail = text.slice(Math.max(0, keep));
      yield chunk;
    }
  }
  return { stream: stream(), count: () => count };
}
