import { collect, ConfigError, memoOnEnv, parseSecureBase, type Checked, type Env } from '../config-error.js';
import { secureOrLoopback } from '../http/loopback.js';

/** The four settings that turn the console on: all set → on, none → off, some → the process does not start. */
export const CONSOLE_SWITCHES = ['FORGE_APP_CLIENT_ID', 'FORGE_APP_CLIENT_SECRET', 'CONSOLE_SESSION_KEY', 'CONSOLE_URL'] as const;

const DEFAULT_WEB_BASE = 'https://github.com';
const DEFAULT_API_BASE = 'https://api.github.com';
/** 256 bits: the session key signs cookies and seals tokens (HKDF derives one key per use from it). */
export const MIN_SESSION_KEY_BYTES = 32;

export interface ConsoleSettings {
  /** The GitHub App's client id (not its app id). */
  readonly clientId: string;
  /** Secret: never logged. */
  readonly clientSecret: string;
  /** Secret: never logged. At least 32 bytes. */
  readonly sessionKey: Uint8Array;
  /** The console's public origin (`CONSOLE_URL`), without a trailing slash. */
  readonly url: string;
  /** `CONSOLE_URL` + `/console/callback`: what the App's "Callback URL" must be. */
  readonly callbackUrl: string;
  /** Cookies are `Secure` unless the console is plain http on loopback. */
  readonly secureCookies: boolean;
  /** Where `/login/oauth/…` lives (`FORGE_WEB_BASE`). */
  readonly webBase: string;
  /** Where the user-token REST calls go (`FORGE_API_BASE`). */
  readonly apiBase: string;
}

export type ConsoleState = { readonly on: false } | { readonly on: true; readonly settings: ConsoleSettings };

function clientId(env: Env): string {
  const raw = env.FORGE_APP_CLIENT_ID!.trim();
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(raw)) throw new ConfigError('FORGE_APP_CLIENT_ID', "must be the GitHub App's client ID (letters, digits, '.', '_', '-'), not its app ID or a URL");
  return raw;
}

function clientSecret(env: Env): string {
  const raw = env.FORGE_APP_CLIENT_SECRET!.trim();
  if (/\s/.test(raw)) throw new ConfigError('FORGE_APP_CLIENT_SECRET', 'must be one client secret of the GitHub App, without spaces');
  return raw;
}

/**
 * `openssl rand -hex 32` or `openssl rand -base64 32`: hex is read first (a hex string is also
 * valid base64, and would then carry fewer bytes than its author meant), then base64 or base64url.
 */
export function parseSessionKey(raw: string): Uint8Array {
  const text = raw.trim();
  let key: Buffer | undefined;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) key = Buffer.from(text, 'hex');
  else if (/^[A-Za-z0-9+/]+={0,2}$/.test(text) || /^[A-Za-z0-9_-]+$/.test(text)) {
    const decoded = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
    // Node's decoder skips what it cannot read: only an exact round trip is the value given.
    const again = decoded.toString(text.includes('-') || text.includes('_') ? 'base64url' : 'base64').replace(/=+$/, '');
    if (again === text.replace(/=+$/, '')) key = decoded;
  }
  if (!key) throw new ConfigError('CONSOLE_SESSION_KEY', 'must be hex or base64 (for example: openssl rand -hex 32)');
  if (key.length < MIN_SESSION_KEY_BYTES) throw new ConfigError('CONSOLE_SESSION_KEY', `must hold at least ${MIN_SESSION_KEY_BYTES} bytes (for example: openssl rand -hex 32)`);
  return new Uint8Array(key);
}

function consoleUrl(env: Env): { url: string; secure: boolean } {
  const url = URL.parse(env.CONSOLE_URL!.trim());
  if (!url) throw new ConfigError('CONSOLE_URL', 'must be an absolute URL such as https://gatehouse.example.com');
  // Session cookies travel to this address: never in clear over a network.
  if (!secureOrLoopback(url)) throw new ConfigError('CONSOLE_URL', 'must be an https URL (http is accepted only on loopback)');
  if (url.search || url.hash || url.username || url.password || url.pathname !== '/') {
    throw new ConfigError('CONSOLE_URL', 'must be an origin only (scheme, host and port): the console lives at its /console path');
  }
  return { url: url.origin, secure: url.protocol === 'https:' };
}

/**
 * Pure: the console's settings, or every unusable one. None of the four switches set → off; some
 * of them → a problem naming each missing one (a half-configured console would fail only when a
 * person signs in, far from the mistake).
 */
export function checkConsoleSettings(env: Env): Checked<ConsoleState> {
  const set = CONSOLE_SWITCHES.filter((name) => env[name]?.trim());
  if (set.length === 0) return { ok: true, value: { on: false } };
  const problems: ConfigError[] = CONSOLE_SWITCHES.filter((name) => !set.includes(name)).map(
    (name) => new ConfigError(name, `is not set: the console needs all of ${CONSOLE_SWITCHES.join(', ')} (or none of them, which leaves it off)`),
  );
  if (problems.length > 0) return { ok: false, problems };
  const id = collect(problems, () => clientId(env));
  const secret = collect(problems, () => clientSecret(env));
  const key = collect(problems, () => parseSessionKey(env.CONSOLE_SESSION_KEY!));
  const origin = collect(problems, () => consoleUrl(env));
  const webBase = collect(problems, () => parseSecureBase('FORGE_WEB_BASE', env.FORGE_WEB_BASE?.trim() ? env.FORGE_WEB_BASE : DEFAULT_WEB_BASE));
  const apiBase = collect(problems, () => parseSecureBase('FORGE_API_BASE', env.FORGE_API_BASE?.trim() ? env.FORGE_API_BASE : DEFAULT_API_BASE));
  if (problems.length > 0 || !id || !secret || !key || !origin || !webBase || !apiBase) return { ok: false, problems };
  return {
    ok: true,
    value: {
      on: true,
      settings: { clientId: id, clientSecret: secret, sessionKey: key, url: origin.url, callbackUrl: `${origin.url}/console/callback`, secureCookies: origin.secure, webBase, apiBase },
    },
  };
}

/** The console's settings of an environment, checked once per set of values (start-up and requests alike). */
export const consoleSettings = memoOnEnv(checkConsoleSettings);

/** The start-up line: how to turn the console on, or where it is. */
export function consoleNotice(state: ConsoleState): { level: 'info'; message: string } {
  if (!state.on) return { level: 'info', message: `console: off; set ${CONSOLE_SWITCHES.join(', ')} to turn it on (docs/console.md)` };
  return { level: 'info', message: `console: on at ${state.settings.url}/console; the GitHub App's callback URL must be ${state.settings.callbackUrl}` };
}
