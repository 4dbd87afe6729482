// Every FPF finding carries exactly one `matrix` key. Inside a JSON string a quote is escaped, so
// the unescaped `"matrix"` followed by a colon can only be a key: counting it counts findings
// without parsing. Bytes are searched in place (no string per chunk), keeping the allocation of
// a large export close to the chunks themselves.
const KEY = Buffer.from('"matrix"');
const COLON = 0x3a;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Counts keys in `bytes`; returns the count and where the unfinished tail starts (a key cut by the chunk end). */
function scan(bytes: Buffer): { count: number; tailFrom: number } {
  let count = 0;
  let from = 0;
  for (;;) {
    const at = bytes.indexOf(KEY, from);
    if (at < 0) return { count, tailFrom: Math.max(from, bytes.length - KEY.length + 1) };
    let next = at + KEY.length;
    while (next < bytes.length && WHITESPACE.has(bytes[next]!)) next++;
    if (next >= bytes.length) return { count, tailFrom: at };
    if (bytes[next] === COLON) count++;
    from = at + 1;
  }
}

/** Passes the bytes through unchanged and counts the findings in them as they go by. */
export function countingFindings(source: AsyncIterable<Uint8Array>): { stream: AsyncGenerator<Uint8Array>; count: () => number } {
  let count = 0;
  async function* stream(): AsyncGenerator<Uint8Array> {
    let tail: Buffer = Buffer.alloc(0);
    for await (const chunk of source) {
      const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const bytes = tail.length > 0 ? Buffer.concat([tail, view]) : view;
      const found = scan(bytes);
      count += found.count;
      // Copied, so the tail never pins the chunk it came from.
      tail = Buffer.from(bytes.subarray(found.tailFrom));
      yield chunk;
    }
  }
  return { stream: stream(), count: () => count };
}
