import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { z, type ZodType } from 'zod';
import type { Env } from '../config-error.js';
import { YAML_BOOLEAN_WORDS, yamlBoolean } from '../yaml-boolean.js';
import { parseGithubTargets, type GithubTarget } from '../github/targets.js';
import { SEVERITIES, type Severity } from '../issues/finding.js';
import { parseSchedule } from './service/schedule.js';

export const SOURCES = ['dependencytrack', 'github', 'sonarqube'] as const;
export type SourceName = (typeof SOURCES)[number];

export interface SyncConfig {
  readonly mode: 'deployment' | 'cronjob';
  readonly schedule: Readonly<Record<SourceName, string>>;
  readonly sources: {
    /** `writeBackTriage`: DefectDojo's false positives and accepted risks written back as Dependency-Track analyses. */
    readonly dependencytrack: { readonly enabled: boolean; readonly url?: string; readonly excludeInactive: boolean; readonly writeBackTriage: boolean };
    /** One switch per alert kind: a kind switched off is neither read from GitHub nor sent. */
    readonly github: { readonly enabled: boolean; readonly codeScanning: boolean; readonly dependabot: boolean; readonly secretScanning: boolean };
    /** `allIssueTypes`: bugs and code smells too, not only vulnerabilities. */
    readonly sonarqube: { readonly enabled: boolean; readonly url?: string; readonly allIssueTypes: boolean };
  };
  readonly defectdojo: { readonly url?: string; readonly productType: string; readonly maxUploadMb: number; readonly doNotReactivate: boolean };
  readonly github: { readonly minSeverity: Severity; readonly maxIssuesPerRun: number };
}

/** Read only from the environment: a configuration file never holds them. */
export interface SyncSecrets {
  readonly dependencyTrackApiKey?: string;
  readonly defectDojoToken?: string;
  readonly sonarQubeToken?: string;
  readonly githubTargets?: readonly GithubTarget[];
}

export const SECRET_SETTINGS = ['DEPENDENCY_TRACK_API_KEY', 'DEFECTDOJO_TOKEN', 'SONARQUBE_TOKEN', 'GITHUB_TARGETS'] as const;

/** Every problem found, each naming its key (and where the value came from); never a value. */
export class SyncConfigError extends Error {
  override readonly name = 'SyncConfigError';
  constructor(
    readonly problems: readonly string[],
    /** The mode, when it was itself valid: the service decides from it whether to stay up. */
    readonly mode?: SyncConfig['mode'],
  ) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * How one key's value is checked: a zod schema, whose first issue is the problem (the same words
 * whatever the value was), and how a value from the environment, which is text, is read first.
 */
interface Check {
  readonly schema: ZodType;
  /** Booleans and numbers from the environment, read as the file's YAML gives them. */
  readonly fromEnv?: (text: string) => unknown;
}

const URL_PROBLEM = 'must be an http(s) URL';
const HTTP_URL: Check = {
  schema: z.string({ error: URL_PROBLEM }).transform((raw, ctx) => {
    const url = URL.parse(raw.trim());
    const problem =
      raw.trim() === '' || !url || (url.protocol !== 'https:' && url.protocol !== 'http:')
        ? URL_PROBLEM
        : url.username || url.password
          ? 'must not carry credentials (they are read from the environment)'
          : url.search || url.hash
            ? 'must not have a query or fragment'
            : undefined;
    if (problem === undefined) return url!.href.replace(/\/+$/, '');
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }),
};

// From the environment, the same words as the actions' boolean inputs (and as the file's YAML).
const BOOLEAN: Check = {
  schema: z.boolean({ error: `must be true or false (${YAML_BOOLEAN_WORDS})` }),
  fromEnv: (text) => yamlBoolean(text) ?? text,
};

const text = (max: number): Check => {
  const problem = `must be a non-empty string of at most ${max} characters`;
  return { schema: z.string({ error: problem }).trim().min(1, problem).max(max, problem) };
};

const oneOf = (values: readonly string[]): Check => {
  const problem = `must be one of ${values.join(', ')}`;
  return {
    schema: z.string({ error: problem }).transform((raw, ctx) => {
      const found = values.find((v) => v.toLowerCase() === raw.trim().toLowerCase());
      if (found !== undefined) return found;
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }),
  };
};

const wholeNumber = (min: number, max: number): Check => {
  const problem = `must be a whole number from ${min} to ${max}`;
  return { schema: z.number({ error: problem }).int(problem).min(min, problem).max(max, problem), fromEnv: (text) => (/^\d{1,9}$/.test(text) ? Number(text) : text) };
};

