import { closeSync, openSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import type { NotCounted, Reason } from '../rules/not-counted.js';
import { countsByReason, entryOf, type NotCountedEntry } from './not-counted.js';
import { dirname } from 'node:path';
import type { Classification, Finding } from '../rules/classify.js';
import type { SkippedLinter } from '../reports/megalinter.js';
import type { SarifLog, SarifResult } from '../reports/sarif.js';
import { SEVERITIES, type FailOn, type Severity } from '../rules/severity.js';
import { shapeForUpload } from './upload-shape.js';

const COUNTS_SCHEMA_VERSION = 1;

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
  /** Results that name a file which is not a file of the head commit. */
  readonly unmapped_count: number;
  /** Of pre_existing_count: results on added lines that only moved (or were re-indented). */
  readonly moved_count: number;
  /** Results without a line in a changed file naming no package (net-new unless --unattributed-dependency pre-existing). */
  readonly unattributed_count: number;
  /** Of pre_existing_count: results the diff would call net-new that --baseline-sarif's report holds. */
  readonly baseline_matched_count: number;
  /** Of pre_existing_count: dependency findings whose package the pull request changed, affected at the merge-base too (below the report's fixed version). */
  readonly still_affected_count: number;
  /** Results that are not findings of this run (baselineState absent; kind pass, notApplicable, informational): part of the partition of total_count. */
  readonly not_a_finding_count: number;
  /** The results that are not net-new, per reason (every reason, zeros included); the list itself is `not_counted` in the written document. */
  readonly not_counted_by_reason: Readonly<Record<Reason, number>>;
  readonly blocking_count: number;
  /** Net-new results per severity. */
  readonly net_new_by_severity: Readonly<Record<Severity, number>>;
  readonly linters_skipped: readonly SkippedLinter[];
  /** Enabled linters able to write SARIF with no run in the report (a tool error under --strict). */
  readonly linters_missing: readonly SkippedLinter[];
  /** Where the enabled linters came from: `--linters`, `ENABLE_LINTERS` or the configuration file's path. */
  readonly linters_source?: string;
  /** Runs whose tool reported a failed invocation (a tool error under --strict). */
  readonly failed_invocations: readonly string[];
  /** The report is the file committed at head, unchanged: an earlier run's (a tool error under --strict). */
  readonly stale_report: boolean;
  /** What the summary warns about, one sentence each. */
  readonly warnings: readonly string[];
  /** Net-new results not in the filtered SARIF: past code scanning's 20 runs per upload. */
  readonly filtered_left_out_count: number;
  readonly base?: string;
  readonly head?: string;
  readonly merge_base?: string;
  /** Why there is no answer (exit 2). */
  readonly error?: string;
}

export function countsOf(
  classification: Classification | undefined,
  extra: Pick<Counts, 'exit_code' | 'fail_on' | 'linters_skipped' | 'linters_missing' | 'failed_invocations' | 'stale_report' | 'warnings'> &
    Partial<Pick<Counts, 'linters_source' | 'filtered_left_out_count' | 'base' | 'head' | 'merge_base' | 'error'>>,
): Counts {
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
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
    unmapped_count: classification?.unmapped ?? 0,
    moved_count: classification?.moved ?? 0,
    unattributed_count: classification?.unattributed ?? 0,
    baseline_matched_count: classification?.baselineMatched ?? 0,
    still_affected_count: classification?.stillAffected ?? 0,
    not_a_finding_count: classification?.notFindings ?? 0,
    not_counted_by_reason: countsByReason(classification?.notCounted ?? []),
    blocking_count: classification?.netNew.filter((f) => f.blocking).length ?? 0,
    net_new_by_severity: bySeverity,
    linters_skipped: extra.linters_skipped,
    linters_missing: extra.linters_missing,
    ...(extra.linters_source ? { linters_source: extra.linters_source } : {}),
    failed_invocations: extra.failed_invocations,
    stale_report: extra.stale_report,
    warnings: extra.warnings,
    filtered_left_out_count: extra.filtered_left_out_count ?? 0,
    ...(extra.base ? { base: extra.base } : {}),
    ...(extra.head ? { head: extra.head } : {}),
    ...(extra.merge_base ? { merge_base: extra.merge_base } : {}),
    ...(extra.error ? { error: extra.error } : {}),
  };
}

const EMPTY_SARIF = { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [] };

/** A net-new result as the filtered SARIF holds it: marked new, the location that made it net-new first (code scanning shows a result there). */
function asNew(finding: Finding): SarifResult {
  const { result, locationIndex } = finding;
  const locations = Array.isArray(result.locations) && locationIndex > 0 && locationIndex < result.locations.length
    ? [result.locations[locationIndex]!, ...result.locations.filter((_, i) => i !== locationIndex)]
    : result.locations;
  return { ...result, ...(locations ? { locations } : {}), baselineState: 'new' };
}

/**
 * The net-new-only SARIF, shaped so code scanning takes it as it is (`shapeForUpload`): each kept
 * run with its tool and rule metadata (so code scanning can show the rules), its results narrowed
 * to the net-new ones. Written to a temporary file, then renamed into place: a reader never sees
 * half a file. Without a classification (no answer) the file is a valid SARIF log with no runs,
 * which code scanning refuses: the README's workflow skips the upload on exit 2. Returns how many
 * net-new results code scanning's runs-per-file limit left out, for the counts and the summary.
 */
export async function writeFilteredSarif(path: string, log: SarifLog | undefined, classification: Classification | undefined): Promise<number> {
  let filtered: object = EMPTY_SARIF;
  let leftOut = 0;
  if (log && classification) {
    const { runs, ...top } = log;
    const shape = shapeForUpload(runs, classification.netNew);
    leftOut = shape.leftOut;
    filtered = {
      ...top,
      version: '2.1.0',
      runs: shape.parts.map((part) => {
        const run = runs[part.runIndex]!;
        return {
          ...run,
          ...(part.automationId ? { automationDetails: { ...(run.automationDetails as object | undefined), id: part.automationId } } : {}),
          results: part.findings.map(asNew),
        };
      }),
    };
  }
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(filtered)}\n`);
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
  return leftOut;
}

/** The counts document as written: the counts, and every result that is not net-new with its reason. */
export type CountsDocument = Counts & { readonly not_counted: readonly NotCountedEntry[] };

/**
 * Writes the counts document: the counts as indented JSON, then `not_counted`, one entry a line.
 * The entries are written as they are made, 64 KiB at a time, so a report of a hundred thousand
 * pre-existing results never becomes one string in memory. Synchronously: the gate has nothing
 * else to do meanwhile.
 */
export async function writeCounts(path: string, counts: Counts, notCounted: readonly NotCounted[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const fd = openSync(path, 'w');
  try {
    const head = JSON.stringify(counts, null, 2);
    let chunk = `${head.slice(0, -2)},\n  "not_counted": [`;
    for (let i = 0; i < notCounted.length; i++) {
      chunk += `${i === 0 ? '' : ','}\n    ${JSON.stringify(entryOf(notCounted[i]!))}`;
      if (chunk.length >= 1 << 16) {
        writeFileSync(fd, chunk);
        chunk = '';
      }
    }
    writeFileSync(fd, `${chunk}${notCounted.length > 0 ? '\n  ]\n}\n' : ']\n}\n'}`);
  } finally {
    closeSync(fd);
  }
}
