import type { Checkout } from './checkout.js';
import { DependencyChanges, isLockfile, packageOf } from './dependencies.js';
import { GateError } from './errors.js';
import type { PullRequestDiff } from './git-diff.js';
import { RunLocations, type ResultLocation } from './locations.js';
import { linterKeyOf } from './megalinter.js';
import type { ByteRange, SarifReport, SarifResult, SarifRun } from './sarif.js';
import { SecretLike, type SopsDetector } from './secrets.js';
import { blocks, severityOf, type FailOn, type Severity } from './severity.js';

/**
 * A net-new result, kept small: a report can have many thousands. The result itself (its message,
 * its full locations) is read again from the file through `source` when it is needed.
 */
export interface Finding {
  readonly runIndex: number;
  /** The result's position in its run's `results`. */
  readonly index: number;
  readonly source: ByteRange;
  readonly tool: string;
  readonly ruleId: string | undefined;
  /** Path of the first location, relative to the git top level. */
  readonly path: string;
  readonly startLine: number | undefined;
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
  /** Results whose file is not a file of the head commit. */
  readonly unmapped: number;
  /** A few of their paths, as the report names them (distinct, first seen first). */
  readonly unmappedExamples: string[];
  /** Results of runs whose linter was skipped by name (never findings). */
  readonly ignoredRuns: number;
  /** Pre-existing results on added lines that only moved (or changed indentation or line endings). */
  readonly moved: number;
  /** Results without a line in a changed file, naming no package (net-new or not per `unattributed`). */
  readonly unattributed: number;
}

/** What a result without a line in a changed file, naming no package, counts as. */
export const UNATTRIBUTED = ['net-new', 'pre-existing'] as const;
export type Unattributed = (typeof UNATTRIBUTED)[number];

export interface ClassifyOptions {
  readonly failOn: FailOn;
  /** Where the report's paths are looked up: the top level, `--repo`, the head's files. */
  readonly checkout: Checkout;
  readonly sops: SopsDetector;
  /** Linter keys skipped by name: their runs yield no findings. */
  readonly skippedLinters: ReadonlySet<string>;
  /** Default `net-new`: the gate does not pass what it cannot place. */
  readonly unattributed?: Unattributed;
}

const UNMAPPED_EXAMPLES = 5;

/** Suppressed unless every suppression was rejected or is still under review; `[]` is no suppression. */
export function isSuppressed(result: SarifResult): boolean {
  const suppressions = result.suppressions ?? [];
  return suppressions.some((s) => s.status !== 'rejected' && s.status !== 'underReview');
}

/** How a result in a file the pull request changed is judged. */
type Verdict = 'net-new' | 'pre-existing' | 'moved' | 'unattributed';

/**
 * Net-new: the file is new in the pull request, or the result's start line is an added line;
 * either way not when that line only moved (its text, whitespace normalised, was removed
 * elsewhere in the diff). Results naming a package, and results without a line, have rules of
 * their own below.
 */
function verdictOf(diff: PullRequestDiff, dependencies: DependencyChanges, result: SarifResult, location: ResultLocation): Verdict {
  const path = location.path!;
  const added = diff.files.get(path);
  if (added === undefined) return 'pre-existing';
  const line = location.startLine;
  const onAdded = line !== undefined && (added === 'all' || added.has(line));
  const moved = line !== undefined && diff.moved.get(path)?.has(line) === true;
  // Dependency scanners put a lockfile's findings on line 1 or on no line: the package decides.
  // A real line (past 1) that is added still counts, so a result misread as naming a package is
  // never passed by it.
  const pkg = packageOf(result);
  if (pkg) {
    if (dependencies.introduces(path, pkg)) return 'net-new';
    return line !== undefined && line > 1 && onAdded && !moved ? 'net-new' : 'pre-existing';
  }
  // Line 1 of a lockfile is where scanners put what has no line.
  if (line === undefined || (line === 1 && isLockfile(path))) return added === 'all' ? 'net-new' : 'unattributed';
  if (!onAdded) return 'pre-existing';
  return moved ? 'moved' : 'net-new';
}

/**
 * The first line of each finding's message, read again from the report. Empty when a result has
 * none, and for the rest when the report can no longer be read (the answer is already made;
 * messages only decorate it).
 */
export function messagesOf(report: SarifReport, findings: readonly Finding[]): string[] {
  const messages: string[] = [];
  try {
    for (const result of report.readAgain(findings.map((f) => f.source))) {
      const text = result.message?.text;
      messages.push(typeof text === 'string' ? text.split('\n', 1)[0]! : '');
    }
  } catch (err) {
    if (!(err instanceof GateError)) throw err;
  }
  return messages;
}

/**
 * Sorts every result of the report into exactly one bucket. Results are read one at a time and
 * only the net-new ones are kept.
 */
export function classify(report: SarifReport, diff: PullRequestDiff, options: ClassifyOptions): Classification {
  const netNew: Finding[] = [];
  let total = 0;
  let preExisting = 0;
  let suppressed = 0;
  let sopsIgnored = 0;
  let noLocation = 0;
  let unmapped = 0;
  const unmappedExamples: string[] = [];
  let ignoredRuns = 0;
  let moved = 0;
  let unattributed = 0;
  const dependencies = new DependencyChanges(diff, options.checkout.topLevel);
  const unattributedNetNew = (options.unattributed ?? 'net-new') === 'net-new';
  report.log.runs.forEach((run: SarifRun, runIndex) => {
    const linter = linterKeyOf(run);
    if (linter && options.skippedLinters.has(linter)) {
      for (const _ of report.results(runIndex)) ignoredRuns++;
      return;
    }
    const secretLike = new SecretLike(run, linter);
    const tool = linter ?? run.tool.driver.name ?? 'unknown tool';
    const locations = new RunLocations(run, options.checkout);
    let index = -1;
    for (const { result, source } of report.results(runIndex)) {
      index++;
      total++;
      if (isSuppressed(result)) {
        suppressed++;
        continue;
      }
      const location = locations.of(result);
      if (!location.path) {
        noLocation++;
        continue;
      }
      if (location.unmapped) {
        unmapped++;
        if (unmappedExamples.length < UNMAPPED_EXAMPLES && !unmappedExamples.includes(location.path)) unmappedExamples.push(location.path);
        continue;
      }
      if (secretLike.test(result) && options.sops.isEncrypted(location)) {
        sopsIgnored++;
        continue;
      }
      const verdict = verdictOf(diff, dependencies, result, location);
      if (verdict === 'unattributed') unattributed++;
      if (verdict === 'moved') moved++;
      if (verdict === 'pre-existing' || verdict === 'moved' || (verdict === 'unattributed' && !unattributedNetNew)) {
        preExisting++;
        continue;
      }
      const severity = severityOf(run, result);
      const ruleId = result.ruleId ?? result.rule?.id;
      netNew.push({
        runIndex,
        index,
        source,
        tool,
        ruleId: typeof ruleId === 'string' && ruleId ? ruleId : undefined,
        path: location.path,
        startLine: location.startLine,
        severity,
        blocking: blocks(severity, options.failOn),
      });
    }
  });
  return { total, netNew, preExisting, suppressed, sopsIgnored, noLocation, unmapped, unmappedExamples, ignoredRuns, moved, unattributed };
}
