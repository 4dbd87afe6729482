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

export type Env = Readonly<Record<string, string | undefined>>;

/** Comma-separated list: entries trimmed, empty entries dropped. */
export function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
