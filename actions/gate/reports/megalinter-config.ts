import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { CONTAINER_ROOTS } from './megalinter.js';

/** MegaLinter's own default names, in its order (config.py), then the same names under `.github/`. */
const ROOT_NAMES = ['.mega-linter.yml', '.megalinter.yml', '.mega-linter.yaml', '.megalinter.yaml'];
const CANDIDATES = [...ROOT_NAMES, ...ROOT_NAMES.map((name) => `.github/${name}`)];

/** The settings of MegaLinter's configuration the gate reads. */
export interface MegalinterSettings {
  /** `ENABLE_LINTERS`; undefined when nothing says (MegaLinter then runs its defaults). */
  readonly enabled?: readonly string[];
  /** `SARIF_REPORTER_LINTERS`: when set, only these linters write SARIF. */
  readonly sarifLinters?: readonly string[];
  /** Where `enabled` came from: `--linters`, `ENABLE_LINTERS` (the environment) or the file, repository-relative. */
  readonly source?: string;
  /** Why the configuration could not be read whole: said in the summary, and exit 2 under --strict when it hid ENABLE_LINTERS. */
  readonly problem?: string;
}

type Config = Record<string, unknown>;

class ConfigProblem extends Error {}

/**
 * A MegaLinter list setting: a YAML list, a comma-separated string, or a JSON array in a string
 * (config.py's `get_list`). Only linter-key-shaped entries are kept.
 */
function keysFrom(value: unknown): string[] {
  let list: unknown[] = [];
  if (Array.isArray(value)) list = value;
  else if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) list = parsed;
    } catch {
      list = value.split(',');
    }
  } else if (typeof value === 'string') list = value.split(',');
  return list.map((k) => String(k).trim()).filter((k) => /^[A-Z0-9_]+$/.test(k));
}

const isUrl = (value: string) => /^https?:\/\//i.test(value);

/** A URL without credentials or query, so a token in it never reaches the summary. */
function shownUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`;
  } catch {
    return 'a URL';
  }
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * The configuration file MegaLinter reads for this repository. `MEGALINTER_CONFIG` first, as
 * config.py resolves it: a URL (never fetched here: a problem), a path that exists as given, else
 * a path inside the workspace (MegaLinter's container roots are mapped to the repository). Without
 * it, MegaLinter's default names at the root; then, as the gate's own fallback, the same names
 * under `.github/` (MegaLinter reads those only through MEGALINTER_CONFIG, which is usually set on
 * MegaLinter's step alone and so is not seen by the gate's).
 */
function configFile(env: NodeJS.ProcessEnv, repo: string): string | undefined {
  const named = env.MEGALINTER_CONFIG?.trim();
  if (named) {
    if (isUrl(named)) throw new ConfigProblem(`MEGALINTER_CONFIG is a URL (${shownUrl(named)}), which the gate does not fetch`);
    const root = CONTAINER_ROOTS.find((r) => named.startsWith(r));
    const candidates = isAbsolute(named) ? [named, ...(root ? [join(repo, named.slice(root.length))] : [])] : [join(repo, named)];
    const found = candidates.find(isFile);
    if (!found) throw new ConfigProblem(`MEGALINTER_CONFIG names ${named}, which is not a file of this checkout`);
    return found;
  }
  return CANDIDATES.map((name) => join(repo, name)).find(isFile);
}

/** Later values win; keys named in CONFIG_PROPERTIES_TO_APPEND join lists instead (config.py's merge_dicts). */
function merge(into: Config, from: Config, append: readonly string[]): void {
  for (const [key, value] of Object.entries(from)) {
    const before = into[key];
    into[key] = Array.isArray(before) && Array.isArray(value) && append.includes(key) ? [...before, ...value] : value;
  }
}

/**
 * A configuration with its local `EXTENDS` applied: each extended file (a path in the workspace)
 * first, in order, with its own `EXTENDS` applied the same way, then the file itself on top. A
 * remote `EXTENDS` (a URL) is not fetched: a problem, since it may set the linters.
 */
function withExtends(config: Config, repo: string, parse: (text: string) => unknown, seen: Set<string>): Config {
  if (config.EXTENDS === undefined) return config;
  const items = Array.isArray(config.EXTENDS) ? config.EXTENDS.map(String) : String(config.EXTENDS).split(',');
  const append = keysFrom(config.CONFIG_PROPERTIES_TO_APPEND);
  const combined: Config = {};
  for (const item of items.map((i) => i.trim()).filter(Boolean)) {
    if (isUrl(item)) throw new ConfigProblem(`EXTENDS names a URL (${shownUrl(item)}), which the gate does not fetch`);
    const file = resolve(repo, item);
    if (seen.has(file)) throw new ConfigProblem(`EXTENDS of ${item} loops back to a file already read`);
    merge(combined, withExtends(readConfig(file, repo, parse), repo, parse, new Set([...seen, file])), append);
  }
  merge(combined, config, append);
  return combined;
}

function readConfig(file: string, repo: string, parse: (text: string) => unknown): Config {
  const name = relative(repo, file) || file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigProblem(`the MegaLinter configuration ${name} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    // The parser's message quotes the text, which may hold a secret: only say where.
    throw new ConfigProblem(`the MegaLinter configuration ${name} cannot be read (not valid YAML)`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ConfigProblem(`the MegaLinter configuration ${name} is not a mapping`);
  return value as Config;
}

