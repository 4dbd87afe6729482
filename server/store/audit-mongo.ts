import type { Collection, Filter } from 'mongodb';
import { createdOnce } from './created-once.js';
import type { Guard } from './mongo-connection.js';
import { workflowPath, type TokenAuditEntry, type TokenAuditFields, type TokenAuditQuery, type TokenAuditStore } from './audit-types.js';

/**
 * An audit entry as stored: the record's fields at the top level (as the route answers them), the
 * entry's id as `_id`, and `match`, the lower-cased names and the workflow's path that the
 * filters compare, so each filter is an index lookup.
 */
type AuditDoc = TokenAuditFields & {
  _id: string;
  recordedAt: Date;
  expireAt: Date;
  match: { repository: string | null; owner: string | null; actor: string | null; workflow: string | null };
};

const lower = (value: string | null): string | null => (value === null ? null : value.toLowerCase());

function toDoc(entry: TokenAuditEntry): AuditDoc {
  const { record } = entry;
  return {
    _id: entry.id,
    recordedAt: entry.recordedAt,
    expireAt: entry.expireAt,
    ...record,
    match: {
      repository: lower(record.repository),
      owner: lower(record.owner),
      actor: lower(record.actor),
      workflow: record.workflow_ref === null ? null : workflowPath(record.workflow_ref),
    },
  };
}

function fromDoc({ _id, recordedAt, expireAt, match: _, ...record }: AuditDoc): TokenAuditEntry {
  return { id: _id, recordedAt, expireAt, record };
}

/** Newest first within each filter: every query is one of these index ranges (or the time one). */
const NEWEST = { recordedAt: -1, _id: -1 } as const;

export class MongoTokenAuditStore implements TokenAuditStore {
  constructor(
    private readonly collection: Collection<AuditDoc>,
    private readonly guarded: Guard,
  ) {}

  /**
   * The TTL index (a per-document `expireAt` with `expireAfterSeconds: 0`, so a retention change
   * applies to new records without `collMod`) and one index per filter, each in newest-first
   * order. Created once; retried after a failure.
   */
  readonly ensureIndexes = createdOnce(() =>
    this.collection.createIndexes([
      { key: { expireAt: 1 }, name: 'retention', expireAfterSeconds: 0 },
      { key: { ...NEWEST }, name: 'newest' },
      { key: { 'match.repository': 1, ...NEWEST }, name: 'by_repository' },
      { key: { repository_id: 1, ...NEWEST }, name: 'by_repository_id' },
      { key: { 'match.owner': 1, ...NEWEST }, name: 'by_owner' },
      { key: { 'match.actor': 1, ...NEWEST }, name: 'by_actor' },
      { key: { workflow_ref: 1, ...NEWEST }, name: 'by_workflow_ref' },
      { key: { 'match.workflow': 1, ...NEWEST }, name: 'by_workflow_path' },
      { key: { outcome: 1, ...NEWEST }, name: 'by_outcome' },
      { key: { hashed_token: 1 }, name: 'by_hashed_token', partialFilterExpression: { hashed_token: { $type: 'string' } } },
    ]),
  );

  insert(entry: TokenAuditEntry): Promise<void> {
    return this.guarded(async () => {
      await this.ensureIndexes();
      await this.collection.insertOne(toDoc(entry));
    });
  }

  list(query: TokenAuditQuery): Promise<TokenAuditEntry[]> {
    return this.guarded(async () => {
      const docs = await this.collection.find(filterOf(query)).sort(NEWEST).limit(query.limit).toArray();
      return docs.map(fromDoc);
    });
  }
}

/**
 * The query as one filter: its equality filters, the `recordedAt` range (bounded above by the
 * page's place too, so the index range scan starts there) and the keyset condition of a page.
 */
function filterOf(query: TokenAuditQuery): Filter<AuditDoc> {
  const and: Filter<AuditDoc>[] = [{ expireAt: { $gt: query.now } }];
  if (query.repository !== undefined) and.push({ 'match.repository': query.repository.toLowerCase() });
  if (query.repositoryId !== undefined) and.push({ repository_id: query.repositoryId });
  if (query.owner !== undefined) and.push({ 'match.owner': query.owner.toLowerCase() });
  if (query.actor !== undefined) and.push({ 'match.actor': query.actor.toLowerCase() });
  if (query.outcome !== undefined) and.push({ outcome: query.outcome });
  if (query.hashedToken !== undefined) and.push({ hashed_token: query.hashedToken });
  if (query.workflow !== undefined) and.push({ $or: [{ workflow_ref: query.workflow }, { 'match.workflow': query.workflow }] });
  const recordedAt: { $gte?: Date; $lte?: Date } = {};
  if (query.since) recordedAt.$gte = query.since;
  const upper = [query.until, query.after?.recordedAt].filter((d): d is Date => d !== undefined);
  if (upper.length > 0) recordedAt.$lte = new Date(Math.min(...upper.map((d) => d.getTime())));
  if (Object.keys(recordedAt).length > 0) and.push({ recordedAt });
  if (query.after) and.push({ $or: [{ recordedAt: { $lt: query.after.recordedAt } }, { _id: { $lt: query.after.id } }] });
  return { $and: and };
}
