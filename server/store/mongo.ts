import { MongoClient, MongoError, type Collection, type Db } from 'mongodb';
import type { DeploymentQuery, DeploymentRecord, DeploymentStore, InsertOutcome, Store } from './types.js';
import { StoreUnavailable } from './types.js';

/** A deployment as stored: the record with its id as `_id`. */
type DeploymentDoc = Omit<DeploymentRecord, 'deploymentId'> & { _id: string };

const DUPLICATE_KEY = 11000;

const toDoc = ({ deploymentId, ...rest }: DeploymentRecord): DeploymentDoc => ({ _id: deploymentId, ...rest });
const fromDoc = ({ _id, ...rest }: DeploymentDoc): DeploymentRecord => ({ deploymentId: _id, ...rest });

const isDuplicateKey = (err: unknown): boolean => err instanceof MongoError && err.code === DUPLICATE_KEY;

/** Driver errors (network, server selection, server-side failures) are retryable unavailability. */
async function guarded<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof MongoError) throw new StoreUnavailable({ cause: err });
    throw err;
  }
}

class MongoDeploymentStore implements DeploymentStore {
  private indexes?: Promise<void>;

  constructor(private readonly collection: Collection<DeploymentDoc>) {}

  /**
   * Indexes the contract relies on. TTL uses a per-document `expireAt` with `expireAfterSeconds: 0`,
   * so a retention change applies to new records without `collMod`. Created once; retried after a failure.
   */
  ensureIndexes(): Promise<void> {
    this.indexes ??= this.collection
      .createIndexes([
        { key: { repositoryId: 1, deliveryId: 1 }, name: 'idempotency', unique: true },
        { key: { expireAt: 1 }, name: 'retention', expireAfterSeconds: 0 },
        { key: { repositoryId: 1, recordedAt: -1, _id: -1 }, name: 'history' },
        { key: { repositoryId: 1, environment: 1, recordedAt: -1, _id: -1 }, name: 'history_by_environment' },
      ])
      .then(
        () => undefined,
        (err: unknown) => {
          this.indexes = undefined;
          throw err;
        },
      );
    return this.indexes;
  }

  insert(record: DeploymentRecord, now: Date): Promise<InsertOutcome> {
    return guarded(async () => {
      // Without the unique index a concurrent duplicate could slip in: never write before it exists.
      await this.ensureIndexes();
      // The TTL monitor runs about once a minute, so an expired marker may still be present:
      // it is removed and the insert tried again (bounded; a live marker ends the loop).
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          await this.collection.insertOne(toDoc(record));
          return { duplicate: false, record };
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const existing = await this.collection.findOne({ repositoryId: record.repositoryId, deliveryId: record.deliveryId });
        if (existing && existing.expireAt.getTime() > now.getTime()) return { duplicate: true, record: fromDoc(existing) };
        if (existing) await this.collection.deleteOne({ _id: existing._id, expireAt: { $lte: now } });
      }
      throw new StoreUnavailable({ cause: new Error('idempotency marker kept changing during insert') });
    });
  }

  setNotified(repositoryId: string, deploymentId: string, notified: Readonly<Record<string, boolean>>): Promise<void> {
    return guarded(async () => {
      await this.collection.updateOne({ _id: deploymentId, repositoryId }, { $set: { notified: { ...notified } } });
    });
  }

  list(query: DeploymentQuery): Promise<DeploymentRecord[]> {
    return guarded(async () => {
      const docs = await this.collection
        .find({
          repositoryId: query.repositoryId,
          expireAt: { $gt: query.now },
          ...(query.environment === undefined ? {} : { environment: query.environment }),
        })
        .sort({ recordedAt: -1, _id: -1 })
        .limit(query.limit)
        .toArray();
      return docs.map(fromDoc);
    });
  }
}

/** The database named in the URI's path, else `gatehouse` (the driver's own default would be `test`). */
export function databaseName(uri: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri);
  return match?.[1] ? decodeURIComponent(match[1]) : 'gatehouse';
}

export interface MongoStore extends Store {
  readonly kind: 'mongodb';
  readonly db: Db;
  /** Creates the indexes now (start-up calls it; writes also wait for it). */
  ensureIndexes(): Promise<void>;
}

/**
 * The MongoDB store. Connecting is lazy (the driver connects on first use), so a database that is
 * down at start does not stop the process: health stays green and store calls answer 503.
 */
export function createMongoStore(uri: string, options: { dbName?: string; serverSelectionTimeoutMs?: number } = {}): MongoStore {
  const client = new MongoClient(uri, {
    appName: 'gatehouse',
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000,
  });
  const db = client.db(options.dbName ?? databaseName(uri));
  const deployments = new MongoDeploymentStore(db.collection<DeploymentDoc>('deployments'));
  return {
    kind: 'mongodb',
    db,
    deployments,
    ensureIndexes: () => guarded(() => deployments.ensureIndexes()),
    close: () => client.close(),
  };
}
