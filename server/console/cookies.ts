import { parse, serialize } from 'cookie';
import type { IncomingMessage } from 'node:http';
import type { ConsoleSettings } from './settings.js';

/*
 * The console's two cookies: the session (a signed session id) and the sign-in state (sealed
 * `state`, PKCE verifier and return path, for ten minutes). HttpOnly, SameSite=Lax (GitHub's
 * redirect back is a top-level navigation, which Lax lets through), Secure unless the console is
 * plain http on loopback; with Secure they carry the `__Host-` prefix (no Domain, Path=/), so no
 * subdomain can set or shadow them.
 */

export type CookieName = 'session' | 'login';

export const cookieName = (settings: ConsoleSettings, name: CookieName): string => `${settings.secureCookies ? '__Host-' : ''}gatehouse_${name}`;

export function readCookie(req: IncomingMessage, settings: ConsoleSettings, name: CookieName): string | undefined {
  const header = req.headers.cookie;
  return header ? parse(header)[cookieName(settings, name)] : undefined;
}

/** A `Set-Cookie` value; `maxAgeSeconds` 0 removes the cookie. */
export function cookieHeader(settings: ConsoleSettings, name: CookieName, value: string, maxAgeSeconds: number): string {
  return serialize(cookieName(settings, name), value, { httpOnly: true, sameSite: 'lax', secure: settings.secureCookies, path: '/', maxAge: Math.max(0, Math.floor(maxAgeSeconds)) });
}
