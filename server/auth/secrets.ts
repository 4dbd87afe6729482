import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares a presented secret with the configured one in constant time, whatever their lengths
 * (both are hashed first, so neither the content nor the length leaks through timing).
 */
export function secretsEqual(presented: string | Buffer, expected: string | Buffer): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
