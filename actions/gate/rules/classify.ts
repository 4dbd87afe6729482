import type { Checkout } from '../diff/checkout.js';
import { CommitFiles } from '../diff/commit-files.js';
import { DependencyChanges, isLockfile, packageOf, type Package } from './dependencies.js';
import { ImageChanges, isContainerfile } from './images.js';
import type { Baseline } from '../reports/baseline.js';
import type { PullRequestDiff } from '../diff/git-diff.js';
import { RunLocations, type ResultLocation } from '../reports/locations.js';
import { linterKeyOf } from '../reports/megalinter.js';
import { resultsOf, type SarifLog, type SarifResult, type SarifRule, type SarifRun } from '../reports/sarif.js';
import { SecretLike, type SopsDetector } from './secrets.js';
import { blocks, ruleIdOf, ruleOf, severityOf, type FailOn, type Severity } from './severity.js';
import { belowFix, fixedVersionsOf } from './fixed-versions.js';

/** A net-new result, with what the outputs show of it. */
export interface Finding {
  readonly runIndex: number;
  /** The result's position in its run's `results`. */
  readonly index: number;
  readonly result: SarifResult;
  /** Which of the result's locations made it net-new (its index in `locations`): it is shown there. */
  readonly locationIndex: number;
  readonly tool: string;
  readonly ruleId: string | undefined;
  /** Path of that location, relative to the git top level. */
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
  /** The first prefix whose removal would map an unmapped path (`--strip-prefix`), when there is one. */
  readonly strippable?: string;
  /** Results of runs whose linter was skipped by name (never findings). */
  readonly ignoredRuns: number;
  /** Pre-existing results on added lines that only moved (or changed indentation or line endings). */
  readonly moved: number;
  /** Results without a line in a changed file, naming no package (net-new or not per `unattributed`). */
  readonly unattributed: number;
  /** Of preExisting: results the diff would call net-new that the baseline report also holds. */
  readonly baselineMatched: number;
  /** Of preExisting: dependency findings whose package the pull request changed, at the merge-base already below the report's fixed version. */
  readonly stillAffected: number;
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
  /** `--strip-prefix`: leading path prefixes removed from the report's paths before they are mapped. */
  readonly stripPrefixes?: readonly string[];
  /** `--baseline-sarif`: what the base commit's report holds is pre-existing. */
  readonly baseline?: Baseline;
}

const UNMAPPED_EXAMPLES = 5;

/** Suppressed unless every suppression was rejected or is still under review; `[]` is no suppression. */
function isSuppressed(result: SarifResult): boolean {
  const suppressions = result.suppressions ?? [];
  return suppressions.some((s) => s.status !== 'rejected' && s.status !== 'underReview');
}

/** How a result in a file the pull request changed is judged. */
type Verdict = 'net-new' | 'pre-existing' | 'moved' | 'unattributed' | 'still-affected';

/** Ranks up to this one count as net-new; the others as pre-existing. */
const LAST_NET_NEW_RANK = 1;

/** Which location of a result decides it, best first: net-new, then what counts as net-new, then the reasons a result is pre-existing. */
function verdictRank(verdict: Verdict, unattributedNetNew: boolean): number {
  switch (verdict) {
    case 'net-new':
      return 0;
    case 'unattributed':
      return unattributedNetNew ? 1 : 2;
    case 'moved':
      return 3;
    case 'still-affected':
      return 4;
    default:
      return 5;
  }
}

/** What a result's verdicts read of the pull request. */
interface Changes {
  readonly diff: PullRequestDiff;
  readonly dependencies: DependencyChanges;
  readonly images: ImageChanges;
  /** With a baseline report, an image finding is judged by it alone (see `classify`). */
  readonly baseline: boolean;
}

/**
 * Net-new: the file is new in the pull request, or the result's start line is an added line;
 * either way not when that line only moved (its text, whitespace normalised, was removed
 * elsewhere in the diff). Results naming a package, and results without a line, have rules of
 * their own below.
 */
function verdictOf(changes: Changes, packageOnce: () => Package | undefined, location: ResultLocation, fixedVersions: () => readonly string[]): Verdict {
  const { diff, dependencies, images } = changes;
  const path = location.path!;
  const added = diff.files.get(path);
  if (added === undefined) return 'pre-existing';
  const line = location.startLine;
  const onAdded = line !== undefined && (added === 'all' || added.has(line));
  const moved = line !== undefined && diff.moved.get(path)?.has(line) === true;
  // Only a result in a changed file is asked which package it names.
  const pkg = packageOnce();
  // An image's packages are put on its Dockerfile (line 1, or the FROM line): the image decides.
  // New when the pull request changed what the image is built from, or named the package on an
  // added line (an instruction that installs it).
  if (pkg && isContainerfile(path)) return changes.baseline || images.baseChanged(path) || dependencies.introduces(path, { names: pkg.names }) ? 'net-new' : 'pre-existing';
  // Dependency scanners put a lockfile's findings on line 1 or on no line: the package decides.
  // A real line (past 1) that is added still counts, so a result misread as naming a package is
  // never passed by it.
  if (pkg) {
    if (dependencies.introduces(path, pkg)) {
      // A bump that stays below the fix the report names brings nothing new: the version at the
      // merge-base was affected too.
      // With a baseline report that one decides, exactly (see `classify`).
      if (changes.baseline) return 'net-new';
      const fixed = pkg.version ? fixedVersions() : [];
      return fixed.length > 0 && dependencies.baseVersions(path, pkg).some((v) => belowFix(v, fixed)) ? 'still-affected' : 'net-new';
    }
    return line !== undefined && line > 1 && onAdded && !moved ? 'net-new' : 'pre-existing';
  }
  // Line 1 of a lockfile is where scanners put what has no line.
  if (line === undefined || (line === 1 && isLockfile(path))) return added === 'all' ? 'net-new' : 'unattributed';
  if (!onAdded) return 'pre-existing';
  return moved ? 'moved' : 'net-new';
}

