import type { PullRequestDiff } from './git-diff.js';
import { locationOf, type ResultLocation } from './locations.js';
import { linterKeyOf } from './megalinter.js';
import type { SarifLog, SarifResult, SarifRun } from './sarif.js';
import { isSecretScanner, type SopsDetector } from './secrets.js';
import { blocks, severityOf, type FailOn, type Severity } from './severity.js';

export interface Finding {
  readonly runIndex: number;
  readonly result: SarifResult;
  readonly tool: string;
  readonly ruleId?: string;
  readonly location: ResultLocation & { readonly path: string };
  readonly severity: Severity;
  readonly blocking: boolean;
}

export interface Classification {
  readonly total: number;
  /** Net-new results (neither suppressed nor SOPS ciphertext), in report order. */
  readonly netNew: Finding[];
  readonly preExisting: number;
  readonly suppressed: number;
  readonly sopsIgnored: number;
  readonly noLocation: number;
  /** Results of runs whose linter was skipped by name (never findings). */
  readonly ignoredRuns: number;
}

export interface ClassifyOptions {
  readonly failOn: FailOn;
  readonly workspace: string;
  readonly sops: SopsDetector;
  /** Linter keys skipped by name: their runs yield no findings. */
  readonly skippedLinters: ReadonlySet<string>;
}

/** Suppressed unless every suppression was rejected or is still under review; `[]` is no suppression. */
export function isSuppressed(result: SarifResult): boolean {
  const suppressions = result.suppressions ?? [];
  return suppressions.some((s) => s.status !== 'rejected' && s.status !== 'underReview');
}

/** Net-new: the file is new in the pull request, or the result's start line is an added line. */
export function isNetNew(diff: PullRequestDiff, location: ResultLocation): boolean {
  if (!location.path) return false;
  const added = diff.files.get(location.path);
  if (added === undefined) return false;
  if (added === 'all') return true;
  return location.startLine !== undefined && added.has(location.startLine);
}

/** Sorts every result of the report into exactly one bucket. */
export function classify(log: SarifLog, diff: PullRequestDiff, options: ClassifyOptions): Classification {
  const netNew: Finding[] = [];
  let total = 0;
  let preExisting = 0;
  let suppressed = 0;
  let sopsIgnored = 0;
  let noLocation = 0;
  let ignoredRuns = 0;
  log.runs.forEach((run: SarifRun, runIndex) => {
    const linter = linterKeyOf(run);
    const results = Array.isArray(run.results) ? run.results : [];
    if (linter && options.skippedLinters.has(linter)) {
      ignoredRuns += results.length;
      return;
    }
    const secrets = isSecretScanner(run, linter);
    for (const result of results) {
      total++;
      if (isSuppressed(result)) {
        suppressed++;
        continue;
      }
      const location = locationOf(run, result, options.workspace);
      if (!location.path) {
        noLocation++;
        continue;
      }
      if (secrets && options.sops.isEncrypted(location)) {
        sopsIgnored++;
        continue;
      }
      if (!isNetNew(diff, location)) {
        preExisting++;
        continue;
      }
      const severity = severityOf(run, result);
      netNew.push({
        runIndex,
        result,
        tool: linter ?? run.tool.driver.name ?? 'unknown tool',
        ...(result.ruleId ?? result.rule?.id ? { ruleId: result.ruleId ?? result.rule?.id } : {}),
        location: location as Finding['location'],
        severity,
        blocking: blocks(severity, options.failOn),
      });
    }
  });
  return { total, netNew, preExisting, suppressed, sopsIgnored, noLocation, ignoredRuns };
}
