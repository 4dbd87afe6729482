import { MemoryTokenAuditStore } from './audit-memory.js';
import { FiguresAccumulator } from './figures.js';
import type { DeploymentFigures, DeploymentQuery, DeploymentRecord, DeploymentStore, EnvironmentState, FiguresQuery, HistoryPosition, InsertOutcome, KeyValueStore, Store } from './types.js';
import { newestFirst } from './types.js';

interface Bucket {
  readonly byDelivery: Map<string, DeploymentRecord>;
  /** Oldest first, so the newest are read from the end and the expired trimmed from the front. */
  readonly history: DeploymentRecord[];
}

const isLive = (record: DeploymentRecord, now: Date): boolean => record.expireAt.getTime() > now.getTime();

/**
 * The embedded default store: everything lives in this process and is lost on restart.
 * Operations are synchronous inside one event-loop turn, which makes insert atomic.
 */
class MemoryDeploymentStore implements DeploymentStore {
  private readonly buckets = new Map<string, Bucket>();

  async insert(record: DeploymentRecord, now: Date): Promise<InsertOutcome> {
    const bucket = this.bucket(record.repositoryId, now);
    const existing = bucket.byDelivery.get(record.deliveryId);
    if (existing && isLive(existing, now)) return { duplicate: true, record: existing };
    if (existing) this.remove(bucket, existing);
    bucket.byDelivery.set(record.deliveryId, record);
    insertSorted(bucket.history, record);
    return { duplicate: false, record };
  }

  async setNotified(repositoryId: string, deploymentId: string, notified: Readonly<Record<string, boolean>>): Promise<void> {
    const bucket = this.buckets.get(repositoryId);
    if (!bucket) return;
    const index = bucket.history.findLastIndex((r) => r.deploymentId === deploymentId);
    const record = bucket.history[index];
    if (!record) return;
    const updated: DeploymentRecord = { ...record, notified: { ...notified } };
    bucket.history[index] = updated;
    if (bucket.byDelivery.get(record.deliveryId) === record) bucket.byDelivery.set(record.deliveryId, updated);
  }

  async list(query: DeploymentQuery): Promise<DeploymentRecord[]> {
    const bucket = this.buckets.get(query.repositoryId);
    if (!bucket) return [];
    this.trimExpired(bucket, query.now);
    const out: DeploymentRecord[] = [];
    const since = query.since?.getTime() ?? -Infinity;
    // Start at the newest record the query can list: at `until`, or just after the page's last one.
    const upper = Math.min(query.until?.getTime() ?? Infinity, query.after?.recordedAt.getTime() ?? Infinity);
    for (let i = firstAtOrAfter(bucket.history, upper + 1) - 1; i >= 0 && out.length < query.limit; i--) {
      const record = bucket.history[i]!;
      if (record.recordedAt.getTime() < since) break;
      if (query.after && !listedAfter(record, query.after)) continue;
      if (!isLive(record, query.now)) continue;
      if (query.environment !== undefined && record.environment !== query.environment) continue;
      out.push(record);
    }
    return out;
  }

  async figures(query: FiguresQuery): Promise<DeploymentFigures> {
    const figures = new FiguresAccumulator();
    const bucket = this.buckets.get(query.repositoryId);
    if (!bucket) return figures.result();
    this.trimExpired(bucket, query.now);
    // As the index range scan does: straight to the window's first record, then in order to its end.
    const to = query.to.getTime();
    for (let i = firstAtOrAfter(bucket.history, query.from.getTime()); i < bucket.history.length; i++) {
      const record = bucket.history[i]!;
      if (record.recordedAt.getTime() > to) break;
      if (!isLive(record, query.now)) continue;
      if (query.environment !== undefined && record.environment !== query.environment) continue;
      figures.add(record);
    }
    return figures.result();
  }

  async environments(repositoryId: string, now: Date): Promise<EnvironmentState[]> {
    const bucket = this.buckets.get(repositoryId);
    if (!bucket) return [];
    this.trimExpired(bucket, now);
    // Newest first: an environment's first record seen is its latest, and it is met in answer order.
    const states = new Map<string, { environment: string; latest: DeploymentRecord; latestSuccess: DeploymentRecord | null }>();
    for (let i = bucket.history.length - 1; i >= 0; i--) {
      const record = bucket.history[i]!;
      if (!isLive(record, now)) continue;
      let state = states.get(record.environment);
      if (!state) {
        state = { environment: record.environment, latest: record, latestSuccess: null };
        states.set(record.environment, state);
      }
      if (state.latestSuccess === null && record.status === 'success') state.latestSuccess = record;
    }
    return [...states.values()];
  }

