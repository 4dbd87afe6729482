import type { Checkout } from '../diff/checkout.js';
import { CommitFiles } from '../diff/commit-files.js';
import { DependencyChanges, isLockfile, packageOf, type Package } from './dependencies.js';
import { ImageChanges, isContainerfile } from './images.js';
import type { Baseline } from './baseline.js';
import type { BaseLine, PullRequestDiff } from '../diff/git-diff.js';
import { RunLocations, type ResultLocation } from '../reports/locations.js';
import { RegionLines } from '../reports/regions.js';
import { linterKeyOf } from '../reports/megalinter.js';
import { resultsOf, type SarifLog, type SarifResult, type SarifRun } from '../reports/sarif.js';
import { SecretLike, type SopsDetector } from './secrets.js';
import { blocks, ruleIdOf, ruleOf, severityOf, type FailOn, type Severity } from './severity.js';
import { compareVersions, fixAbove, fixedVersionsOf, majorOf } from './fixed-versions.js';
import type { Bump, Detail, NotCounted, Reason } from './not-counted.js';

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
  /** Path of that location, relative to the git top level; `''` for a result without a file (net-new only by a baseline that lacks it). */
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
  /** Pre-existing results on added lines that only moved (or changed indentation or line endings). */
  readonly moved: number;
  /** Results without a line in a changed file, naming no package (net-new or not per `unattributed`). */
  readonly unattributed: number;
  /** Of preExisting: results the diff would call net-new that the baseline report also holds. */
  readonly baselineMatched: number;
  /** Of preExisting: dependency findings whose package the pull request changed, at the merge-base already below the report's fixed version. */
  readonly stillAffected: number;
  /** Results that are not findings of this run (baselineState absent; kind pass, notApplicable, informational). */
  readonly notFindings: number;
  /** Of noLocation: results at or above the threshold, which the diff cannot place and no baseline decided: no answer. */
  readonly noLocationBlocking: number;
  /** Every result that is not net-new, with its reason, in report order. */
  readonly notCounted: NotCounted[];
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

/** How one location of a result is judged. */
type Verdict =
  | { readonly kind: 'net-new' }
  | { readonly kind: 'unattributed' }
  | { readonly kind: 'moved'; readonly from: BaseLine }
  | { readonly kind: 'still-affected'; readonly bump: Bump }
  | { readonly kind: 'unchanged-line' }
  | { readonly kind: 'image-unchanged'; readonly pkg: Package }
  | { readonly kind: 'package-unchanged'; readonly pkg: Package };

const NET_NEW: Verdict = { kind: 'net-new' };
const UNATTRIBUTED_VERDICT: Verdict = { kind: 'unattributed' };
const UNCHANGED_LINE: Verdict = { kind: 'unchanged-line' };

/** Ranks up to this one count as net-new; the others as pre-existing. */
const LAST_NET_NEW_RANK = 1;

