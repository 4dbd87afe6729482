import { secureOrLoopback } from './http/loopback.js';

/** A setting that cannot be used, named so the operator knows what to fix. Never carries its value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly setting: string,
    readonly problem: string,
  ) {
    super(`${setting} ${problem}`);
  }
}

/** Runs `parse`, adding its `ConfigError` to `problems` instead of throwing it, so every problem is found. */
export function collect<T>(problems: ConfigError[], parse: () => T): T | undefined {
  try {
    return parse();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(err);
    return undefined;
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A base address setting (an OIDC issuer, a REST base such as `https://ghe.example.com/api/v3`):
 * `secureOrLoopback`, without query, fragment or credentials; whitespace and trailing slashes dropped.
 */
export function parseSecureBase(setting: string, raw: string): string {
  const base = raw.trim().replace(/\/+$/, '');
  const url = URL.parse(base);
  if (!url) throw new ConfigError(setting, 'must be an absolute URL');
  // Tokens, app JWTs and key-set fetches travel to this address: never in clear over a network.
  if (!secureOrLoopback(url)) {
    throw new ConfigError(setting, 'must be an https URL (http is accepted only on loopback)');
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(setting, 'must not carry a query, fragment or credentials');
  }
  return base;
}

/** Comma-separated list: entries trimmed, empty entries dropped. */
export function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Settings that parsed, or every problem found in them (each naming its setting, never its value). */
export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: readonly ConfigError[] };

/**
 * `parse` memoised on the values of the variables it reads, recorded as it reads them (so no list
 * of names can fall out of step with it): while they are unchanged, every call answers the same
 * object. The start-up check and every request call the same memo, so settings are parsed once, a
 * changed variable applies to the next request, and what is built from settings (clients, key
 * sets) is kept per settings object. The last few environments are kept: a test process serves
 * several, and a policy changed and changed back is not parsed again.
 */
export function memoOnEnv<T>(parse: (env: Env) => T, keep = 4): (env: Env) => T {
  const kept: { readonly read: ReadonlyMap<string, string | undefined>; readonly value: T }[] = [];
  return (env) => {
    for (const { read, value } of kept) if (sameValues(read, env)) return value;
    const read = new Map<string, string | undefined>();
    const value = parse(
      new Proxy(env, {
        get: (target, name) => {
          const v = Reflect.get(target, name) as string | undefined;
          if (typeof name === 'string') read.set(name, v);
          return v;
        },
      }),
    );
    kept.unshift({ read, value });
    if (kept.length > keep) kept.pop();
    return value;
  };
}

function sameValues(read: ReadonlyMap<string, string | undefined>, env: Env): boolean {
  for (const [name, value] of read) if (env[name] !== value) return false;
  return true;
}
