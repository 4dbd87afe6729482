import { MongoClient, MongoError, type Collection, type Db, type Filter } from 'mongodb';
import { createdOnce } from './created-once.js';
import { groupOrder } from './figures.js';
import { FIGURES_INDEX, figuresFrom, figuresPipeline, groupedFiguresPipeline, groupFrom, type FiguresDoc, type FiguresGroupDoc } from './mongo-figures.js';
import { MongoTokenAuditStore } from './audit-mongo.js';
import { mongoConnection, type Guard, type MongoConnection } from './mongo-connection.js';
import { mongoClientOptions } from './mongo-options.js';
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
import { StoreUnavailable } from './types.js';

/** A deployment as stored: the record with its id as `_id`. */
type DeploymentDoc = Omit<DeploymentRecord, 'deploymentId'> & { _id: string };

const DUPLICATE_KEY = 11000;

const toDoc = ({ deploymentId, ...rest }: DeploymentRecord): DeploymentDoc => ({ _id: deploymentId, ...rest });
const fromDoc = ({ _id, ...rest }: DeploymentDoc): DeploymentRecord => ({ deploymentId: _id, ...rest });

const isDuplicateKey = (err: unknown): boolean => err instanceof MongoError && err.code === DUPLICATE_KEY;

/** What the store's operations tell about the database: reachable, or not and why. */
export type StoreAvailability = (state: { readonly available: true } | { readonly available: false; readonly cause: string }) => void;

/**
 * Driver errors (network, server selection, server-side failures) are retryable unavailability.
 * Every operation reports what it learnt about the database to `report` (the backend logs each
 * change once: see store/index.ts).
 */
function guardReporting(connection: MongoConnection, report: StoreAvailability): Guard {
  return async (op) => {
    try {
      await connection.ready();
      const result = await op();
      report({ available: true });
      return result;
    } catch (err) {
      if (!(err instanceof MongoError)) throw err;
      report({ available: false, cause: `${err.name}: ${err.message}` });
      throw new StoreUnavailable({ cause: err });
    }
  };
}

/**
 * The `recordedAt` bounds of a history query, and the keyset condition of a page: listed after
 * `after` means older, or as old with a smaller `_id`. The bounds stay on `recordedAt` alone so the
 * history indexes' range scan starts at the page's place; the tie condition filters its first keys.
 */
function historyRange(query: DeploymentQuery): Filter<DeploymentDoc> {
  const recordedAt: { $gte?: Date; $lte?: Date } = {};
  if (query.since) recordedAt.$gte = query.since;
  const upper = [query.until, query.after?.recordedAt].filter((d): d is Date => d !== undefined);
  if (upper.length > 0) recordedAt.$lte = new Date(Math.min(...upper.map((d) => d.getTime())));
  return {
    ...(Object.keys(recordedAt).length > 0 ? { recordedAt } : {}),
    ...(query.after ? { $or: [{ recordedAt: { $lt: query.after.recordedAt } }, { _id: { $lt: query.after.deploymentId } }] } : {}),
  };
}

class MongoDeploymentStore implements DeploymentStore {
  constructor(
    private readonly collection: Collection<DeploymentDoc>,
    private readonly guarded: Guard,
  ) {}

  /**
   * Indexes the contract relies on. TTL uses a per-document `expireAt` with `expireAfterSeconds: 0`,
   * so a retention change applies to new records without `collMod`. Created once; retried after a failure.
   */
  readonly ensureIndexes = createdOnce(() =>
    this.collection.createIndexes([
      { key: { repositoryId: 1, deliveryId: 1 }, name: 'idempotency', unique: true },
      { key: { expireAt: 1 }, name: 'retention', expireAfterSeconds: 0 },
      { key: { repositoryId: 1, recordedAt: -1, _id: -1 }, name: 'history' },
      { key: { repositoryId: 1, environment: 1, recordedAt: -1, _id: -1 }, name: 'history_by_environment' },
    ]),
  );

