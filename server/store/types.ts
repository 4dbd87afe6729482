import type { TokenAuditStore } from './audit-types.js';

/** Outcome of a deployment, supplied by the caller. */
export type DeploymentStatus = 'success' | 'failure' | 'skipped' | 'rolled-back';
export type DeploymentTarget = 'object-store-cdn' | 'function-zip' | 'iac-wrapper' | 'other';

/** A stored deployment record. It is also its own idempotency marker: (repositoryId, deliveryId) is unique. */
export interface DeploymentRecord {
  readonly deploymentId: string;
  /** Numeric repository id from the token, as a string: the key of the history. */
  readonly repositoryId: string;
  /** `owner/name` when recorded. */
  readonly repository: string;
  readonly deliveryId: string;
  readonly environment: string;
  readonly status: DeploymentStatus;
  readonly mode: string;
  readonly target?: DeploymentTarget;
  readonly version?: string;
  readonly url?: string;
  readonly commit?: string;
  readonly runUrl?: string;
  readonly actor?: string;
  readonly verified?: boolean;
  readonly durationMs?: number;
  /** When the deployed commit was made (caller-supplied): the start of its lead time. */
  readonly committedAt?: Date;
  readonly recordedAt: Date;
  /** End of retention: the record and its marker disappear after this instant. */
  readonly expireAt: Date;
  /** Sink name → delivered; written once the first delivery's notifications are done. */
  readonly notified?: Readonly<Record<string, boolean>>;
}

export type InsertOutcome =
  | { readonly duplicate: false; readonly record: DeploymentRecord }
  | { readonly duplicate: true; readonly record: DeploymentRecord };

/** A place in the history's order: the records listed after it are those before it in time. */
export type HistoryPosition = Pick<DeploymentRecord, 'recordedAt' | 'deploymentId'>;

export interface DeploymentQuery {
  readonly repositoryId: string;
  readonly environment?: string;
  /** Only records with `recordedAt` at or after this instant. */
  readonly since?: Date;
  /** Only records with `recordedAt` at or before this instant. */
  readonly until?: Date;
  /** Only records listed after this one: older, or as old with a smaller deploymentId (keyset paging). */
  readonly after?: HistoryPosition;
  readonly limit: number;
  /** Records whose `expireAt` is not after `now` are gone. */
  readonly now: Date;
}

/** The records of a figures query: one repository, optionally one environment, `recordedAt` in [from, to]. */
export interface FiguresQuery {
  readonly repositoryId: string;
  readonly environment?: string;
  readonly from: Date;
  readonly to: Date;
  /** Records whose `expireAt` is not after `now` are gone. */
  readonly now: Date;
}

/** Median and 90th percentile (nearest rank) of `count` durations, in milliseconds. */
export interface Distribution {
  readonly median: number;
  readonly p90: number;
  readonly count: number;
}

/** What a figures query computes from the records it selects; the ledger turns it into rates. */
export interface DeploymentFigures extends FigureTotals {
  /** UTC date (`YYYY-MM-DD`) → the counts of that date's records; dates without a record are absent. */
  readonly byDay: ReadonlyMap<string, Readonly<Record<DeploymentStatus, number>>>;
}

/** The figures of a selection without its per-day counts (what a grouped query computes per group). */
export interface FigureTotals {
  readonly counts: Readonly<Record<DeploymentStatus, number>>;
  /** Distinct UTC dates with at least one success record. */
  readonly successDays: number;
  /** Failure streaks (per environment) that a success ended. */
  readonly recovery: Distribution | null;
  /** `recordedAt − committedAt` of the success records that carry `committedAt`. */
  readonly leadTime: Distribution | null;
}

/**
 * The records of several repositories, `recordedAt` in [from, to], grouped by repository and
 * environment (and ISO week): each group's figures are those a `FiguresQuery` of that repository,
 * environment (and week, within [from, to]) gives.
 */
export interface FiguresGroupQuery extends Omit<FiguresQuery, 'repositoryId'> {
  readonly repositoryIds: readonly string[];
  /** Also group by ISO week (from Monday 00:00 UTC): each week's records are a window of their own. */
  readonly byWeek?: boolean;
}

export interface FiguresGroup {
  readonly repositoryId: string;
  readonly environment: string;
  /** With `byWeek`: the week's Monday (`YYYY-MM-DD`, UTC). */
  readonly week?: string;
  readonly figures: FigureTotals;
}

/** What runs where: an environment's newest record and its newest success. */
export interface EnvironmentState {
  readonly environment: string;
  readonly latest: DeploymentRecord;
  readonly latestSuccess: DeploymentRecord | null;
}

