import type { IssuerConfig, IssuerMap } from '../auth/issuers.js';
import { GITHUB_ACTIONS_ISSUER, jwksUrlOf, parseJwksDocument } from '../auth/issuers.js';
import { collect, commaList, ConfigError, memoOnEnv, parseSecureBase, type Checked, type Env } from '../config-error.js';
import { secureOrLoopback } from '../http/loopback.js';

export interface LedgerSettings {
  readonly issuers: IssuerMap;
  /** Empty: every token is refused (`LEDGER_AUDIENCE` unset). */
  readonly audiences: readonly string[];
  /** Lowercased owner logins; empty denies every caller. */
  readonly allowedOwners: ReadonlySet<string>;
  readonly retentionDays: number;
  /** Secret: never logged. */
  readonly chatWebhookUrl?: string;
  /** `LEDGER_CURSOR_KEY`: the history cursors' HMAC key, shared by every replica; unset, each process makes its own. Secret. */
  readonly cursorKey?: Uint8Array;
}

const DEFAULT_RETENTION_DAYS = 90;
const MAX_RETENTION_DAYS = 36_500;

/** A cursor key shorter than this is too easy to guess (32 characters of a random token carry ≥ 128 bits). */
const MIN_CURSOR_KEY_LENGTH = 32;

function issuer(env: Env): IssuerConfig {
  const raw = env.OIDC_ISSUER?.trim() ? env.OIDC_ISSUER : GITHUB_ACTIONS_ISSUER;
  const issuer = parseSecureBase('OIDC_ISSUER', raw);
  return { issuer, jwksUrl: jwksUrlOf(issuer) };
}

function pinnedJwks(env: Env): Pick<IssuerConfig, 'pinnedJwks'> {
  if (!env.LEDGER_JWKS_DOCUMENT?.trim()) return {};
  const pinned = parseJwksDocument(env.LEDGER_JWKS_DOCUMENT);
  if ('error' in pinned) throw new ConfigError('LEDGER_JWKS_DOCUMENT', pinned.error);
  return { pinnedJwks: pinned.jwks };
}

function retentionDays(env: Env): number {
  const raw = env.LEDGER_RETENTION_DAYS?.trim();
  if (!raw) return DEFAULT_RETENTION_DAYS;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError('LEDGER_RETENTION_DAYS', 'must be a whole number of days');
  const days = Number(raw);
  if (days < 1 || days > MAX_RETENTION_DAYS) {
    throw new ConfigError('LEDGER_RETENTION_DAYS', `must be between 1 and ${MAX_RETENTION_DAYS}`);
  }
  return days;
}

function chatWebhookUrl(env: Env): string | undefined {
  const raw = env.LEDGER_CHAT_WEBHOOK_URL?.trim();
  if (!raw) return undefined;
  const url = URL.parse(raw);
  if (!url) throw new ConfigError('LEDGER_CHAT_WEBHOOK_URL', 'must be an absolute URL');
  // The URL itself is the credential of an incoming webhook: never send it in clear over a network.
  if (!secureOrLoopback(url)) {
    throw new ConfigError('LEDGER_CHAT_WEBHOOK_URL', 'must be an https URL (http is accepted only on loopback)');
  }
  return url.href;
}

function cursorKey(env: Env): Uint8Array | undefined {
  const raw = env.LEDGER_CURSOR_KEY?.trim();
  if (!raw) return undefined;
  if (raw.length < MIN_CURSOR_KEY_LENGTH) throw new ConfigError('LEDGER_CURSOR_KEY', `must be at least ${MIN_CURSOR_KEY_LENGTH} characters (for example: openssl rand -hex 32)`);
  return Buffer.from(raw, 'utf8');
}

/**
 * Pure: the environment to typed ledger settings, or every unusable setting (each a
 * `ConfigError` naming it, never its value), so start-up can report them all at once.
 */
export function checkLedgerSettings(env: Env): Checked<LedgerSettings> {
  const problems: ConfigError[] = [];
  const issuerConfig = collect(problems, () => issuer(env));
  const pinned = collect(problems, () => pinnedJwks(env));
  const retention = collect(problems, () => retentionDays(env));
  const chat = collect(problems, () => chatWebhookUrl(env));
  const key = collect(problems, () => cursorKey(env));
  if (problems.length > 0 || !issuerConfig || !pinned || retention === undefined) return { ok: false, problems };
  const config: IssuerConfig = { ...issuerConfig, ...pinned };
  return {
    ok: true,
    value: {
      issuers: new Map([[config.issuer, config]]),
      audiences: commaList(env.LEDGER_AUDIENCE),
      allowedOwners: new Set(commaList(env.LEDGER_ALLOWED_OWNERS).map((o) => o.toLowerCase())),
      retentionDays: retention,
      ...(chat ? { chatWebhookUrl: chat } : {}),
      ...(key ? { cursorKey: key } : {}),
    },
  };
}

/** The ledger's settings of an environment, checked once per set of values (start-up and requests alike). */
export const ledgerSettings = memoOnEnv(checkLedgerSettings);
