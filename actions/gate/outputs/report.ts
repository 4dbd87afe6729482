import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Classification, Finding } from '../rules/classify.js';
import type { SkippedLinter } from '../reports/megalinter.js';
import type { ByteRange, SarifReport, SarifResult } from '../reports/sarif.js';
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

const zeroSeverities = (): Record<Severity, number> => Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;

export function countsOf(
  classification: Classification | undefined,
  extra: Pick<Counts, 'exit_code' | 'fail_on' | 'linters_skipped' | 'linters_missing' | 'failed_invocations' | 'stale_report' | 'warnings'> &
    Partial<Pick<Counts, 'linters_source' | 'filtered_left_out_count' | 'base' | 'head' | 'merge_base' | 'error'>>,
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
    unmapped_count: classification?.unmapped ?? 0,
    moved_count: classification?.moved ?? 0,
    unattributed_count: classification?.unattributed ?? 0,
    baseline_matched_count: classification?.baselineMatched ?? 0,
    still_affected_count: classification?.stillAffected ?? 0,
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

/** An object's JSON without its closing brace, ready for one more member. */
function openObject(value: object): string {
  const json = JSON.stringify(value);
  return json === '{}' ? '{' : `${json.slice(0, -1)},`;
}

/** What the filtered SARIF holds, for the counts and the summary. */
export interface FilteredSarif {
  /** Net-new results left out by code scanning's runs-per-file limit (see `shapeForUpload`). */
  readonly leftOut: number;
}

/**
 * The net-new-only SARIF, shaped so code scanning takes it as it is (`shapeForUpload`): each kept
 * run with its tool and rule metadata (so code scanning can show the rules), its results narrowed
 * to the net-new ones, each read again from the report and marked `baselineState: "new"`, the
 * location that made it net-new first. Written
 * piece by piece to a temporary file, then renamed into place: the results are never all in
 * memory, and a reader never sees half a file. Without a classification (no answer) the file is a
 * valid SARIF log with no runs, which code scanning refuses: the README's workflow skips the
 * upload on exit 2.
 */
export async function writeFilteredSarif(path: string, report: SarifReport | undefined, classification: Classification | undefined): Promise<FilteredSarif> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  let written: FilteredSarif = { leftOut: 0 };
  try {
    const out = new BufferedWriter(fd);
    if (!report || !classification) {
      out.write(JSON.stringify(EMPTY_SARIF));
    } else {
      const { runs, ...top } = report.log;
      const { parts, leftOut } = shapeForUpload(runs, classification.netNew);
      written = { leftOut };
      out.write(`${openObject({ ...top, version: '2.1.0' })}"runs":[`);
      // The ranges are handed over one at a time, not gathered into an array first.
      const results = report.readAgain(sourcesOf(parts))[Symbol.iterator]();
      try {
        parts.forEach((part, i) => {
          // A `results` that was not an array is still in the run; the filtered one replaces it.
          const { results: _replaced, ...rest } = runs[part.runIndex]!;
          const run = part.automationId ? { ...rest, automationDetails: { ...(rest.automationDetails as object | undefined), id: part.automationId } } : rest;
          out.write(`${i > 0 ? ',' : ''}${openObject(run)}"results":[`);
          part.findings.forEach((finding, j) => {
            const result = results.next().value as SarifResult;
            // Marked in place (the result was parsed for this write alone): a spread copy of each
            // one left V8 with survivors enough to double its young generation.
            result.baselineState = 'new';
            // Code scanning shows a result at its first location: the one that made it net-new leads.
            if (finding.locationIndex > 0 && Array.isArray(result.locations) && finding.locationIndex < result.locations.length) {
              result.locations.unshift(...result.locations.splice(finding.locationIndex, 1));
            }
            out.write(`${j > 0 ? ',' : ''}${JSON.stringify(result)}`);
          });
          out.write(']}');
        });
      } finally {
        results.return?.();
      }
      out.write(']}');
    }
    out.write('\n');
    out.flush();
  } catch (err) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(temporary, path);
  return written;
}

function* sourcesOf(parts: readonly { readonly findings: readonly Finding[] }[]): Generator<ByteRange> {
  for (const part of parts) for (const finding of part.findings) yield finding.source;
}

/**
 * Collects small writes into large ones, as bytes: held strings would live through the garbage
 * collector's young-generation passes (each survivor counts towards growing it), bytes in a
 * buffer are outside the heap.
 */
class BufferedWriter {
  private readonly buffer = Buffer.allocUnsafe(1 << 16);
  private used = 0;

  constructor(private readonly fd: number) {}

  write(text: string): void {
    // A UTF-8 character is at most 3 bytes per UTF-16 code unit.
    if (this.used + text.length * 3 > this.buffer.length) {
      this.flush();
      if (text.length * 3 > this.buffer.length) {
        writeSync(this.fd, text);
        return;
      }
    }
    this.used += this.buffer.write(text, this.used);
  }

  flush(): void {
    if (this.used === 0) return;
    writeSync(this.fd, this.buffer, 0, this.used);
    this.used = 0;
  }
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}
