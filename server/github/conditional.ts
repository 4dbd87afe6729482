import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** A GitHub answer kept to be used again when GitHub says `304 Not Modified`. */
export interface KeptAnswer {
  readonly etag: string;
  readonly status: number;
  readonly url: string;
  readonly headers: Record<string, unknown>;
  readonly data: unknown;
}

/** The default bound of the kept answers: past it the least recently used go (and are asked for in full again). */
const DEFAULT_CONDITIONAL_BYTES = 128 * 1048576;

/**
 * GitHub answers to GET requests with their ETags, for conditional requests (`If-None-Match`):
 * an unchanged list answers `304` and does not count against the primary rate limit. Kept in the
 * process only (the sync keeps no state of its own), bounded by size, and keyed by the token's
 * hash as well as the URL, since two tokens may see different answers; no token is kept.
 */
export class ConditionalAnswers {
  private readonly kept: LRUCache<string, KeptAnswer>;
  /** Answers that came back `304`, and those that came back in full (for the logs). */
  notModified = 0;
  full = 0;

  constructor(maxBytes = DEFAULT_CONDITIONAL_BYTES) {
    this.kept = new LRUCache<string, KeptAnswer>({
      maxSize: maxBytes,
      // The body's size as JSON, which is what GitHub sent.
      sizeCalculation: (answer) => Math.max(1, JSON.stringify(answer.data)?.length ?? 1),
    });
  }

  static key(token: string, url: string): string {
    return `${createHash('sha256').update(token).digest('hex').slice(0, 32)} ${url}`;
  }

  get(key: string): KeptAnswer | undefined {
    return this.kept.get(key);
  }

  /** Keeps an answer that carries an ETag; one without is forgotten (its URL changed meaning). */
  keep(key: string, answer: Omit<KeptAnswer, 'etag'>): void {
    const etag = answer.headers.etag;
    if (typeof etag === 'string' && etag !== '') this.kept.set(key, { ...answer, etag });
    else this.kept.delete(key);
  }
}