  private bucket(repositoryId: string, now: Date): Bucket {
    let bucket = this.buckets.get(repositoryId);
    if (!bucket) {
      bucket = { byDelivery: new Map(), history: [] };
      this.buckets.set(repositoryId, bucket);
    } else {
      this.trimExpired(bucket, now);
    }
    return bucket;
  }

  /** Frees expired records at the old end; reads filter any others (retention may have changed). */
  private trimExpired(bucket: Bucket, now: Date): void {
    let drop = 0;
    while (drop < bucket.history.length && !isLive(bucket.history[drop]!, now)) drop++;
    for (const record of bucket.history.splice(0, drop)) {
      if (bucket.byDelivery.get(record.deliveryId)?.deploymentId === record.deploymentId) {
        bucket.byDelivery.delete(record.deliveryId);
      }
    }
  }

  private remove(bucket: Bucket, record: DeploymentRecord): void {
    const index = bucket.history.findIndex((r) => r.deploymentId === record.deploymentId);
    if (index >= 0) bucket.history.splice(index, 1);
    bucket.byDelivery.delete(record.deliveryId);
  }
}

/** Whether `record` is listed after `position`, newest first: older, or as old with a smaller id. */
function listedAfter(record: DeploymentRecord, position: HistoryPosition): boolean {
  const byTime = record.recordedAt.getTime() - position.recordedAt.getTime();
  return byTime < 0 || (byTime === 0 && record.deploymentId < position.deploymentId);
}

/** Index of the first record of `history` (oldest first) recorded at or after `ms`: a binary search. */
function firstAtOrAfter(history: readonly DeploymentRecord[], ms: number): number {
  let low = 0;
  let high = history.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (history[mid]!.recordedAt.getTime() < ms) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Keeps `history` oldest first; appends in the usual case of a non-decreasing clock. */
function insertSorted(history: DeploymentRecord[], record: DeploymentRecord): void {
  let i = history.length;
  while (i > 0 && newestFirst(history[i - 1]!, record) < 0) i--;
  history.splice(i, 0, record);
}

interface Entry {
  /** JSON text: values are copied in and out, as a database would. */
  readonly json: string;
  readonly expireAt: number | null;
}

const SWEEP_EVERY_WRITES = 1000;

class MemoryKeyValueStore implements KeyValueStore {
  private readonly entries = new Map<string, Entry>();
  private writes = 0;

  async get(namespace: string, key: string, now: Date): Promise<unknown> {
    const entry = this.live(namespace, key, now.getTime());
    return entry ? JSON.parse(entry.json) : undefined;
  }

  async put(namespace: string, key: string, value: unknown, expireAt: Date | null): Promise<void> {
    this.write(namespace, key, value, expireAt);
  }

  async claim(namespace: string, key: string, value: unknown, expireAt: Date, now: Date): Promise<boolean> {
    if (this.live(namespace, key, now.getTime())) return false;
    this.write(namespace, key, value, expireAt);
    return true;
  }

  private live(namespace: string, key: string, now: number): Entry | undefined {
    const entry = this.entries.get(`${namespace}\u0000${key}`);
    return entry && (entry.expireAt === null || entry.expireAt > now) ? entry : undefined;
  }

  private write(namespace: string, key: string, value: unknown, expireAt: Date | null): void {
    this.entries.set(`${namespace}\u0000${key}`, { json: JSON.stringify(value), expireAt: expireAt?.getTime() ?? null });
    // Expired entries are unreadable already; sweeping now and then bounds the memory they hold.
    if (++this.writes % SWEEP_EVERY_WRITES === 0) {
      const now = Date.now();
      for (const [k, e] of this.entries) if (e.expireAt !== null && e.expireAt <= now) this.entries.delete(k);
    }
  }
}

export function createMemoryStore(): Store {
  return {
    kind: 'memory',
    deployments: new MemoryDeploymentStore(),
    keyValues: new MemoryKeyValueStore(),
    tokenAudit: new MemoryTokenAuditStore(),
    close: async () => {},
  };
}
