import { createHash } from 'node:crypto';

/** A short, non-reversible name for a credential, so logs can correlate without holding it. */
export function fingerprint(credential: string): string {
  return createHash('sha256').update(credential).digest('hex').slice(0, 16);
}
