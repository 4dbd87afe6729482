import type { DeploymentRecord, HistoryPosition } from '../store/types.js';

/*
 * The history's paging cursor: the place of a page's last record in the history's order
 * (recordedAt, then deploymentId, both descending). A place, not an offset, so records arriving
 * meanwhile (newer, so listed before it) neither repeat nor hide anything on the next pages.
 * Opaque to callers: base64url of a versioned text, which may change.
 */

const VERSION = 'h1';
const ID = /^[0-9a-f-]{1,64}$/;

export function encodeCursor(record: DeploymentRecord): string {
  return Buffer.from(`${VERSION}.${record.recordedAt.getTime()}.${record.deploymentId}`).toString('base64url');
}

/** The place a cursor names, or undefined when it is not one this service made. */
export function decodeCursor(cursor: string): HistoryPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const [version, time, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (version !== VERSION || rest.length > 0 || !time || !/^[0-9]{1,16}$/.test(time) || !id || !ID.test(id)) return undefined;
  const recordedAt = new Date(Number(time));
  return Number.isNaN(recordedAt.getTime()) ? undefined : { recordedAt, deploymentId: id };
}