/** The first line of a finding's message; empty when its result has none. */
export function messageOf(finding: Finding): string {
  const text = finding.result.message?.text;
  return typeof text === 'string' ? text.split('\n', 1)[0]! : '';
}

/** The paths of the result's locations that name files of the head (for the few net-new results a baseline is asked about). */
function mappedPaths(locations: RunLocations, result: SarifResult): string[] {
  return locations.all(result).flatMap((l) => (l.path && !l.unmapped ? [l.path] : []));
}

/** Sorts every result of the report into exactly one bucket. */
export function classify(log: SarifLog, diff: PullRequestDiff, options: ClassifyOptions): Classification {
  const netNew: Finding[] = [];
  let total = 0;
  let preExisting = 0;
  let suppressed = 0;
  let sopsIgnored = 0;
  let noLocation = 0;
  let unmapped = 0;
  const unmappedExamples: string[] = [];
  let strippable: string | undefined;
  let ignoredRuns = 0;
  let moved = 0;
  let unattributed = 0;
  // One reader of the commits' files for every rule: a Dockerfile is read once for images and packages alike.
  const files = new CommitFiles(options.checkout.topLevel);
  const changes: Changes = {
    diff,
    dependencies: new DependencyChanges(diff, files),
    images: new ImageChanges(diff, files),
    baseline: options.baseline !== undefined,
  };
  let baselineMatched = 0;
  let stillAffected = 0;
  const unattributedNetNew = (options.unattributed ?? 'net-new') === 'net-new';
  log.runs.forEach((run: SarifRun, runIndex) => {
    const linter = linterKeyOf(run);
    const results = resultsOf(run);
    if (linter && options.skippedLinters.has(linter)) {
      ignoredRuns += results.length;
      return;
    }
    const secretLike = new SecretLike(run, linter);
    const tool = linter ?? run.tool.driver.name ?? 'unknown tool';
    const runLocations = new RunLocations(run, options.checkout, options.stripPrefixes);
    results.forEach((result, index) => {
      total++;
      if (isSuppressed(result)) {
        suppressed++;
        return;
      }
      // Every location counts: a result is net-new when any of its locations is. Read one at a
      // time, without arrays: most results have one location, and millions may be read.
      const count = Array.isArray(result.locations) ? result.locations.length : 0;
      let rule: SarifRule | undefined | null = null;
      const ruleOnce = () => (rule === null ? (rule = ruleOf(run, result)) : rule);
      let pkg: Package | undefined | null = null;
      const pkgOnce = () => (pkg === null ? (pkg = packageOf(result, ruleOnce())) : pkg);
      let fixed: readonly string[] | undefined;
      const fixedVersions = () => (fixed ??= fixedVersionsOf(result, ruleOnce(), pkgOnce()?.names ?? []));
      let secret: boolean | undefined;
      let located = false;
      let firstUnmapped: ResultLocation | undefined;
      let mappedAny = false;
      let best: { verdict: Verdict; location: ResultLocation; at: number; rank: number } | undefined;
      for (let at = 0; at < Math.max(count, 1); at++) {
        const location = runLocations.nth(result, at);
        if (!location.path) continue;
        located = true;
        if (location.unmapped) {
          firstUnmapped ??= location;
          continue;
        }
        mappedAny = true;
        if ((secret ??= secretLike.test(result)) && options.sops.isEncrypted(location)) continue;
        const verdict = verdictOf(changes, pkgOnce, location, fixedVersions);
        const rank = verdictRank(verdict, unattributedNetNew);
        if (!best || rank < best.rank) best = { verdict, location, at, rank };
        if (rank === 0) break;
      }
      if (!located) {
        noLocation++;
        return;
      }
      if (!mappedAny) {
        unmapped++;
        const path = firstUnmapped!.path!;
        if (unmappedExamples.length < UNMAPPED_EXAMPLES && !unmappedExamples.includes(path)) unmappedExamples.push(path);
        strippable ??= firstUnmapped!.strippable;
        return;
      }
      if (!best) {
        sopsIgnored++;
        return;
      }
      const { verdict, location, at } = best;
      if (verdict === 'unattributed') unattributed++;
      if (verdict === 'moved') moved++;
      if (verdict === 'still-affected') stillAffected++;
      if (best.rank > LAST_NET_NEW_RANK) {
        preExisting++;
        return;
      }
      if (options.baseline?.holds(run, result, mappedPaths(runLocations, result))) {
        baselineMatched++;
        preExisting++;
        return;
      }
      const severity = severityOf(run, result);
      const ruleId = ruleIdOf(run, result);
      netNew.push({
        runIndex,
        index,
        result,
        locationIndex: at,
        tool,
        ruleId,
        path: location.path!,
        startLine: location.startLine,
        severity,
        blocking: blocks(severity, options.failOn),
      });
    });
  });
  return { total, netNew, preExisting, suppressed, sopsIgnored, noLocation, unmapped, unmappedExamples, ...(strippable ? { strippable } : {}), ignoredRuns, moved, unattributed, baselineMatched, stillAffected };
}
