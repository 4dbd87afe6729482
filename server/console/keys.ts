import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { compactDecrypt, CompactEncrypt, EncryptJWT, jwtDecrypt } from 'jose';

/*
 * Everything the console signs or seals, under keys derived from CONSOLE_SESSION_KEY with HKDF
 * (node:crypto), one key per use: the session cookie's HMAC, the CSRF tokens, the sealed GitHub
 * tokens in the store, the sign-in state cookie, the history cursors and the token audit's
 * cursors. Sealing is jose's JWE (`dir`, A256GCM); signing is HMAC-SHA256. No primitive of our own.
 */

const USES = ['cookie', 'csrf', 'credentials', 'login', 'cursor', 'audit'] as const;
export type KeyUse = (typeof USES)[number];
export type ConsoleKeys = Readonly<Record<KeyUse, Uint8Array>>;

const derived = new WeakMap<Uint8Array, ConsoleKeys>();

/** One 256-bit key per use, derived once per session key. */
export function consoleKeys(sessionKey: Uint8Array): ConsoleKeys {
  let keys = derived.get(sessionKey);
  if (!keys) {
    keys = Object.fromEntries(USES.map((use) => [use, new Uint8Array(hkdfSync('sha256', sessionKey, 'gatehouse-console', `gatehouse console ${use}`, 32))])) as ConsoleKeys;
    derived.set(sessionKey, keys);
  }
  return keys;
}

const mac = (key: Uint8Array, text: string): Buffer => createHmac('sha256', key).update(text).digest();

/** A new session's cookie value (`<secret>.<hmac>`) and the store's key for it (a digest: the store never holds the secret). */
export function newSessionCookie(keys: ConsoleKeys): { value: string; id: string } {
  const secret = randomBytes(32).toString('base64url');
  return { value: `${secret}.${mac(keys.cookie, secret).toString('base64url')}`, id: sessionIdOf(secret) };
}

const sessionIdOf = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

/** The store's key of a cookie this console made, or undefined for anything else (forged, altered, made under another key). */
export function sessionIdFromCookie(keys: ConsoleKeys, value: string | undefined): string | undefined {
  const parts = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
  if (!parts) return undefined;
  const given = Buffer.from(parts[2]!, 'base64url');
  return timingSafeEqual(given, mac(keys.cookie, parts[1]!)) ? sessionIdOf(parts[1]!) : undefined;
}

/** The CSRF token of a session: bound to it, so a token of another session (or none) is refused. */
export const csrfTokenOf = (keys: ConsoleKeys, sessionId: string): string => mac(keys.csrf, sessionId).toString('base64url');

export function csrfTokenValid(keys: ConsoleKeys, sessionId: string, given: unknown): boolean {
  if (typeof given !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'base64url'), mac(keys.csrf, sessionId));
}

const JWE_HEADER = { alg: 'dir', enc: 'A256GCM' } as const;

/** JSON sealed (encrypted and authenticated) under one of the console's keys. */
export async function seal(key: Uint8Array, value: unknown): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(value))).setProtectedHeader(JWE_HEADER).encrypt(key);
}

/** What `seal` sealed under `key`; undefined when the text was not sealed under it. */
export async function unseal<T>(key: Uint8Array, text: string): Promise<T | undefined> {
  try {
    const { plaintext } = await compactDecrypt(text, key, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    return JSON.parse(new TextDecoder().decode(plaintext)) as T;
  } catch {
    return undefined;
  }
}

/** A sealed value that stops being readable after `lifetimeSeconds` (the sign-in state). */
export async function sealFor(key: Uint8Array, value: Record<string, unknown>, lifetimeSeconds: number, nowMs: number): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  return new EncryptJWT(value).setProtectedHeader(JWE_HEADER).setIssuedAt(now).setExpirationTime(now + lifetimeSeconds).encrypt(key);
}

export async function unsealFor<T>(key: Uint8Array, text: string, nowMs: number): Promise<T | undefined> {
  try {
    const { payload } = await jwtDecrypt(text, key, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'], currentDate: new Date(nowMs) });
    return payload as T;
  } catch {
    return undefined;
  }
}
