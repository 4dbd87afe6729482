const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** ASCII code → 6-bit value of the standard alphabet (RFC 4648 §4); 64 for anything else. */
const VALUE = new Uint8Array(128).fill(64);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

const valueOf = (code: number): number => (code < 128 ? VALUE[code]! : 64);

/**
 * Canonical base64, the form every encoder writes and strict decoders (Ruby's `strict_decode64`)
 * demand: standard alphabet, length a multiple of 4, `=` only as the last one or two characters,
 * and zero bits under the padding (RFC 4648 §3.5). The empty string (an empty file) is valid.
 *
 * A single pass over the characters: the pattern this replaces recursed once per four characters
 * and overflowed the stack on contents above about 3.2 MiB, well below the 8 MB body limit.
 */
export function isBase64(s: string): boolean {
  if (s.length % 4 !== 0) return false;
  const padding = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const end = s.length - padding;
  for (let i = 0; i < end; i++) {
    if (valueOf(s.charCodeAt(i)) === 64) return false;
  }
  if (padding === 0) return true;
  // Before `==` the last character carries 4 bits no byte uses, before `=` it carries 2.
  return (valueOf(s.charCodeAt(end - 1)) & (padding === 2 ? 0b1111 : 0b11)) === 0;
}
