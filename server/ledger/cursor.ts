import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DeploymentRecord, HistoryPosition } from '../store/types.js';

/*
 * The history's paging cursor: the place of a page's last record in the history's order
 * (recordedAt, then deploymentId, both descending). A place, not an offset, so records arriving
 * meanwhile (newer, so listed before it) neither repeat nor hide anything on the next pages.
 * Opaque to callers, and authenticated: an HMAC-SHA256 under the ledger's cursor key over the
 * place and the repository it was made for, so the service accepts only cursors it made, for the
 * caller's own repository. A place alone could reach nothing outside that repository; the MAC makes
 * "a cursor this service returned" true rather than a matter of shape.
 */

const VERSION = 'h2';
const ID = /^[0-9a-f-]{1,64}$/;
/** A MAC truncated to 128 bits (NIST SP 800-107 allows truncation; forgery stays 2^-128). */
const MAC_BYTES = 16;

function mac(key: Uint8Array, repositoryId: string, place: string): Buffer {
  return createHmac('sha256', key).update(`${repositoryId}\n${place}`).digest().subarray(0, MAC_BYTES);
}

/** The cursor of the place after `record`, for the repository `repositoryId`. */
export function encodeCursor(record: DeploymentRecord, key: Uint8Array, repositoryId: string): string {
  const place = `${VERSION}.${record.recordedAt.getTime()}.${record.deploymentId}`;
  return `${Buffer.from(place).toString('base64url')}.${mac(key, repositoryId, place).toString('base64url')}`;
}

/** The place a cursor names, or undefined when this service (under this key) did not make it for this repository. */
export function decodeCursor(cursor: string, key: Uint8Array, repositoryId: string): HistoryPosition | undefined {
  const parts = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  if (!parts) return undefined;
  const place = Buffer.from(parts[1]!, 'base64url').toString('utf8');
  const given = Buffer.from(parts[2]!, 'base64url');
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(key, repositoryId, place))) return undefined;
  const [version, time, id, ...rest] = place.split('.');
  if (version !== VERSION || rest.length > 0 || !time || !/^[0-9]{1,16}$/.test(time) || !id || !ID.test(id)) return undefined;
  const recordedAt = new Date(Number(time));
  return Number.isNaN(recordedAt.getTime()) ? undefined : { recordedAt, deploymentId: id };
}
