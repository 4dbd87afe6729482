import type * as Mongo from 'mongodb';
import { systemClock, type Clock } from '../../clock.js';
import { mongoConnection } from '../../store/mongo-connection.js';
import { mongoClientOptions } from '../../store/mongo-options.js';
import { StoreUnavailable } from '../../store/types.js';
import type { Lease, SourceLocks } from './locks.js';

interface LockDoc {
  _id: string;
  holder: string;
  acquiredAt: Date;
  expiresAt: Date;
}

const DUPLICATE_KEY = 11000;
/** A lease outlives a crashed holder by at most this long; a live holder renews it every third of it. */
const DEFAULT_LEASE_MS = 60_000;

/** The driver's module, passed in: the service loads it only when MONGODB_URI is set. */
export type MongoDriver = Pick<typeof Mongo, 'MongoClient' | 'MongoError'>;

export interface MongoLocksOptions {
  readonly leaseMs?: number;
  /** Told when a renewal found the lease taken over (the holder was paused longer than the lease). */
  readonly onLost?: (key: string) => void;
  /** The database; default: the one named in the URI. */
  readonly dbName?: string;
  /** How long an unreachable server is waited for before a call fails. */
  readonly serverSelectionTimeoutMs?: number;
  /** Lease times (default the system's). */
  readonly clock?: Clock;
}

/** The driver's `appName` of the locks' client (the start-up check builds its client with the same options). */
export const LOCKS_APP_NAME = 'gatehouse-sync';

/**
 * Locks as leases in MongoDB (`sync_locks`, one document per key: a source, or an issue-push
 * product or repository), for when `MONGODB_URI` is
 * set: they also hold across a rolling update, where an old and a new process briefly overlap.
 * Taking a lease is one atomic upsert that matches only an expired document; a held one makes
 * the upsert collide on `_id`.
 */
export function mongoLocks(uri: string, options: MongoLocksOptions, driver: MongoDriver): SourceLocks {
  const { MongoClient, MongoError } = driver;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const clock = options.clock ?? systemClock;
  const client = new MongoClient(
    uri,
    mongoClientOptions(uri, LOCKS_APP_NAME, options.serverSelectionTimeoutMs === undefined ? {} : { serverSelectionTimeoutMS: options.serverSelectionTimeoutMs }),
  );
  // Connects again when the first connection failed (see mongo-connection.ts).
  const connection = mongoConnection(client);
  const locks = client.db(options.dbName).collection<LockDoc>('sync_locks');
  const unavailable = (err: unknown): never => {
    throw err instanceof MongoError ? new StoreUnavailable({ cause: err }) : err;
  };
  return {
    kind: 'mongodb',
    async acquire(source, holder): Promise<Lease | undefined> {
      const now = new Date(clock.now());
      try {
        await connection.ready();
        await locks.updateOne(
          { _id: source, expiresAt: { $lte: now } },
          { $set: { holder, acquiredAt: now, expiresAt: new Date(now.getTime() + leaseMs) } },
          { upsert: true },
        );
      } catch (err) {
        if (err instanceof MongoError && err.code === DUPLICATE_KEY) return undefined;
        return unavailable(err);
      }
      const renewal = setInterval(() => {
        locks.updateOne({ _id: source, holder }, { $set: { expiresAt: new Date(clock.now() + leaseMs) } }).then(
          (result) => {
            if (result.matchedCount === 0) options.onLost?.(source);
          },
          // A missed renewal is retried at the next tick; the lease is three ticks long.
          () => undefined,
        );
      }, leaseMs / 3);
      renewal.unref();
      return {
        release: async () => {
          clearInterval(renewal);
          await locks.deleteOne({ _id: source, holder }).catch(unavailable);
        },
      };
    },
    close: () => connection.close(),
  };
}