// A cron expression (UTC) or an interval in seconds, judged by the scheduler's own parser.
const SCHEDULE: Check = {
  schema: z.union([z.string(), z.number()], { error: 'must be a cron expression (5 or 6 fields) or an interval in seconds' }).transform((raw, ctx) => {
    try {
      const schedule = parseSchedule(raw);
      if (schedule.next(new Date())) return schedule.text;
      ctx.addIssue({ code: 'custom', message: 'never runs (the expression has no future date)' });
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
    return z.NEVER;
  }),
};

interface Key extends Check {
  readonly path: string;
  readonly env: string;
  readonly fallback?: unknown;
}

/** Every key of the file, the environment setting that overrides it, and its default. */
export const KEYS: readonly Key[] = [
  { path: 'mode', env: 'SYNC_MODE', ...oneOf(['deployment', 'cronjob']), fallback: 'deployment' },
  // Hourly, each source 30 minutes after the one before it.
  { path: 'schedule.dependencytrack', env: 'SYNC_SCHEDULE_DEPENDENCYTRACK', ...SCHEDULE, fallback: '0 * * * *' },
  { path: 'schedule.github', env: 'SYNC_SCHEDULE_GITHUB', ...SCHEDULE, fallback: '30 * * * *' },
  { path: 'schedule.sonarqube', env: 'SYNC_SCHEDULE_SONARQUBE', ...SCHEDULE, fallback: '0 * * * *' },
  // A source's switch has no fixed default: unset, the source is on exactly when one of its own
  // settings is given (ENABLED_WHEN_GIVEN), so a configuration names only what it uses.
  { path: 'sources.dependencytrack.enabled', env: 'SYNC_DEPENDENCYTRACK_ENABLED', ...BOOLEAN },
  { path: 'sources.dependencytrack.url', env: 'SYNC_DEPENDENCYTRACK_URL', ...HTTP_URL },
  { path: 'sources.dependencytrack.excludeInactive', env: 'SYNC_DEPENDENCYTRACK_EXCLUDE_INACTIVE', ...BOOLEAN, fallback: false },
  // Off by default: it writes to Dependency-Track (dependency-track/triage.ts).
  { path: 'sources.dependencytrack.writeBackTriage', env: 'SYNC_DEPENDENCYTRACK_WRITE_BACK_TRIAGE', ...BOOLEAN, fallback: false },
  { path: 'sources.github.enabled', env: 'SYNC_GITHUB_ENABLED', ...BOOLEAN },
  // Each alert kind on by default; off for a DefectDojo without its parser (code scanning needs 2.52.0, secret scanning 2.51.0).
  { path: 'sources.github.codeScanning', env: 'SYNC_GITHUB_CODE_SCANNING', ...BOOLEAN, fallback: true },
  { path: 'sources.github.dependabot', env: 'SYNC_GITHUB_DEPENDABOT', ...BOOLEAN, fallback: true },
  { path: 'sources.github.secretScanning', env: 'SYNC_GITHUB_SECRET_SCANNING', ...BOOLEAN, fallback: true },
  { path: 'sources.sonarqube.enabled', env: 'SYNC_SONARQUBE_ENABLED', ...BOOLEAN },
  { path: 'sources.sonarqube.url', env: 'SYNC_SONARQUBE_URL', ...HTTP_URL },
  { path: 'sources.sonarqube.allIssueTypes', env: 'SYNC_SONARQUBE_ALL_ISSUE_TYPES', ...BOOLEAN, fallback: false },
  { path: 'defectdojo.url', env: 'SYNC_DEFECTDOJO_URL', ...HTTP_URL },
  { path: 'defectdojo.productType', env: 'SYNC_DEFECTDOJO_PRODUCT_TYPE', ...text(255), fallback: 'Research and Development' },
  // DefectDojo's DD_SCAN_FILE_MAX_SIZE (its default, 100): a larger report is refused before it is sent.
  { path: 'defectdojo.maxUploadMb', env: 'SYNC_DEFECTDOJO_MAX_UPLOAD_MB', ...wholeNumber(1, 100_000), fallback: 100 },
  // DefectDojo's do_not_reactivate on every reimport: a finding closed in DefectDojo stays closed.
  { path: 'defectdojo.doNotReactivate', env: 'SYNC_DEFECTDOJO_DO_NOT_REACTIVATE', ...BOOLEAN, fallback: false },
  { path: 'github.minSeverity', env: 'SYNC_GITHUB_MIN_SEVERITY', ...oneOf(SEVERITIES), fallback: 'High' },
  { path: 'github.maxIssuesPerRun', env: 'SYNC_GITHUB_MAX_ISSUES_PER_RUN', ...wholeNumber(0, 1000), fallback: 50 },
];

/** The settings (key paths and secrets) that switch a source on when its `enabled` is unset. */
const ENABLED_WHEN_GIVEN: Readonly<Record<SourceName, { readonly keys: readonly string[]; readonly secrets: readonly string[] }>> = {
  dependencytrack: { keys: ['sources.dependencytrack.url'], secrets: ['DEPENDENCY_TRACK_API_KEY'] },
  github: { keys: [], secrets: ['GITHUB_TARGETS'] },
  sonarqube: { keys: ['sources.sonarqube.url'], secrets: ['SONARQUBE_TOKEN'] },
};

const SECRET_WORDS = /(token|key|password|secret|targets|credential)/i;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readFile(file: string, problems: string[]): Record<string, unknown> {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    problems.push(`configuration file ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return {};
  }
  const doc = parseDocument(source);
  if (doc.errors.length > 0) {
    // Position only: the parser's own message quotes the file, which may hold a pasted secret.
    const at = doc.errors[0]?.linePos?.[0];
    problems.push(`configuration file ${file}: not valid YAML${at ? ` (line ${at.line}, column ${at.col})` : ''}`);
    return {};
  }
  const value: unknown = doc.toJS() ?? {};
  if (!isPlainObject(value)) {
    problems.push(`configuration file ${file}: must be a mapping of keys`);
    return {};
  }
  return value;
}

/** Keys present in the file that the configuration does not know; secrets get their own message. */
function unknownKeys(tree: Record<string, unknown>, prefix: string, problems: string[]): void {
  for (const [name, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (KEYS.some((k) => k.path === path)) continue;
    if (isPlainObject(value) && KEYS.some((k) => k.path.startsWith(`${path}.`))) {
      unknownKeys(value, path, problems);
    } else if (SECRET_WORDS.test(name)) {
      problems.push(`${path}: secrets are read only from the environment (${SECRET_SETTINGS.join(', ')}); remove it from the file`);
    } else {
      problems.push(`${path}: not a known key`);
    }
  }
}

function lookup(tree: Record<string, unknown>, path: string): unknown {
  let node: unknown = tree;
  for (const part of path.split('.')) node = isPlainObject(node) ? node[part] : undefined;
  return node;
}

function assign(tree: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1]!] = value;
}

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export interface LoadedConfig {
  readonly config: SyncConfig;
  readonly secrets: SyncSecrets;
}

/**
 * The configuration: the YAML file (optional), each key overridable by its environment
 * setting, defaults for the rest; secrets from the environment only. Throws a
 * `SyncConfigError` listing every problem before anything is called.
 */
export function loadSyncConfig(options: { file?: string; env: Env }): LoadedConfig {
  const problems: string[] = [];
  const fromFile = options.file ? readFile(options.file, problems) : {};
  unknownKeys(fromFile, '', problems);
  const tree: Record<string, unknown> = {};
  for (const key of KEYS) {
    const envValue = present(options.env[key.env]);
    const raw = envValue ?? lookup(fromFile, key.path);
    if (raw === undefined || raw === null) {
      if (key.fallback !== undefined) assign(tree, key.path, key.fallback);
      continue;
    }
    const checked = key.schema.safeParse(envValue !== undefined && key.fromEnv ? key.fromEnv(envValue) : raw);
    if (!checked.success) problems.push(`${key.path}${envValue !== undefined ? ` (from ${key.env})` : ''} ${checked.error.issues[0]!.message}`);
    else assign(tree, key.path, checked.data);
  }
  let githubTargets: readonly GithubTarget[] | undefined;
  const targets = present(options.env.GITHUB_TARGETS);
  if (targets !== undefined) {
    const parsed = parseGithubTargets(targets);
    if ('problems' in parsed) problems.push(...parsed.problems);
    else githubTargets = parsed.targets;
  }
  if (problems.length > 0) throw new SyncConfigError(problems, tree.mode as SyncConfig['mode'] | undefined);
  for (const source of SOURCES) {
    const path = `sources.${source}.enabled`;
    if (lookup(tree, path) !== undefined) continue;
    const given = ENABLED_WHEN_GIVEN[source];
    assign(tree, path, given.keys.some((k) => lookup(tree, k) !== undefined) || given.secrets.some((name) => present(options.env[name]) !== undefined));
  }
  const secrets: SyncSecrets = {
    dependencyTrackApiKey: present(options.env.DEPENDENCY_TRACK_API_KEY),
    defectDojoToken: present(options.env.DEFECTDOJO_TOKEN),
    sonarQubeToken: present(options.env.SONARQUBE_TOKEN),
    githubTargets,
  };
  return { config: tree as unknown as SyncConfig, secrets };
}

/** What every source needs: DefectDojo's address and token. */
export function missingDefectDojo({ config, secrets }: LoadedConfig): string[] {
  return [
    ...(config.defectdojo.url ? [] : ['defectdojo.url is required (or SYNC_DEFECTDOJO_URL)']),
    ...(secrets.defectDojoToken ? [] : ['DEFECTDOJO_TOKEN is required (an API v2 token of the DefectDojo service user)']),
  ];
}