export interface DeploymentStore {
  /**
   * Stores `record` unless a live record with the same (repositoryId, deliveryId) exists, in which
   * case nothing is written and that record is returned. Atomic under concurrency.
   */
  insert(record: DeploymentRecord, now: Date): Promise<InsertOutcome>;
  /** Records the notification outcome of a stored record. */
  setNotified(repositoryId: string, deploymentId: string, notified: Readonly<Record<string, boolean>>): Promise<void>;
  /** Live records of one repository, newest first (recordedAt, then deploymentId, descending). */
  list(query: DeploymentQuery): Promise<DeploymentRecord[]>;
  /**
   * The delivery figures of the selected records, computed where the records are (one query; the
   * records themselves never leave the store). Streaks follow (recordedAt, deploymentId) order.
   */
  figures(query: FiguresQuery): Promise<DeploymentFigures>;
  /**
   * The figures of many repositories in one query, one group per repository and environment (and
   * week) with records selected, ordered by repository id, environment and week. Computed where the
   * records are, as `figures` is: never one query per repository, never the records read out.
   */
  groupedFigures(query: FiguresGroupQuery): Promise<FiguresGroup[]>;
  /** Each environment of one repository with live records, newest `latest` first (history order). */
  environments(repositoryId: string, now: Date): Promise<EnvironmentState[]>;
}

/**
 * Small JSON values under a namespace and key, each with an optional end of life: the broker's
 * key-set snapshots, seen webhook deliveries and the releases aggregate. Values are copied in and
 * out (never shared with the caller).
 */
export interface KeyValueStore {
  /** The live value, or undefined when absent or expired at `now`. */
  get(namespace: string, key: string, now: Date): Promise<unknown>;
  /** Writes or replaces the value; `expireAt` null keeps it until replaced. */
  put(namespace: string, key: string, value: unknown, expireAt: Date | null): Promise<void>;
  /**
   * Writes the value only when no live one exists; true when this call wrote it. Atomic under
   * concurrency: of many simultaneous claims of one key exactly one wins.
   */
  claim(namespace: string, key: string, value: unknown, expireAt: Date, now: Date): Promise<boolean>;
}

/** A repository a console session may see, as GitHub listed it for the person. */
export interface SessionRepository {
  /** Numeric id, as a string: the ledger's key. */
  readonly id: string;
  readonly owner: string;
  readonly name: string;
  readonly private: boolean;
  readonly htmlUrl: string;
  /** The person's permissions on it, as GitHub states them (`admin`, `maintain`, `push`, `triage`, `pull`). */
  readonly permissions: Readonly<Record<string, boolean>>;
}

/** The repositories GitHub listed for a session, and when. */
export interface RepositoryCache {
  readonly fetchedAt: Date;
  readonly repositories: readonly SessionRepository[];
  /** More were listed than the console keeps. */
  readonly truncated: boolean;
}

/** A signed-in person's console session. */
export interface ConsoleSession {
  /** The key: a digest of the secret the cookie carries (the store never holds the secret itself). */
  readonly id: string;
  /** GitHub's numeric user id, as a string. */
  readonly userId: string;
  readonly login: string;
  readonly createdAt: Date;
  /** The end of the session; the store forgets it then. */
  readonly expireAt: Date;
  /** The person's GitHub tokens, sealed with the console's key: never stored in clear. */
  readonly credentials: string;
  readonly repositories: RepositoryCache | null;
}

/** Console sessions, shared by every replica, each gone at its `expireAt`. Values are copied in and out. */
export interface SessionStore {
  create(session: ConsoleSession): Promise<void>;
  /** The live session, or undefined when absent, ended or expired at `now`. */
  get(id: string, now: Date): Promise<ConsoleSession | undefined>;
  /**
   * Replaces the sealed credentials only while they are still `expected`: of replicas refreshing
   * one session at once, one wins and the others read its result. True when this call replaced them.
   */
  replaceCredentials(id: string, expected: string, next: string): Promise<boolean>;
  cacheRepositories(id: string, cache: RepositoryCache): Promise<void>;
  end(id: string): Promise<void>;
  /** Ends every session of one person; how many there were. */
  endForUser(userId: string): Promise<number>;
}

export interface Store {
  readonly kind: 'memory' | 'mongodb';
  readonly deployments: DeploymentStore;
  readonly keyValues: KeyValueStore;
  readonly sessions: SessionStore;
  /** The main broker's record of every `/token` and `/sign` answer (audit-types.ts). */
  readonly tokenAudit: TokenAuditStore;
  close(): Promise<void>;
}

/** The store could not be reached or answered with an error: retryable, nothing was decided. */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
  constructor(options?: { cause?: unknown }) {
    super('store unavailable', options);
  }
}

/** Newest-first order of the history: recordedAt, then deploymentId, descending. */
export function newestFirst(a: HistoryPosition, b: HistoryPosition): number {
  const byTime = b.recordedAt.getTime() - a.recordedAt.getTime();
  if (byTime !== 0) return byTime;
  return a.deploymentId < b.deploymentId ? 1 : a.deploymentId > b.deploymentId ? -1 : 0;
}

/** Index of the first of `items` (oldest first) recorded at or after `ms`: a binary search. */
export function firstAtOrAfter(items: readonly { readonly recordedAt: Date }[], ms: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (items[mid]!.recordedAt.getTime() < ms) low = mid + 1;
    else high = mid;
  }
  return low;
}