  insert(record: DeploymentRecord, now: Date): Promise<InsertOutcome> {
    return this.guarded(async () => {
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
    return this.guarded(async () => {
      await this.collection.updateOne({ _id: deploymentId, repositoryId }, { $set: { notified: { ...notified } } });
    });
  }

  list(query: DeploymentQuery): Promise<DeploymentRecord[]> {
    return this.guarded(async () => {
      const docs = await this.collection
        .find({
          repositoryId: query.repositoryId,
          expireAt: { $gt: query.now },
          ...(query.environment === undefined ? {} : { environment: query.environment }),
          ...historyRange(query),
        })
        .sort({ recordedAt: -1, _id: -1 })
        .limit(query.limit)
        .toArray();
      return docs.map(fromDoc);
    });
  }

  figures(query: FiguresQuery): Promise<DeploymentFigures> {
    return this.guarded(async () => {
      // The hint names an index: it must exist first (a no-op once created).
      await this.ensureIndexes();
      const [doc] = await this.collection.aggregate<FiguresDoc>(figuresPipeline(query), { hint: FIGURES_INDEX }).toArray();
      return figuresFrom(doc);
    });
  }

  groupedFigures(query: FiguresGroupQuery): Promise<FiguresGroup[]> {
    return this.guarded(async () => {
      if (query.repositoryIds.length === 0) return [];
      await this.ensureIndexes();
      const docs = await this.collection.aggregate<FiguresGroupDoc>(groupedFiguresPipeline(query), { hint: FIGURES_INDEX }).toArray();
      // Sorted here, as the in-memory store sorts: the server compares strings by UTF-8 bytes.
      return docs.map(groupFrom).sort(groupOrder);
    });
  }

  environments(repositoryId: string, now: Date): Promise<EnvironmentState[]> {
    return this.guarded(async () => {
      await this.ensureIndexes();
      const groups = await this.collection
        .aggregate<{ _id: string; latest: DeploymentDoc & { isSuccess: boolean }; latestSuccess: DeploymentDoc & { isSuccess: boolean } }>(
          [
            { $match: { repositoryId, expireAt: { $gt: now } } },
            { $set: { isSuccess: { $eq: ['$status', 'success'] } } },
            {
              $group: {
                _id: '$environment',
                latest: { $top: { sortBy: { recordedAt: -1, _id: -1 }, output: '$$ROOT' } },
                // Successes sort first (true > false), so this is the newest success when there is one.
                latestSuccess: { $top: { sortBy: { isSuccess: -1, recordedAt: -1, _id: -1 }, output: '$$ROOT' } },
              },
            },
            { $sort: { 'latest.recordedAt': -1, 'latest._id': -1 } },
          ],
          { hint: FIGURES_INDEX },
        )
        .toArray();
      return groups.map(({ _id, latest: { isSuccess: _, ...latest }, latestSuccess: { isSuccess, ...success } }) => ({
        environment: _id,
        latest: fromDoc(latest),
        latestSuccess: isSuccess ? fromDoc(success) : null,
      }));
    });
  }
}

/** A key-value entry: `_id` is namespace and key; the value is kept as JSON text (any field names). */
interface KeyValueDoc {
  _id: string;
  namespace: string;
  json: string;
  expireAt: Date | null;
}

class MongoKeyValueStore implements KeyValueStore {
  constructor(
    private readonly collection: Collection<KeyValueDoc>,
    private readonly guarded: Guard,
  ) {}

  /** TTL on `expireAt` (null never expires). Reads still check it: the TTL monitor runs about once a minute. */
  readonly ensureIndexes = createdOnce(() => this.collection.createIndexes([{ key: { expireAt: 1 }, name: 'expiry', expireAfterSeconds: 0 }]));

  get(namespace: string, key: string, now: Date): Promise<unknown> {
    return this.guarded(async () => {
      const doc = await this.collection.findOne({ _id: idOf(namespace, key), $or: [{ expireAt: null }, { expireAt: { $gt: now } }] });
      return doc ? JSON.parse(doc.json) : undefined;
    });
  }

  put(namespace: string, key: string, value: unknown, expireAt: Date | null): Promise<void> {
    return this.guarded(async () => {
      await this.ensureIndexes();
      await this.collection.replaceOne(
        { _id: idOf(namespace, key) },
        { namespace, json: JSON.stringify(value), expireAt },
        { upsert: true },
      );
    });
  }

  claim(namespace: string, key: string, value: unknown, expireAt: Date, now: Date): Promise<boolean> {
    return this.guarded(async () => {
      await this.ensureIndexes();
      // Matches only an expired entry (then replaced) or none (then inserted). A live entry makes the
      // upsert's insert collide on `_id`: someone else holds the claim. `_id` uniqueness is the atomicity.
      try {
        await this.collection.updateOne(
          { _id: idOf(namespace, key), expireAt: { $lte: now } },
          { $set: { namespace, json: JSON.stringify(value), expireAt } },
          { upsert: true },
        );
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    });
  }
}

const idOf = (namespace: string, key: string): string => `${namespace}\u0000${key}`;

/** A session as stored: `_id` is the session's key. */
type SessionDoc = Omit<ConsoleSession, 'id'> & { _id: string };

const sessionFromDoc = ({ _id, ...rest }: SessionDoc): ConsoleSession => ({ id: _id, ...rest });

class MongoSessionStore implements SessionStore {
  constructor(
    private readonly collection: Collection<SessionDoc>,
    private readonly guarded: Guard,
  ) {}

  /** TTL on `expireAt` (reads check it too: the TTL monitor runs about once a minute); `userId` for `endForUser`. */
  readonly ensureIndexes = createdOnce(() =>
    this.collection.createIndexes([
      { key: { expireAt: 1 }, name: 'expiry', expireAfterSeconds: 0 },
      { key: { userId: 1 }, name: 'by_user' },
    ]),
  );

  create(session: ConsoleSession): Promise<void> {
    return this.guarded(async () => {
      await this.ensureIndexes();
      const { id, ...rest } = session;
      await this.collection.insertOne({ _id: id, ...rest });
    });
  }

  get(id: string, now: Date): Promise<ConsoleSession | undefined> {
    return this.guarded(async () => {
      const doc = await this.collection.findOne({ _id: id, expireAt: { $gt: now } });
      return doc ? sessionFromDoc(doc) : undefined;
    });
  }

  replaceCredentials(id: string, expected: string, next: string): Promise<boolean> {
    return this.guarded(async () => {
      const result = await this.collection.updateOne({ _id: id, credentials: expected }, { $set: { credentials: next } });
      return result.modifiedCount === 1;
    });
  }

  cacheRepositories(id: string, cache: RepositoryCache): Promise<void> {
    return this.guarded(async () => {
      await this.collection.updateOne({ _id: id }, { $set: { repositories: { ...cache, repositories: [...cache.repositories] } } });
    });
  }

  end(id: string): Promise<void> {
    return this.guarded(async () => {
      await this.collection.deleteOne({ _id: id });
    });
  }

  endForUser(userId: string): Promise<number> {
    return this.guarded(async () => (await this.collection.deleteMany({ userId })).deletedCount);
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

/** The driver's `appName` of the store's client (the start-up check builds its client with the same options). */
export const STORE_APP_NAME = 'gatehouse';

/**
 * The MongoDB store. Connecting is lazy (the driver connects on first use), so a database that is
 * down at start does not stop the process: health stays green and store calls answer 503.
 */
export function createMongoStore(
  uri: string,
  options: { dbName?: string; serverSelectionTimeoutMs?: number; availability?: StoreAvailability } = {},
): MongoStore {
  const client = new MongoClient(
    uri,
    mongoClientOptions(uri, STORE_APP_NAME, options.serverSelectionTimeoutMs === undefined ? {} : { serverSelectionTimeoutMS: options.serverSelectionTimeoutMs }),
  );
  const db = client.db(options.dbName ?? databaseName(uri));
  const connection = mongoConnection(client);
  const guarded = guardReporting(connection, options.availability ?? (() => undefined));
  const deployments = new MongoDeploymentStore(db.collection<DeploymentDoc>('deployments'), guarded);
  const keyValues = new MongoKeyValueStore(db.collection<KeyValueDoc>('key_values'), guarded);
  const sessions = new MongoSessionStore(db.collection<SessionDoc>('console_sessions'), guarded);
  const tokenAudit = new MongoTokenAuditStore(db.collection('token_audit'), guarded);
  return {
    kind: 'mongodb',
    db,
    deployments,
    keyValues,
    sessions,
    tokenAudit,
    ensureIndexes: () => guarded(async () => {
      await deployments.ensureIndexes();
      await keyValues.ensureIndexes();
      await sessions.ensureIndexes();
      await tokenAudit.ensureIndexes();
    }),
    close: () => connection.close(),
  };
}