/**
 * The enabled linters and the SARIF reporter's list, as MegaLinter settles them: `--linters`
 * (the gate's own option) first; else each setting from the environment, which wins over the
 * file in MegaLinter too, else from the configuration file with its local EXTENDS. The YAML
 * parser is loaded only when a file is read: it is most of the gate's code, and most runs never
 * need it.
 */
export async function megalinterSettings(option: string | undefined, env: NodeJS.ProcessEnv, repo: string): Promise<MegalinterSettings> {
  if (option !== undefined) return { enabled: keysFrom(option), source: '--linters' };
  const fromEnv = (key: string) => (env[key]?.trim() ? keysFrom(env[key]) : undefined);
  const enabledEnv = fromEnv('ENABLE_LINTERS');
  const sarifEnv = fromEnv('SARIF_REPORTER_LINTERS');
  const envSettings = {
    ...(enabledEnv ? { enabled: enabledEnv, source: 'ENABLE_LINTERS' } : {}),
    ...(sarifEnv ? { sarifLinters: sarifEnv } : {}),
  };
  if (enabledEnv && sarifEnv) return envSettings;
  let file: string | undefined;
  let config: Config;
  try {
    file = configFile(env, repo);
    if (!file) return envSettings;
    const { parse } = await import(/* webpackChunkName: "yaml" */ 'yaml');
    // As PyYAML reads it for MegaLinter: a repeated key takes the last value, `<<` merges.
    const parseYaml = (text: string): unknown => parse(text, { uniqueKeys: false, merge: true });
    config = withExtends(readConfig(file, repo, parseYaml), repo, parseYaml, new Set([resolve(file)]));
  } catch (err) {
    if (!(err instanceof ConfigProblem)) throw err;
    // What the environment says still holds; only the file's part is unknown.
    return { ...envSettings, problem: err.message };
  }
  const source = relative(repo, file).startsWith('..') ? file : relative(repo, file);
  const enabled = enabledEnv ?? (config.ENABLE_LINTERS !== undefined ? keysFrom(config.ENABLE_LINTERS) : undefined);
  const sarifLinters = sarifEnv ?? (config.SARIF_REPORTER_LINTERS !== undefined ? keysFrom(config.SARIF_REPORTER_LINTERS) : undefined);
  return {
    ...(enabled ? { enabled, source: enabledEnv ? 'ENABLE_LINTERS' : source } : {}),
    ...(sarifLinters ? { sarifLinters } : {}),
  };
}
