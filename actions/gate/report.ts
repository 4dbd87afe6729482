import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Classification } from './classify.js';
import type { SkippedLinter } from './megalinter.js';
import type { SarifLog } from './sarif.js';
import { SEVERITIES, type FailOn, type Severity } from './severity.js';

export const COUNTS_SCHEMA_VERSION = 1;

/** The `--counts-json` document. */
export interface Counts {
  readonly schema_version: number;
  readonly exit_code: number;
  readonly fail_on: FailOn;
  readonly total_count: number;
  readonly net_new_count: number;
  readonly pre_existing_count: number;
  readonly suppressed_count: number;
  readonly sops_ignored_count: number;
  readonly no_location_count: number;
  readonly blocking_count: number;
  /** Net-new results per severity. */
  readonly net_new_by_severity: Readonly<Record<Severity, number>>;
  readonly linters_skipped: readonly SkippedLinter[];
  /** Runs whose tool reported a failed invocation (a tool error under --strict). */
  readonly failed_invocations: readonly string[];
  readonly base?: string;
  readonly head?: string;
  readonly merge_base?: string;
  /** Why there is no answer (exit 2). */
  readonly error?: string;
}

const zeroSeverities = (): Record<Severity, number> => Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;

export function countsOf(
  classification: Classification | undefined,
  extra: Pick<Counts, 'exit_code' | 'fail_on' | 'linters_skipped' | 'failed_invocations'> & Partial<Pick<Counts, 'base' | 'head' | 'merge_base' | 'error'>>,
): Counts {
  const bySeverity = zeroSeverities();
  for (const finding of classification?.netNew ?? []) bySeverity[finding.severity]++;
  return {
    schema_version: COUNTS_SCHEMA_VERSION,
    exit_code: extra.exit_code,
    fail_on: extra.fail_on,
    total_count: classification?.total ?? 0,
    net_new_count: classification?.netNew.length ?? 0,
    pre_existing_count: classification?.preExisting ?? 0,
    suppressed_count: classification?.suppressed ?? 0,
    sops_ignored_count: classification?.sopsIgnored ?? 0,
    no_location_count: classification?.noLocation ?? 0,
    blocking_count: classification?.netNew.filter((f) => f.blocking).length ?? 0,
    net_new_by_severity: bySeverity,
    linters_skipped: extra.linters_skipped,
    failed_invocations: extra.failed_invocations,
    ...(extra.base ? { base: extra.base } : {}),
    ...(extra.head ? { head: extra.head } : {}),
    ...(extra.merge_base ? { merge_base: extra.merge_base } : {}),
    ...(extra.error ? { error: extra.error } : {}),
  };
}

/**
 * The net-new-only SARIF: every run kept with its tool and rule metadata (so code scanning can
 * show the rules), its results narrowed to the net-new ones, each marked `baselineState: "new"`.
 */
export function filteredSarif(log: SarifLog | undefined, classification: Classification | undefined): SarifLog {
  if (!log || !classification) return { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [] };
  const byRun = new Map<number, unknown[]>();
  for (const finding of classification.netNew) {
    const list = byRun.get(finding.runIndex) ?? [];
    list.push({ ...finding.result, baselineState: 'new' });
    byRun.set(finding.runIndex, list);
  }
  return {
    ...log,
    version: '2.1.0',
    runs: log.runs.map((run, i) => ({ ...run, results: (byRun.get(i) ?? []) as NonNullable<typeof run.results> })),
  };
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}
