import type { TokenAuditStore } from '../../server/store/audit-types.js';
import { createMemoryStore } from '../../server/store/memory.js';
import { createMongoStore } from '../../server/store/mongo.js';
import {
  StoreUnavailable,
  type DeploymentQuery,
  type DeploymentRecord,
  type DeploymentStore,
  type InsertOutcome,
  type KeyValueStore,
  type SessionStore,
  type Store,
} from '../../server/store/types.js';
import { closedPort } from '../support/servers.js';

export type StoreOp = 'insert' | 'setNotified' | 'list' | 'figures' | 'groupedFigures' | 'environments' | 'get' | 'put' | 'claim' | 'sessions' | 'auditInsert' | 'auditList';

/**
 * How a planned failure hits: `before` the operation reaches the data (connection refused, no
 * server selectable), or `after` it was applied (the connection dropped before the answer came
 * back, so the caller cannot tell whether it happened).
 */
export type FailureTiming = 'before' | 'after';
/** A planned call: `ok` passes through (to fail a later call of the same operation). */
export type Planned = FailureTiming | 'ok';

/**
 * What the MongoDB store really throws when its server cannot be reached: the real driver
 * against a closed loopback port, its error mapped by `server/store/mongo.ts`. Captured once.
 */
let driverFailure: Promise<StoreUnavailable> | undefined;
export function realDriverFailure(): Promise<StoreUnavailable> {
  driverFailure ??= (async () => {
    const store = createMongoStore(`mongodb://127.0.0.1:${await closedPort()}/gatehouse`, { serverSelectionTimeoutMs: 100 });
    try {
      await store.deployments.list({ repositoryId: '1', limit: 1, now: new Date() });
      throw new Error('a closed port answered');
    } catch (err) {
      if (!(err instanceof StoreUnavailable)) throw err;
      return err;
    } finally {
      await store.close();
    }
  })();
  return driverFailure;
}

/**
 * A real in-memory store that fails the way the MongoDB store does when the driver fails: each
 * failure is a `StoreUnavailable` whose cause is the driver's own error (see `realDriverFailure`).
 * `down` fails every call; `failNext` plans single failures.
 */
export class FlakyStore implements Store {
  readonly kind = 'mongodb' as const;
  readonly inner = createMemoryStore();
  /** Every operation fails before it reaches the data, as with the database unreachable. */
  down = false;
  readonly calls: Record<StoreOp, number> = { insert: 0, setNotified: 0, list: 0, figures: 0, groupedFigures: 0, environments: 0, get: 0, put: 0, claim: 0, sessions: 0, auditInsert: 0, auditList: 0 };
  readonly deployments: DeploymentStore;
  readonly keyValues: KeyValueStore;
  readonly sessions: SessionStore;
  readonly tokenAudit: TokenAuditStore;
  private readonly planned = new Map<StoreOp, Planned[]>();

  constructor() {
    const d = this.inner.deployments;
    const kv = this.inner.keyValues;
    this.deployments = {
      insert: (record: DeploymentRecord, now: Date): Promise<InsertOutcome> => this.run('insert', () => d.insert(record, now)),
      setNotified: (repositoryId, deploymentId, notified) => this.run('setNotified', () => d.setNotified(repositoryId, deploymentId, notified)),
      list: (query: DeploymentQuery) => this.run('list', () => d.list(query)),
      figures: (query) => this.run('figures', () => d.figures(query)),
      groupedFigures: (query) => this.run('groupedFigures', () => d.groupedFigures(query)),
      environments: (repositoryId, now) => this.run('environments', () => d.environments(repositoryId, now)),
    };
    this.keyValues = {
      get: (namespace, key, now) => this.run('get', () => kv.get(namespace, key, now)),
      put: (namespace, key, value, expireAt) => this.run('put', () => kv.put(namespace, key, value, expireAt)),
      claim: (namespace, key, value, expireAt, now) => this.run('claim', () => kv.claim(namespace, key, value, expireAt, now)),
    };
    const s = this.inner.sessions;
    // One operation name for every session call: the console's faults need no finer plan.
    this.sessions = {
      create: (session) => this.run('sessions', () => s.create(session)),
      get: (id, now) => this.run('sessions', () => s.get(id, now)),
      replaceCredentials: (id, expected, next) => this.run('sessions', () => s.replaceCredentials(id, expected, next)),
      cacheRepositories: (id, cache) => this.run('sessions', () => s.cacheRepositories(id, cache)),
      end: (id) => this.run('sessions', () => s.end(id)),
      endForUser: (userId) => this.run('sessions', () => s.endForUser(userId)),
    };
    const audit = this.inner.tokenAudit;
    this.tokenAudit = {
      insert: (entry) => this.run('auditInsert', () => audit.insert(entry)),
      list: (query) => this.run('auditList', () => audit.list(query)),
    };
  }

  /** The next `times` calls of `op` fail at `timing`. */
  failNext(op: StoreOp, timing: FailureTiming = 'before', times = 1): void {
    this.plan(op, ...Array.from({ length: times }, () => timing));
  }

  /** The next calls of `op`, in order (for example `'ok', 'before'`: the second one fails). */
  plan(op: StoreOp, ...calls: Planned[]): void {
    this.planned.set(op, [...(this.planned.get(op) ?? []), ...calls]);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async run<T>(op: StoreOp, call: () => Promise<T>): Promise<T> {
    this.calls[op]++;
    const timing = this.down ? 'before' : this.planned.get(op)?.shift();
    if (timing === 'before') throw new StoreUnavailable({ cause: (await realDriverFailure()).cause });
    const result = await call();
    if (timing === 'after') throw new StoreUnavailable({ cause: (await realDriverFailure()).cause });
    return result;
  }
}

/** Milliseconds `work` took, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** Polls `check` until it holds (log streams and sockets settle asynchronously). */
export async function eventually(check: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
