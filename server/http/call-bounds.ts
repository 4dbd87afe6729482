import type { CallBounds } from './outbound.js';

/*
 * The default bound of every outbound call, in one place. docs/outbound-calls.md shows them in
 * one table, and a test compares that table with these values.
 */

/** Backend: an issuer's key set (a 503 within this, never a hung /token or ledger call). */
export const KEY_SET_FETCH: CallBounds = { connectMs: 3000, totalMs: 3000 };
/** Backend and minimal broker: one GitHub REST or GraphQL call (installation lookup, mint, listings, update-branch). */
export const PLATFORM_CALL: CallBounds = { connectMs: 5000, totalMs: 10_000 };
/** Backend: `/sign`'s `createCommitOnBranch`, which uploads up to 8 MB of file contents. */
export const PLATFORM_COMMIT: CallBounds = { connectMs: 5000, totalMs: 30_000 };
/** Backend: the ledger's chat webhook; never fails or delays a record beyond this. */
export const CHAT_POST: CallBounds = { connectMs: 3000, totalMs: 3000 };
/** Backend: `GET /releases` crawls many repositories; the whole crawl ends within this. */
export const RELEASES_CRAWL_MS = 60_000;

/** The actions' calls by name: tests shorten them by name, and the docs table lists them so. */
export const ACTION_CALLS = {
  /** The runner's OIDC token endpoint. */
  'runner-oidc': { connectMs: 5000, totalMs: 10_000 },
  /** request-token: `POST /token` to a broker, which may itself spend up to 23 s on its own calls. */
  'broker-token': { connectMs: 5000, totalMs: 30_000 },
  /** request-token's post step: `DELETE /installation/token`. */
  'token-revoke': { connectMs: 5000, totalMs: 10_000 },
  /** record-deployment: `POST /v1/deployments`, retried (the ledger's idempotency makes it safe). */
  'ledger-post': { connectMs: 5000, totalMs: 10_000 },
  /** record-deployment: `GET /v1/deployments/metrics` after recording, once; its failure is only a warning. */
  'ledger-metrics': { connectMs: 5000, totalMs: 10_000 },
  /** gate: each GitHub call on the pull request (the comment, the inline comments, GraphQL). */
  'pr-comment': { connectMs: 5000, totalMs: 10_000 },
  /** record-deployment: each GitHub call of the GitHub deployment (the listing, the deployment, its statuses); its failure is a warning unless fail-on-error. */
  'github-deployment': { connectMs: 5000, totalMs: 10_000 },
} as const satisfies Record<string, CallBounds>;
export type ActionCall = keyof typeof ACTION_CALLS;

/** Sync: one API call, from `--timeout` (default 60 s); connecting never takes longer than 10 s. */
export function syncCall(timeoutMs: number): CallBounds {
  return { connectMs: Math.min(10_000, timeoutMs), totalMs: timeoutMs };
}
/** Sync service: `/readyz`'s DefectDojo probe. */
export const READINESS_PROBE: CallBounds = { connectMs: 5000, totalMs: 5000 };

/** Answers read whole into memory (API pages, key sets, token answers) are at most this large. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The backend's outbound bounds, as the app factories take them (tests shorten them). */
export interface BackendBounds {
  readonly platform: CallBounds;
  readonly commit: CallBounds;
  readonly chat: CallBounds;
  readonly releasesCrawlMs: number;
}

export function backendBounds(overrides: Partial<BackendBounds> = {}): BackendBounds {
  return {
    platform: PLATFORM_CALL,
    commit: PLATFORM_COMMIT,
    chat: CHAT_POST,
    releasesCrawlMs: RELEASES_CRAWL_MS,
    ...overrides,
  };
}
