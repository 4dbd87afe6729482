import type { IssuerConfig, IssuerMap } from '../auth/issuers.js';
import { GITHUB_ACTIONS_ISSUER, jwksUrlOf, parseIssuerUrl, parseJwksDocument } from '../auth/issuers.js';
import { commaList, ConfigError, settingsSource, type Env } from '../config-error.js';

export interface LedgerSettings {
  readonly issuers: IssuerMap;
  /** Empty: every token is refused (`LEDGER_AUDIENCE` unset). */
  readonly audiences: readonly string[];
  /** Lowercased owner logins; empty denies every caller. */
  readonly allowedOwners: ReadonlySet<string>;
  readonly retentionDays: number;
  /** Secret: never logged. */
  readonly chatWebhookUrl?: string;
}

export const DEFAULT_RETENTION_DAYS = 90;
const MAX_RETENTION_DAYS = 36_500;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const KEYS = [
  'OIDC_ISSUER',
  'LEDGER_AUDIENCE',
  'LEDGER_ALLOWED_OWNERS',
  'LEDGER_JWKS_DOCUMENT',
  'LEDGER_RETENTION_DAYS',
  'LEDGER_CHAT_WEBHOOK_URL',
] as const;

function issuerMap(env: Env): IssuerMap {
  const raw = env.OIDC_ISSUER?.trim() ? env.OIDC_ISSUER : GITHUB_ACTIONS_ISSUER;
  const parsed = parseIssuerUrl(raw);
  if ('error' in parsed) throw new ConfigError('OIDC_ISSUER', parsed.error);
  let config: IssuerConfig = { issuer: parsed.issuer, jwksUrl: jwksUrlOf(parsed.issuer) };
  if (env.LEDGER_JWKS_DOCUMENT?.trim()) {
    const pinned = parseJwksDocument(env.LEDGER_JWKS_DOCUMENT);
    if ('error' in pinned) throw new ConfigError('LEDGER_JWKS_DOCUMENT', pinned.error);
    config = { ...config, pinnedJwks: pinned.jwks };
  }
  return new Map([[config.issuer, config]]);
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
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('LEDGER_CHAT_WEBHOOK_URL', 'must be an absolute URL');
  }
  // The URL itself is the credential of an incoming webhook: never send it in clear over a network.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new ConfigError('LEDGER_CHAT_WEBHOOK_URL', 'must be an https URL (http is accepted only on loopback)');
  }
  return url.href;
}

/** Pure: the environment to typed ledger settings, or a `ConfigError` naming the setting. */
export function parseLedgerSettings(env: Env): LedgerSettings {
  const chat = chatWebhookUrl(env);
  return {
    issuers: issuerMap(env),
    audiences: commaList(env.LEDGER_AUDIENCE),
    allowedOwners: new Set(commaList(env.LEDGER_ALLOWED_OWNERS).map((o) => o.toLowerCase())),
    retentionDays: retentionDays(env),
    ...(chat ? { chatWebhookUrl: chat } : {}),
  };
}

/** Per request, parsing again only when one of the ledger's variables changed. */
export function ledgerSettingsSource(env: () => Env): () => LedgerSettings {
  return settingsSource(env, KEYS, parseLedgerSettings);
}
