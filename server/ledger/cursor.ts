import { decodePlace, encodePlace } from '../http/signed-cursor.js';
import type { DeploymentRecord, HistoryPosition } from '../store/types.js';

/*
 * The history's paging cursor (server/http/signed-cursor.ts): the place of a page's last record in
 * the history's order (recordedAt, then deploymentId, both descending), signed under the ledger's
 * cursor key for the repository it was made for. A place alone could reach nothing outside that
 * repository; the MAC makes "a cursor this service returned" true rather than a matter of shape.
 */

const VERSION = 'h2';

/** The cursor of the place after `record`, for the repository `repositoryId`. */
export function encodeCursor(record: DeploymentRecord, key: Uint8Array, repositoryId: string): string {
  return encodePlace({ time: record.recordedAt.getTime(), id: record.deploymentId }, VERSION, key, repositoryId);
}

/** The place a cursor names, or undefined when this service (under this key) did not make it for this repository. */
export function decodeCursor(cursor: string, key: Uint8Array, repositoryId: string): HistoryPosition | undefined {
  const place = decodePlace(cursor, VERSION, key, repositoryId);
  return place && { recordedAt: new Date(place.time), deploymentId: place.id };
}
