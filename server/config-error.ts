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

/** Comma-separated list: entries trimmed, empty entries dropped. */
export function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * A settings source read per request (a changed environment applies to the next request) that
 * parses again only when one of `keys` changed, so per-request reads stay cheap.
 */
export function settingsSource<T>(env: () => Env, keys: readonly string[], parse: (env: Env) => T): () => T {
  let lastValues: (string | undefined)[] | undefined;
  let last: { value: T } | undefined;
  return () => {
    const current = env();
    // Compared value by value: this runs on every request.
    let changed = !lastValues || !last;
    for (let i = 0; !changed && i < keys.length; i++) {
      const value = current[keys[i]!];
      changed = value !== lastValues![i];
      // Equal text from a fresh copy of the environment: keep this copy's string, so the next
      // requests compare it by identity, not by content (BROKER_POLICY may be 100 KB).
      lastValues![i] = value;
    }
    if (changed) {
      last = { value: parse(current) };
      lastValues = keys.map((k) => current[k]);
    }
    return last!.value;
  };
}
