import type { IssuerConfig, IssuerMap } from '../auth/issuers.js';
import { GITHUB_ACTIONS_ISSUER, jwksUrlOf } from '../auth/issuers.js';
import { commaList, ConfigError, memoOnEnv, parseSecureBase, type Env } from '../config-error.js';
import { jsonValue } from '../http/json.js';
import { parseAppCredentials, type AppCredentials } from '../platform/credentials.js';
import { repositoryPermissionProblem } from '../platform/permission-vocabulary.js';
import type { Access, Permissions } from '../platform/permissions.js';
import type { Policy } from './policy/model.js';
import { parsePolicy } from './policy/parse.js';

/** A setting that parsed, or the typed reason it did not (only the routes that need it fail). */
export type Setting<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ConfigError };

/** One platform instance: the issuer whose tokens it accepts, and the app that mints for them. */
export interface PlatformSettings {
  readonly name: 'primary' | 'enterprise';
  readonly issuer: IssuerConfig;
  readonly apiBase: Setting<string>;
  readonly app: Setting<AppCredentials>;
  /** Skips the per-repository installation lookup (enterprise only). */
  readonly installationId?: number;
}

export interface BrokerSettings {
  readonly audiences: readonly string[];
  /** `null`: every repository the app is installed on is allowed. */
  readonly allowedRepositories: ReadonlySet<string> | null;
  readonly tokenPermissions: Setting<Permissions>;
  /** Secrets: never logged. Unset disables their routes. */
  readonly triggerSecret?: string;
  readonly webhookSecret?: string;
  readonly autoUpdateBranches: boolean;
  /** Issuer string → its platform (one, or two with enterprise support on). */
  readonly platforms: Setting<ReadonlyMap<string, PlatformSettings>>;
  readonly primary: Setting<PlatformSettings>;
  readonly releasesMaxRepos: Setting<number>;
  /** `BROKER_POLICY`: undefined value when unset (today's checks only). */
  readonly policy: Setting<Policy | undefined>;
}

/** The current audience and the legacy one from before the rename; clients pin one, so both stay. */
export const DEFAULT_AUDIENCES = ['gatehouse-broker', 'forge-token-broker'] as const;
export const DEFAULT_PERMISSIONS: Permissions = { contents: 'write', pull_requests: 'write' };
const DEFAULT_API_BASE = 'https://api.github.com';
const DEFAULT_RELEASES_MAX_REPOS = 1000;

const PERMISSION_NAME = /^[a-z]+(_[a-z]+)*$/;
const TRUE_FLAGS = new Set(['1', 'true', 'yes', 'on']);

function attempt<T>(parse: () => T): Setting<T> {
  try {
    return { ok: true, value: parse() };
  } catch (err) {
    if (err instanceof ConfigError) return { ok: false, error: err };
    throw err;
  }
}

/**
 * Blank → the default pair. Otherwise a JSON object or a comma list of `key=value` / `key:value`
 * naming repository permissions GitHub knows, each with a value GitHub accepts for it.
 */
export function parseTokenPermissions(raw: string | undefined): Permissions {
  const text = raw?.trim() ?? '';
  if (!text) return DEFAULT_PERMISSIONS;
  const entries = text.startsWith('{') ? jsonEntries(text) : listEntries(text);
  if (entries.length === 0) throw new ConfigError('TOKEN_PERMISSIONS', 'parses to no permission');
  const out: Record<string, Access> = {};
  for (const [name, access] of entries) {
    if (!PERMISSION_NAME.test(name)) throw new ConfigError('TOKEN_PERMISSIONS', 'has a key that is not lowercase with underscores');
    if (access !== 'read' && access !== 'write') throw new ConfigError('TOKEN_PERMISSIONS', 'has a value other than read or write');
    // A repeated key is ambiguous: refuse rather than pick one.
    if (Object.hasOwn(out, name)) throw new ConfigError('TOKEN_PERMISSIONS', 'names a permission twice');
    // Checked here, not left to the mint: a misspelt name would be dropped silently (no grant
    // holds it), a value GitHub refuses would fail every mint, and an organization permission
    // would give a one-repository caller power over the whole organization.
    const problem = repositoryPermissionProblem(name, access);
    if (problem) throw new ConfigError('TOKEN_PERMISSIONS', problem);
    out[name] = access;
  }
  return out;
}

function jsonEntries(text: string): [string, unknown][] {
  const doc = jsonValue(text);
  if (doc === undefined) throw new ConfigError('TOKEN_PERMISSIONS', 'is not valid JSON');
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new ConfigError('TOKEN_PERMISSIONS', 'must be a JSON object');
  return Object.entries(doc);
}

function listEntries(text: string): [string, unknown][] {
  return commaList(text).map((entry) => {
    const match = /^([^=:]+)[=:](.*)$/.exec(entry);
    if (!match) throw new ConfigError('TOKEN_PERMISSIONS', 'has an entry that is not key=value or key:value');
    return [match[1]!.trim(), match[2]!.trim()];
  });
}

/** Blank or unset: no policy. The text is parsed as given, so line numbers are the operator's. */
export function policySetting(raw: string | undefined): Setting<Policy | undefined> {
  if (!raw?.trim()) return { ok: true, value: undefined };
  return attempt(() => parsePolicy(raw));
}

