import type { Clock } from '../clock.js';
import type { DeploymentRecord, Store } from '../store/types.js';
import { validationFailed } from '../http/validation.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { RepositoryRef } from './delivery-figures.js';
import { CURSOR_REFUSED, HISTORY_DEFAULT_LIMIT, type HistoryQuery } from './schema.js';

export interface HistoryPage {
  readonly records: DeploymentRecord[];
  /** The cursor of the following page; undefined when this page is the last. */
  readonly next?: string;
}

/**
 * The caller's own records (by repository id, never by name), newest first, one page. One more
 * record than the page is read, so `next` is given only when a following page has something.
 * Cursors are made and checked under `cursorKey` (`cursor.ts`); one it did not make is a 422.
 */
export async function listDeployments(
  deps: { readonly store: Store; readonly clock: Clock },
  caller: RepositoryRef,
  query: HistoryQuery,
  cursorKey: Uint8Array,
): Promise<HistoryPage> {
  const limit = query.limit ?? HISTORY_DEFAULT_LIMIT;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, cursorKey, caller.repositoryId);
  if (query.cursor !== undefined && !after) throw validationFailed([{ path: 'cursor', message: CURSOR_REFUSED }]);
  const found = await deps.store.deployments.list({
    repositoryId: caller.repositoryId,
    limit: limit + 1,
    now: new Date(deps.clock.now()),
    ...(query.environment === undefined ? {} : { environment: query.environment }),
    ...(query.since === undefined ? {} : { since: query.since }),
    ...(query.until === undefined ? {} : { until: query.until }),
    ...(after === undefined ? {} : { after }),
  });
  if (found.length <= limit) return { records: found };
  const records = found.slice(0, limit);
  return { records, next: encodeCursor(records[records.length - 1]!, cursorKey, caller.repositoryId) };
}
