import { hash } from 'node:crypto';

/**
 * A short, non-reversible name for a credential, so logs can correlate without holding it.
 * `crypto.hash` is the one-shot form.
 */
export function fingerprint(credential: string): string {
  return hash('sha256', credential, 'hex').slice(0, 16);
}
