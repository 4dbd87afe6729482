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
export interface HistoryPosition {
  readonly recordedAt: Date;
  readonly deploymentId: string;
}

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
export interface DeploymentFigures {
  readonly counts: Readonly<Record<DeploymentStatus, number>>;
  /** Distinct UTC dates with at least one success record. */
  readonly successDays: number;
  /** Failure streaks (per environment) that a success ended. */
  readonly recovery: Distribution | null;
  /** `recordedAt − committedAt` of the success records that carry `committedAt`. */
  readonly leadTime: Distribution | null;
  /** UTC date (`YYYY-MM-DD`) → the counts of that date's records; dates without a record are absent. */
  readonly byDay: ReadonlyMap<string, Readonly<Record<DeploymentStatus, number>>>;
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

export interface Store {
  readonly kind: 'memory' | 'mongodb';
  readonly deployments: DeploymentStore;
  readonly keyValues: KeyValueStore;
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
export function newestFirst(a: DeploymentRecord, b: DeploymentRecord): number {
  const byTime = b.recordedAt.getTime() - a.recordedAt.getTime();
  if (byTime !== 0) return byTime;
  return a.deploymentId < b.deploymentId ? 1 : a.deploymentId > b.deploymentId ? -1 : 0;
}
