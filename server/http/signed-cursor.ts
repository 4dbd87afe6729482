import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Paging cursors of newest-first lists (the ledger's history, the token audit): the place of a
 * page's last item (its time and id), not an offset, so items arriving meanwhile (newer, so listed
 * before it) neither repeat nor hide anything on the next pages. Opaque to callers, and
 * authenticated: an HMAC-SHA256 under the service's key over the place and the `scope` it was made
 * for (the ledger: the caller's repository; the audit: the query's filters), so the service accepts
 * only cursors it made, for the same list.
 */

export interface Place {
  readonly time: number;
  readonly id: string;
}

const ID = /^[0-9a-f-]{1,64}$/;
/** A MAC truncated to 128 bits (NIST SP 800-107 allows truncation; forgery stays 2^-128). */
const MAC_BYTES = 16;

function mac(key: Uint8Array, scope: string, place: string): Buffer {
  return createHmac('sha256', key).update(`${scope}\n${place}`).digest().subarray(0, MAC_BYTES);
}

/** The cursor of the place after `place`, for `scope`; `version` names the cursor's kind (and its format). */
export function encodePlace(place: Place, version: string, key: Uint8Array, scope: string): string {
  const text = `${version}.${place.time}.${place.id}`;
  return `${Buffer.from(text).toString('base64url')}.${mac(key, scope, text).toString('base64url')}`;
}

/** The place a cursor names, or undefined when this service (under this key) did not make it, of this kind, for this scope. */
export function decodePlace(cursor: string, version: string, key: Uint8Array, scope: string): Place | undefined {
  const parts = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  if (!parts) return undefined;
  const text = Buffer.from(parts[1]!, 'base64url').toString('utf8');
  const given = Buffer.from(parts[2]!, 'base64url');
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(key, scope, text))) return undefined;
  const [kind, time, id, ...rest] = text.split('.');
  if (kind !== version || rest.length > 0 || !time || !/^[0-9]{1,16}$/.test(time) || !id || !ID.test(id)) return undefined;
  const ms = Number(time);
  return Number.isNaN(new Date(ms).getTime()) ? undefined : { time: ms, id };
}
