import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
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

type Check = (raw: unknown, fromEnv: boolean) => { value: unknown } | { problem: string };

const HTTP_URL: Check = (raw) => {
  if (typeof raw !== 'string' || raw.trim() === '') return { problem: 'must be an http(s) URL' };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { problem: 'must be an http(s) URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'must be an http(s) URL' };
  if (url.username || url.password) return { problem: 'must not carry credentials (they are read from the environment)' };
  if (url.search || url.hash) return { problem: 'must not have a query or fragment' };
  return { value: url.href.replace(/\/+$/, '') };
};

// From the environment, the same words as the actions' boolean inputs (and as the file's YAML).
const BOOLEAN: Check = (raw, fromEnv) => {
  if (typeof raw === 'boolean') return { value: raw };
  const value = fromEnv && typeof raw === 'string' ? yamlBoolean(raw) : undefined;
  return value === undefined ? { problem: `must be true or false (${YAML_BOOLEAN_WORDS})` } : { value };
};

const text =
  (max: number): Check =>
  (raw) =>
    typeof raw === 'string' && raw.trim() !== '' && raw.trim().length <= max ? { value: raw.trim() } : { problem: `must be a non-empty string of at most ${max} characters` };

const oneOf =
  (values: readonly string[]): Check =>
  (raw) => {
    const found = typeof raw === 'string' ? values.find((v) => v.toLowerCase() === raw.trim().toLowerCase()) : undefined;
    return found === undefined ? { problem: `must be one of ${values.join(', ')}` } : { value: found };
  };

const wholeNumber =
  (min: number, max: number): Check =>
  (raw, fromEnv) => {
    const n = typeof raw === 'number' ? raw : fromEnv && typeof raw === 'string' && /^\s*\d{1,9}\s*$/.test(raw) ? Number(raw) : NaN;
    return Number.isInteger(n) && n >= min && n <= max ? { value: n } : { problem: `must be a whole number from ${min} to ${max}` };
  };

// A cron expression (UTC) or an interval in seconds, judged by the scheduler's own parser.
const SCHEDULE: Check = (raw) => {
  if (typeof raw !== 'string' && typeof raw !== 'number') return { problem: 'must be a cron expression (5 or 6 fields) or an interval in seconds' };
  try {
    const schedule = parseSchedule(raw);
    return schedule.next(new Date()) ? { value: schedule.text } : { problem: 'never runs (the expression has no future date)' };
  } catch (err) {
    return { problem: (err as Error).message };
  }
};

interface Key {
  readonly path: string;
  readonly env: string;
  readonly check: Check;
  readonly fallback?: unknown;
}

/** Every key of the file, the environment setting that overrides it, and its default. */
export const KEYS: readonly Key[] = [
  { path: 'mode', env: 'SYNC_MODE', check: oneOf(['deployment', 'cronjob']), fallback: 'deployment' },
  // Hourly, each source 30 minutes after the one before it.
  { path: 'schedule.dependencytrack', env: 'SYNC_SCHEDULE_DEPENDENCYTRACK', check: SCHEDULE, fallback: '0 * * * *' },
  { path: 'schedule.github', env: 'SYNC_SCHEDULE_GITHUB', check: SCHEDULE, fallback: '30 * * * *' },
  { path: 'schedule.sonarqube', env: 'SYNC_SCHEDULE_SONARQUBE', check: SCHEDULE, fallback: '0 * * * *' },
  // A source's switch has no fixed default: unset, the source is on exactly when one of its own
  // settings is given (ENABLED_WHEN_GIVEN), so a configuration names only what it uses.
  { path: 'sources.dependencytrack.enabled', env: 'SYNC_DEPENDENCYTRACK_ENABLED', check: BOOLEAN },
  { path: 'sources.dependencytrack.url', env: 'SYNC_DEPENDENCYTRACK_URL', check: HTTP_URL },
  { path: 'sources.dependencytrack.excludeInactive', env: 'SYNC_DEPENDENCYTRACK_EXCLUDE_INACTIVE', check: BOOLEAN, fallback: false },
  // Off by default: it writes to Dependency-Track (dependency-track/triage.ts).
  { path: 'sources.dependencytrack.writeBackTriage', env: 'SYNC_DEPENDENCYTRACK_WRITE_BACK_TRIAGE', check: BOOLEAN, fallback: false },
  { path: 'sources.github.enabled', env: 'SYNC_GITHUB_ENABLED', check: BOOLEAN },
  // Each alert kind on by default; off for a DefectDojo without its parser (code scanning needs 2.52.0, secret scanning 2.51.0).
  { path: 'sources.github.codeScanning', env: 'SYNC_GITHUB_CODE_SCANNING', check: BOOLEAN, fallback: true },
  { path: 'sources.github.dependabot', env: 'SYNC_GITHUB_DEPENDABOT', check: BOOLEAN, fallback: true },
  { path: 'sources.github.secretScanning', env: 'SYNC_GITHUB_SECRET_SCANNING', check: BOOLEAN, fallback: true },
  { path: 'sources.sonarqube.enabled', env: 'SYNC_SONARQUBE_ENABLED', check: BOOLEAN },
  { path: 'sources.sonarqube.url', env: 'SYNC_SONARQUBE_URL', check: HTTP_URL },
  { path: 'sources.sonarqube.allIssueTypes', env: 'SYNC_SONARQUBE_ALL_ISSUE_TYPES', check: BOOLEAN, fallback: false },
  { path: 'defectdojo.url', env: 'SYNC_DEFECTDOJO_URL', check: HTTP_URL },
  { path: 'defectdojo.productType', env: 'SYNC_DEFECTDOJO_PRODUCT_TYPE', check: text(255), fallback: 'Research and Development' },
  // DefectDojo's DD_SCAN_FILE_MAX_SIZE (its default, 100): a larger report is refused before it is sent.
  { path: 'defectdojo.maxUploadMb', env: 'SYNC_DEFECTDOJO_MAX_UPLOAD_MB', check: wholeNumber(1, 100_000), fallback: 100 },
  // DefectDojo's do_not_reactivate on every reimport: a finding closed in DefectDojo stays closed.
  { path: 'defectdojo.doNotReactivate', env: 'SYNC_DEFECTDOJO_DO_NOT_REACTIVATE', check: BOOLEAN, fallback: false },
  { path: 'github.minSeverity', env: 'SYNC_GITHUB_MIN_SEVERITY', check: oneOf(SEVERITIES), fallback: 'High' },
  { path: 'github.maxIssuesPerRun', env: 'SYNC_GITHUB_MAX_ISSUES_PER_RUN', check: wholeNumber(0, 1000), fallback: 50 },
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
    const checked = key.check(raw, envValue !== undefined);
    if ('problem' in checked) problems.push(`${key.path}${envValue !== undefined ? ` (from ${key.env})` : ''} ${checked.problem}`);
    else assign(tree, key.path, checked.value);
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
