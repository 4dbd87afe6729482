import type { Clock } from '../clock.js';
import type { DeploymentRecord, Store } from '../store/types.js';
import { validationFailed } from '../http/validation.js';
import { decodePlace, encodePlace } from '../http/signed-cursor.js';
import type { RepositoryRef } from './delivery-figures.js';
import { CURSOR_REFUSED, HISTORY_DEFAULT_LIMIT, type HistoryQuery } from './schema.js';

/*
 * The history's paging cursor (server/http/signed-cursor.ts): the place of a page's last record in
 * the history's order (recordedAt, then deploymentId, both descending), signed under the ledger's
 * cursor key for the repository it was made for. A place alone could reach nothing outside that
 * repository; the MAC makes "a cursor this service returned" true rather than a matter of shape.
 */
const CURSOR_VERSION = 'h2';

export interface HistoryPage {
  readonly records: DeploymentRecord[];
  /** The cursor of the following page; undefined when this page is the last. */
  readonly next?: string;
}

/**
 * The caller's own records (by repository id, never by name), newest first, one page. One more
 * record than the page is read, so `next` is given only when a following page has something.
 * Cursors are made and checked under `cursorKey`; one it did not make is a 422.
 */
export async function listDeployments(
  deps: { readonly store: Store; readonly clock: Clock },
  caller: RepositoryRef,
  query: HistoryQuery,
  cursorKey: Uint8Array,
): Promise<HistoryPage> {
  const limit = query.limit ?? HISTORY_DEFAULT_LIMIT;
  const place = query.cursor === undefined ? undefined : decodePlace(query.cursor, CURSOR_VERSION, cursorKey, caller.repositoryId);
  if (query.cursor !== undefined && !place) throw validationFailed([{ path: 'cursor', message: CURSOR_REFUSED }]);
  const found = await deps.store.deployments.list({
    repositoryId: caller.repositoryId,
    limit: limit + 1,
    now: new Date(deps.clock.now()),
    ...(query.environment === undefined ? {} : { environment: query.environment }),
    ...(query.since === undefined ? {} : { since: query.since }),
    ...(query.until === undefined ? {} : { until: query.until }),
    ...(place === undefined ? {} : { after: { recordedAt: new Date(place.time), deploymentId: place.id } }),
  });
  if (found.length <= limit) return { records: found };
  const records = found.slice(0, limit);
  const last = records[records.length - 1]!;
  return { records, next: encodePlace({ time: last.recordedAt.getTime(), id: last.deploymentId }, CURSOR_VERSION, cursorKey, caller.repositoryId) };
}
