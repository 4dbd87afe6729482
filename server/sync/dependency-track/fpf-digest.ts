import type { Hash } from 'node:crypto';

// An FPF export carries the time it was made (`meta.timestamp`), so two exports of unchanged
// findings differ in that value alone. The digest leaves every `"timestamp"` value out: inside a
// JSON string a quote is escaped, so an unescaped `"timestamp"` followed by a colon is a key.
const TIMESTAMP = /"timestamp"\s*:\s*"[^"\\]*"/g;
/**
 * Held back at each chunk's end, in case a timestamp key and value are cut by it. A match longer
 * than this (a value of over 100 characters) may go in as it is: the digest then differs from run
 * to run and the report is sent, never wrongly kept.
 */
const TAIL = 128;

/** Passes the bytes through unchanged and feeds `hash` with them, every timestamp value emptied. */
export async function* digestingFpf(source: AsyncIterable<Uint8Array>, hash: Hash): AsyncGenerator<Uint8Array> {
  // latin1 maps each byte to one character and back, so the hashed bytes are the export's own.
  let carry = '';
  for await (const chunk of source) {
    const text = (carry + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1')).replace(TIMESTAMP, '"timestamp":""');
    const cut = Math.max(0, text.length - TAIL);
    hash.update(text.slice(0, cut), 'latin1');
    carry = text.slice(cut);
    yield chunk;
  }
  hash.update(carry.replace(TIMESTAMP, '"timestamp":""'), 'latin1');
}
