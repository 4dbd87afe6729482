import { systemClock, type Clock } from '../clock.js';
import { FiguresAccumulator, groupOrder, isoWeekOf } from './figures.js';
import type {
  ConsoleSession,
  DeploymentFigures,
  DeploymentQuery,
  DeploymentRecord,
  DeploymentStore,
  EnvironmentState,
  FiguresGroup,
  FiguresGroupQuery,
  FiguresQuery,
  InsertOutcome,
  KeyValueStore,
  RepositoryCache,
  SessionStore,
  Store,
} from './types.js';
import { MemoryTokenAuditStore } from './audit-memory.js';
import { firstAtOrAfter, newestFirst } from './types.js';

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
    const bucket = this.trimmed(query.repositoryId, query.now);
    if (!bucket) return [];
    const out: DeploymentRecord[] = [];
    const since = query.since?.getTime() ?? -Infinity;
    // Start at the newest record the query can list: at `until`, or just after the page's last one.
    const upper = Math.min(query.until?.getTime() ?? Infinity, query.after?.recordedAt.getTime() ?? Infinity);
    for (let i = firstAtOrAfter(bucket.history, upper + 1) - 1; i >= 0 && out.length < query.limit; i--) {
      const record = bucket.history[i]!;
      if (record.recordedAt.getTime() < since) break;
      // Listed after the page's place: older, or as old with a smaller id.
      if (query.after && newestFirst(record, query.after) <= 0) continue;
      if (!isLive(record, query.now)) continue;
      if (query.environment !== undefined && record.environment !== query.environment) continue;
      out.push(record);
    }
    return out;
  }

  async figures(query: FiguresQuery): Promise<DeploymentFigures> {
    const figures = new FiguresAccumulator();
    const bucket = this.trimmed(query.repositoryId, query.now);
    if (bucket) forEachInWindow(bucket, query, (record) => figures.add(record));
    return figures.result();
  }

  async groupedFigures(query: FiguresGroupQuery): Promise<FiguresGroup[]> {
    const groups = new Map<string, { repositoryId: string; environment: string; week?: string; figures: FiguresAccumulator }>();
    for (const repositoryId of new Set(query.repositoryIds)) {
      const bucket = this.trimmed(repositoryId, query.now);
      if (!bucket) continue;
      // The window's records of this repository, in history order, as `figures` walks them.
      forEachInWindow(bucket, query, (record) => {
        const week = query.byWeek ? isoWeekOf(record.recordedAt.getTime()) : undefined;
        const key = `${repositoryId}\u0000${record.environment}\u0000${week ?? ''}`;
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { repositoryId, environment: record.environment, ...(week ? { week } : {}), figures: new FiguresAccumulator(false) }));
        group.figures.add(record);
      });
    }
    return [...groups.values()].sort(groupOrder).map(({ figures, ...group }) => ({ ...group, figures: figures.totals() }));
  }

  async environments(repositoryId: string, now: Date): Promise<EnvironmentState[]> {
    const bucket = this.trimmed(repositoryId, now);
    if (!bucket) return [];
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
    let bucket = this.trimmed(repositoryId, now);
    if (!bucket) this.buckets.set(repositoryId, (bucket = { byDelivery: new Map(), history: [] }));
    return bucket;
  }

  /** The repository's bucket, if it has one, its expired records trimmed. */
  private trimmed(repositoryId: string, now: Date): Bucket | undefined {
    const bucket = this.buckets.get(repositoryId);
    if (bucket) this.trimExpired(bucket, now);
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

/** `each` of the live records in [from, to] (of `environment`, if given): as the index range scan, from the first on in order. */
function forEachInWindow(bucket: Bucket, query: Pick<FiguresQuery, 'environment' | 'from' | 'to' | 'now'>, each: (record: DeploymentRecord) => void): void {
  const to = query.to.getTime();
  for (let i = firstAtOrAfter(bucket.history, query.from.getTime()); i < bucket.history.length; i++) {
    const record = bucket.history[i]!;
    if (record.recordedAt.getTime() > to) break;
    if (!isLive(record, query.now)) continue;
    if (query.environment !== undefined && record.environment !== query.environment) continue;
    each(record);
  }
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
  constructor(private readonly clock: Clock) {}

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
      const now = this.clock.now();
      for (const [k, e] of this.entries) if (e.expireAt !== null && e.expireAt <= now) this.entries.delete(k);
    }
  }
}

/** Sessions as structured copies (a database copies too), with an index by person for `endForUser`. */
class MemorySessionStore implements SessionStore {
  constructor(private readonly clock: Clock) {}

  private readonly sessions = new Map<string, ConsoleSession>();
  private readonly byUser = new Map<string, Set<string>>();
  private writes = 0;

  async create(session: ConsoleSession): Promise<void> {
    this.sessions.set(session.id, structuredClone(session));
    let ids = this.byUser.get(session.userId);
    if (!ids) this.byUser.set(session.userId, (ids = new Set()));
    ids.add(session.id);
    if (++this.writes % SWEEP_EVERY_WRITES === 0) this.sweep(new Date(this.clock.now()));
  }

  async get(id: string, now: Date): Promise<ConsoleSession | undefined> {
    const session = this.sessions.get(id);
    return session && session.expireAt.getTime() > now.getTime() ? structuredClone(session) : undefined;
  }

  async replaceCredentials(id: string, expected: string, next: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session || session.credentials !== expected) return false;
    this.sessions.set(id, { ...session, credentials: next });
    return true;
  }

  async cacheRepositories(id: string, cache: RepositoryCache): Promise<void> {
    const session = this.sessions.get(id);
    if (session) this.sessions.set(id, { ...session, repositories: structuredClone(cache) });
  }

  async end(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.byUser.get(session.userId)?.delete(id);
  }

  async endForUser(userId: string): Promise<number> {
    const ids = this.byUser.get(userId);
    if (!ids) return 0;
    this.byUser.delete(userId);
    let ended = 0;
    for (const id of ids) if (this.sessions.delete(id)) ended++;
    return ended;
  }

  /** Expired sessions are unreadable already; sweeping now and then bounds the memory they hold. */
  private sweep(now: Date): void {
    for (const session of [...this.sessions.values()]) {
      if (session.expireAt.getTime() <= now.getTime()) void this.end(session.id);
    }
  }
}

/** `clock`: what the occasional sweep of expired entries takes as now (the app's clock). */
export function createMemoryStore(clock: Clock = systemClock): Store {
  return {
    kind: 'memory',
    deployments: new MemoryDeploymentStore(),
    keyValues: new MemoryKeyValueStore(clock),
    sessions: new MemorySessionStore(clock),
    tokenAudit: new MemoryTokenAuditStore(),
    close: async () => {},
  };
}
