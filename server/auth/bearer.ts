import { secretsEqual } from './secrets.js';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The credential of an `Authorization: Bearer <credential>` header, or undefined when the
 * header is missing, empty, of another scheme or malformed. The scheme is case-insensitive (RFC 7235).
 */
export function bearerCredential(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer +([^\s]+) *$/i.exec(value);
  return match?.[1];
}

/** Whether the request carries `Authorization: Bearer <secret>`, compared in constant time. */
export function presentsBearer(headers: IncomingHttpHeaders, secret: string): boolean {
  const presented = bearerCredential(headers);
  return presented !== undefined && secretsEqual(presented, secret);
}