/** Which location of a result decides it, best first: net-new, then what counts as net-new, then the reasons a result is pre-existing. */
function verdictRank(verdict: Verdict, unattributedNetNew: boolean): number {
  switch (verdict.kind) {
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
 * The bump that stays below the fix, when the merge-base had the package at a version the report
 * says is affected. Of several such versions (the lines near the package's name can hold others'),
 * the highest is shown: the one the bump started from.
 */
function stillAffected(changes: Changes, path: string, pkg: Package, fixed: readonly string[]): Bump | undefined {
  const affected = changes.dependencies
    .baseVersions(path, pkg)
    .flatMap((base) => {
      const fix = fixAbove(base, fixed);
      return fix === undefined ? [] : [{ base, fix }];
    })
    .sort((a, b) => compareVersions(b.base, a.base));
  const [first] = affected;
  if (!first) return undefined;
  const head = pkg.version;
  return { package: pkg.names[0]!, baseVersion: first.base, headVersion: head, fixedVersion: first.fix, crossesMajor: head !== undefined && majorOf(head) !== majorOf(first.base) };
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
  const line = location.startLine;
  // Only a result in a changed file is asked which package it names (the reason says which rule
  // would have judged it, so a file the pull request left alone is asked only when it is a
  // Dockerfile, a manifest or a lockfile's line 1).
  if (added === undefined) {
    if (isContainerfile(path)) {
      const pkg = packageOnce();
      if (pkg) return { kind: 'image-unchanged', pkg };
    }
    return UNCHANGED_LINE;
  }
  const onAdded = line !== undefined && (added === 'all' || added.has(line));
  const from = line === undefined ? undefined : diff.moved.get(path)?.get(line);
  const pkg = packageOnce();
  // An image's packages are put on its Dockerfile (line 1, or the FROM line): the image decides.
  // New when the pull request changed what the image is built from, or named the package on an
  // added line (an instruction that installs it).
  if (pkg && isContainerfile(path)) return changes.baseline || images.baseChanged(path) || dependencies.introduces(path, { names: pkg.names }) ? NET_NEW : { kind: 'image-unchanged', pkg };
  // Dependency scanners put a lockfile's findings on line 1 or on no line: the package decides.
  // A real line (past 1) that is added still counts, so a result misread as naming a package is
  // never passed by it.
  if (pkg) {
    if (dependencies.introduces(path, pkg)) {
      // A bump that stays below the fix the report names brings nothing new: the version at the
      // merge-base was affected too. With a baseline report that one decides, exactly (see `classify`).
      if (changes.baseline) return NET_NEW;
      const fixed = pkg.version ? fixedVersions() : [];
      const bump = fixed.length > 0 ? stillAffected(changes, path, pkg, fixed) : undefined;
      return bump ? { kind: 'still-affected', bump } : NET_NEW;
    }
    return line !== undefined && line > 1 && onAdded && from === undefined ? NET_NEW : { kind: 'package-unchanged', pkg };
  }
  // Line 1 of a lockfile is where scanners put what has no line.
  if (line === undefined || (line === 1 && isLockfile(path))) return added === 'all' ? NET_NEW : UNATTRIBUTED_VERDICT;
  if (!onAdded) return UNCHANGED_LINE;
  return from ? { kind: 'moved', from } : NET_NEW;
}

/** The suppression that holds: the first not rejected nor under review. */
function suppressionOf(result: SarifResult): NonNullable<SarifResult['suppressions']>[number] | undefined {
  return (Array.isArray(result.suppressions) ? result.suppressions : []).find((s) => s?.status !== 'rejected' && s?.status !== 'underReview');
}

/** Not a finding of this run (SARIF §3.27.9, §3.27.24): the tool says it is gone, or that the check passed or did not apply. */
function notAFinding(result: SarifResult): boolean {
  return result.baselineState === 'absent' || result.kind === 'pass' || result.kind === 'notApplicable' || result.kind === 'informational';
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

/** The reason a not-net-new location verdict gives, and what it carries. */
function reasonOf(verdict: Verdict): { reason: Reason; detail?: Detail } {
  switch (verdict.kind) {
    case 'moved':
      return { reason: 'moved', detail: { movedFrom: verdict.from } };
    case 'still-affected':
      return { reason: 'bump-still-vulnerable', detail: { bump: verdict.bump } };
    case 'image-unchanged':
    case 'package-unchanged':
      return { reason: verdict.kind, detail: { package: verdict.pkg.names[0]!, version: verdict.pkg.version } };
    case 'unattributed':
      return { reason: 'unattributed' };
    default:
      return { reason: 'unchanged-line' };
  }
}

/** Sorts every result of the report into exactly one bucket; each that is not net-new gets its reason. */
export function classify(log: SarifLog, diff: PullRequestDiff, options: ClassifyOptions): Classification {
  const netNew: Finding[] = [];
  const notCounted: NotCounted[] = [];
  let total = 0;
  let preExisting = 0;
  let suppressed = 0;
  let sopsIgnored = 0;
  let noLocation = 0;
  let noLocationBlocking = 0;
  let notFindings = 0;
  let unmapped = 0;
  const unmappedExamples: string[] = [];
  let strippable: string | undefined;
  let moved = 0;
  let unattributed = 0;
  // One reader of the commits' files for every rule: a Dockerfile is read once for images and packages alike.
  const files = new CommitFiles(options.checkout.topLevel);
  const regions = new RegionLines(files, diff.head);
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
    if (linter && options.skippedLinters.has(linter)) return;
    const secretLike = new SecretLike(run, linter);
    const tool = linter ?? run.tool.driver.name ?? 'unknown tool';
    const runLocations = new RunLocations(run, options.checkout, options.stripPrefixes);
    resultsOf(run).forEach((result, index) => {
      total++;
      // The rule is a lookup by index or in the run's map of ids: read once for every result, as
      // every result is either a finding or an entry of "not counted", both of which show it.
      const rule = ruleOf(run, result);
      const ruleId = ruleIdOf(run, result, rule);
      const severity = severityOf(run, result, rule);
      const drop = (reason: Reason, path?: string, line?: number, detail?: Detail) =>
        notCounted.push({ reason, runIndex, index, result, tool, ruleId, severity, path, line, detail });
      if (notAFinding(result)) {
        notFindings++;
        drop('not-a-finding', undefined, undefined, { kind: result.kind, baselineState: result.baselineState });
        return;
      }
      const suppression = suppressionOf(result);
      if (suppression) {
        suppressed++;
        const first = runLocations.nth(result, 0);
        drop('suppressed', first.path, first.startLine, { suppression: { kind: suppression.kind, status: suppression.status, justification: suppression.justification } });
        return;
      }
      // Every location counts: a result is net-new when any of its locations is. Read one at a
      // time, without arrays: most results have one location, and millions may be read.
      const count = Array.isArray(result.locations) ? result.locations.length : 0;
      let pkg: Package | undefined | null = null;
      const pkgOnce = () => (pkg === null ? (pkg = packageOf(result, rule)) : pkg);
      let fixed: readonly string[] | undefined;
      const fixedVersions = () => (fixed ??= fixedVersionsOf(result, rule, pkgOnce()?.names ?? []));
      let secret: boolean | undefined;
      let located = false;
      let firstUnmapped: ResultLocation | undefined;
      let firstSops: ResultLocation | undefined;
      let mappedAny = false;
      let best: { verdict: Verdict; location: ResultLocation; at: number; rank: number } | undefined;
      for (let at = 0; at < Math.max(count, 1); at++) {
        let location = runLocations.nth(result, at);
        if (!location.path) continue;
        located = true;
        if (location.unmapped) {
          firstUnmapped ??= location;
          continue;
        }
        mappedAny = true;
        location = regions.placed(location);
        if ((secret ??= secretLike.test(result)) && options.sops.isEncrypted(location)) {
          firstSops ??= location;
          continue;
        }
        const verdict = verdictOf(changes, pkgOnce, location, fixedVersions);
        const rank = verdictRank(verdict, unattributedNetNew);
        if (!best || rank < best.rank) best = { verdict, location, at, rank };
        if (rank === 0) break;
      }
      const finding = (path: string, startLine: number | undefined, at: number): Finding => ({
        runIndex,
        index,
        result,
        locationIndex: at,
        tool,
        ruleId,
        path,
        startLine,
        severity,
        blocking: blocks(severity, options.failOn),
      });
      if (!located) {
        // No file to judge by: the baseline decides when there is one; else it is not judged, and
        // one that would block is no answer (ci.ts), never a pass.
        const match = options.baseline?.match(run, result, []);
        if (match) {
          baselineMatched++;
          preExisting++;
          drop('baseline', undefined, undefined, { baseline: match });
        } else if (options.baseline) {
          netNew.push(finding('', undefined, 0));
        } else {
          noLocation++;
          if (blocks(severity, options.failOn)) noLocationBlocking++;
          drop('no-location');
        }
        return;
      }
      if (!mappedAny) {
        unmapped++;
        const path = firstUnmapped!.path!;
        if (unmappedExamples.length < UNMAPPED_EXAMPLES && !unmappedExamples.includes(path)) unmappedExamples.push(path);
        strippable ??= firstUnmapped!.strippable;
        drop('unmapped', path, firstUnmapped!.startLine, { pathAsWritten: firstUnmapped!.written ?? path });
        return;
      }
      if (!best) {
        sopsIgnored++;
        drop('sops-encrypted', firstSops?.path, firstSops?.startLine);
        return;
      }
      const { verdict, location, at } = best;
      if (verdict.kind === 'unattributed') unattributed++;
      if (verdict.kind === 'moved') moved++;
      if (verdict.kind === 'still-affected') stillAffected++;
      if (best.rank > LAST_NET_NEW_RANK) {
        preExisting++;
        const { reason, detail } = reasonOf(verdict);
        drop(reason, location.path, location.startLine, detail);
        return;
      }
      const match = options.baseline?.match(run, result, mappedPaths(runLocations, result));
      if (match) {
        baselineMatched++;
        preExisting++;
        drop('baseline', location.path, location.startLine, { baseline: match });
        return;
      }
      netNew.push(finding(location.path!, location.startLine, at));
    });
  });
  return {
    total,
    netNew,
    preExisting,
    suppressed,
    sopsIgnored,
    noLocation,
    unmapped,
    unmappedExamples,
    ...(strippable ? { strippable } : {}),
    moved,
    unattributed,
    baselineMatched,
    stillAffected,
    notFindings,
    noLocationBlocking,
    notCounted,
  };
}
