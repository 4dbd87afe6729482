import type { Env } from './config-error.js';

/**
 * The process environment as per-request settings read it: a copy taken at most once per
 * `refreshMs`. Every read of `process.env` calls into the runtime and copies the value, and a
 * request reads a dozen settings, `BROKER_POLICY` (up to about 100 KB) among them. A changed
 * variable still applies within a second.
 */
export function environmentSnapshot(refreshMs = 1000, now: () => number = Date.now): () => Env {
  let copy: Env | undefined;
  let takenAt = Number.NEGATIVE_INFINITY;
  return () => {
    const t = now();
    if (!copy || t - takenAt >= refreshMs) {
      copy = { ...process.env };
      takenAt = t;
    }
    return copy;
  };
}
