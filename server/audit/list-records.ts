import type { Clock } from '../clock.js';
import { decodePlace, encodePlace } from '../http/signed-cursor.js';
import { validationFailed } from '../http/validation.js';
import type { TokenAuditEntry, TokenAuditStore } from '../store/audit-types.js';
import { AUDIT_CURSOR_REFUSED, AUDIT_DEFAULT_LIMIT, filterScope, type AuditQuery } from './query.js';
import { AUDIT_FIELDS, type TokenAuditRecord } from './record.js';

const CURSOR_VERSION = 'a1';

export interface AuditPage {
  readonly records: TokenAuditRecord[];
  /** The cursor of the following page; null when this page is the last. */
  readonly next: string | null;
}

/** An entry as the route answers it: `recorded_at` (UTC, milliseconds), then the record's fields. */
export function recordOf(entry: TokenAuditEntry): TokenAuditRecord {
  const fields = entry.record as unknown as Readonly<Record<string, unknown>>;
  // Every field in the documented order, null when a stored record lacks it.
  return Object.fromEntries(AUDIT_FIELDS.map((field) => [field, field === 'recorded_at' ? entry.recordedAt.toISOString() : (fields[field] ?? null)])) as unknown as TokenAuditRecord;
}

/** A part of the audit a reader is confined to, whatever the query asks: the console's audit page reads one repository's records, by id. */
export interface AuditConfinement {
  readonly repositoryId: string;
}

/**
 * One page of the audit, newest first. One more entry than the page is read, so `next` is given
 * only when a following page has something. Cursors are made and checked under `cursorKey` and
 * bound to the query's filters and the confinement (server/http/signed-cursor.ts); one it did not
 * make is a 422.
 */
export async function listAuditRecords(
  deps: { readonly store: TokenAuditStore; readonly clock: Clock },
  query: AuditQuery,
  cursorKey: Uint8Array,
  within?: AuditConfinement,
): Promise<AuditPage> {
  const limit = query.limit ?? AUDIT_DEFAULT_LIMIT;
  const scope = filterScope(query, within?.repositoryId);
  const place = query.cursor === undefined ? undefined : decodePlace(query.cursor, CURSOR_VERSION, cursorKey, scope);
  if (query.cursor !== undefined && !place) throw validationFailed([{ path: 'cursor', message: AUDIT_CURSOR_REFUSED }]);
  const found = await deps.store.list({
    limit: limit + 1,
    now: new Date(deps.clock.now()),
    ...(within === undefined ? {} : { repositoryId: within.repositoryId }),
    ...(query.repository === undefined ? {} : { repository: query.repository }),
    ...(query.owner === undefined ? {} : { owner: query.owner }),
    ...(query.outcome === undefined ? {} : { outcome: query.outcome }),
    ...(query.workflow === undefined ? {} : { workflow: query.workflow }),
    ...(query.actor === undefined ? {} : { actor: query.actor }),
    ...(query.since === undefined ? {} : { since: query.since }),
    ...(query.until === undefined ? {} : { until: query.until }),
    ...(query.hashed_token === undefined ? {} : { hashedToken: query.hashed_token }),
    ...(place === undefined ? {} : { after: { recordedAt: new Date(place.time), id: place.id } }),
  });
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  const next = found.length > limit && last ? encodePlace({ time: last.recordedAt.getTime(), id: last.id }, CURSOR_VERSION, cursorKey, scope) : null;
  return { records: page.map(recordOf), next };
}