/** A policy may be 100 KB: another broker variable changing does not parse it again. */
const policyOf = memoOnEnv((env) => policySetting(env.BROKER_POLICY));

export function parseFlag(raw: string | undefined): boolean {
  return TRUE_FLAGS.has((raw ?? '').trim().toLowerCase());
}

/** Used only when it parses to a positive integer; anything else means "look it up". */
export function parseInstallationId(raw: string | undefined): number | undefined {
  const text = raw?.trim() ?? '';
  if (!/^[0-9]+$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function parseReleasesMaxRepos(raw: string | undefined): number {
  const text = raw?.trim() ?? '';
  if (!text) return DEFAULT_RELEASES_MAX_REPOS;
  const n = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 100_000) throw new ConfigError('RELEASES_MAX_REPOS', 'must be a whole number from 1 to 100000');
  return n;
}

function issuerSetting(setting: string, raw: string): IssuerConfig {
  const issuer = parseSecureBase(setting, raw);
  return { issuer, jwksUrl: jwksUrlOf(issuer) };
}

function primaryPlatform(env: Env): PlatformSettings {
  return {
    name: 'primary',
    issuer: issuerSetting('OIDC_ISSUER', env.OIDC_ISSUER?.trim() ? env.OIDC_ISSUER : GITHUB_ACTIONS_ISSUER),
    apiBase: attempt(() => parseSecureBase('FORGE_API_BASE', env.FORGE_API_BASE?.trim() ? env.FORGE_API_BASE : DEFAULT_API_BASE)),
    app: attempt(() => parseAppCredentials(env, { appId: 'FORGE_APP_ID', privateKey: 'FORGE_APP_PRIVATE_KEY' })),
  };
}

/** Enterprise support is on exactly when `ENTERPRISE_OIDC_ISSUER` is set. */
function enterprisePlatform(env: Env, primaryIssuer: string | undefined): PlatformSettings | undefined {
  if (!env.ENTERPRISE_OIDC_ISSUER?.trim()) return undefined;
  const issuer = issuerSetting('ENTERPRISE_OIDC_ISSUER', env.ENTERPRISE_OIDC_ISSUER);
  if (issuer.issuer === primaryIssuer) throw new ConfigError('ENTERPRISE_OIDC_ISSUER', 'must differ from the primary issuer');
  const installationId = parseInstallationId(env.ENTERPRISE_APP_INSTALLATION_ID);
  return {
    name: 'enterprise',
    issuer,
    apiBase: attempt(() => {
      if (!env.ENTERPRISE_API_BASE?.trim()) throw new ConfigError('ENTERPRISE_API_BASE', 'is not set');
      return parseSecureBase('ENTERPRISE_API_BASE', env.ENTERPRISE_API_BASE);
    }),
    app: attempt(() => parseAppCredentials(env, { appId: 'ENTERPRISE_APP_ID', privateKey: 'ENTERPRISE_APP_PRIVATE_KEY' })),
    ...(installationId === undefined ? {} : { installationId }),
  };
}

/**
 * Pure: the environment to typed broker settings. Never throws; each part that cannot be used
 * carries its `ConfigError`, so one bad setting fails only the routes that need it.
 */
export function parseBrokerSettings(env: Env): BrokerSettings {
  const audiences = commaList(env.OIDC_AUDIENCE);
  const allowed = commaList(env.ALLOWED_REPOSITORIES);
  const primary = attempt(() => primaryPlatform(env));
  const enterprise = attempt(() => enterprisePlatform(env, primary.ok ? primary.value.issuer.issuer : undefined));
  // An unusable issuer setting trusts no issuer at all rather than silently only the other one.
  const platforms: Setting<ReadonlyMap<string, PlatformSettings>> = !primary.ok
    ? primary
    : !enterprise.ok
      ? enterprise
      : {
          ok: true,
          value: new Map([primary.value, ...(enterprise.value ? [enterprise.value] : [])].map((p) => [p.issuer.issuer, p])),
        };
  const triggerSecret = env.PROCESS_TRIGGER_SECRET?.trim();
  const webhookSecret = env.FORGE_WEBHOOK_SECRET?.trim();
  return {
    audiences: audiences.length > 0 ? audiences : DEFAULT_AUDIENCES,
    allowedRepositories: allowed.length > 0 ? new Set(allowed) : null,
    tokenPermissions: attempt(() => parseTokenPermissions(env.TOKEN_PERMISSIONS)),
    ...(triggerSecret ? { triggerSecret } : {}),
    ...(webhookSecret ? { webhookSecret } : {}),
    autoUpdateBranches: parseFlag(env.AUTO_UPDATE_BRANCHES),
    platforms,
    primary,
    releasesMaxRepos: attempt(() => parseReleasesMaxRepos(env.RELEASES_MAX_REPOS)),
    policy: policyOf(env),
  };
}

/** The issuer map the verifier pins against (issuer → key-set address). */
export function issuerMapOf(platforms: ReadonlyMap<string, PlatformSettings>): IssuerMap {
  return new Map([...platforms].map(([issuer, platform]) => [issuer, platform.issuer]));
}

/** The broker's settings of an environment, parsed once per set of values (start-up and requests alike). */
export const brokerSettings = memoOnEnv(parseBrokerSettings);
