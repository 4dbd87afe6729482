import type { BaseLine } from '../diff/parse-diff.js';
import type { BaselineMatch } from './baseline.js';
import type { SarifResult } from '../reports/sarif.js';
import type { Severity } from './severity.js';

/*
 * "Not counted, and why": every result of the report that is not net-new carries exactly one
 * reason, the rule that dropped it, with what a reviewer needs to check that rule in seconds.
 */

/** The reasons, in the order the summary lists them. */
export const REASONS = [
  'unchanged-line',
  'moved',
  'baseline',
  'bump-still-vulnerable',
  'image-unchanged',
  'package-unchanged',
  'suppressed',
  'unmapped',
  'unattributed',
  'no-location',
  'sops-encrypted',
  'not-a-finding',
] as const;
export type Reason = (typeof REASONS)[number];

/** What the summary says each reason means, in one line. */
export const REASON_TEXT: Readonly<Record<Reason, string>> = {
  'unchanged-line': 'on a line the pull request did not add or change (or in a file it did not change)',
  moved: 'on an added line whose text was removed elsewhere in the diff: the code moved, was re-indented or changed line endings',
  baseline: 'the base commit\'s report (--baseline-sarif) holds the same result',
  'bump-still-vulnerable': 'the pull request changed the package\'s version, but the merge-base version was already below the fixed version the report names',
  'image-unchanged': 'a package of a container image whose Dockerfile\'s FROM lines (and the ARGs they read) the pull request did not change',
  'package-unchanged': 'a package that no added line of the changed manifest or lockfile names (at its version)',
  suppressed: 'suppressed in the report (an accepted suppression)',
  unmapped: 'its file is not a file of the head commit, so it was not judged',
  unattributed: 'no line in a changed file and no package named: pre-existing because unattributed-dependency is pre-existing',
  'no-location': 'no file location (logical locations only, or none), below the threshold, so it cannot block',
  'sops-encrypted': 'a secret finding on a line that holds only SOPS ciphertext',
  'not-a-finding': 'not a finding of this run: the tool says it is gone (baselineState absent) or that the check passed or did not apply (kind pass, notApplicable, informational)',
};

/** A version bump that stays below the report's fixed version. */
export interface Bump {
  readonly package: string;
  readonly baseVersion: string;
  readonly headVersion: string | undefined;
  readonly fixedVersion: string;
  /** The bump crosses a major version: the report cannot say whether the base version was affected, so check it. */
  readonly crossesMajor: boolean;
}

/** What a reason carries beside the result's place. */
export type Detail =
  | { readonly movedFrom: BaseLine }
  | { readonly baseline: BaselineMatch }
  | { readonly bump: Bump }
  | { readonly package: string; readonly version: string | undefined }
  | { readonly suppression: { readonly kind: string | undefined; readonly status: string | undefined; readonly justification: string | undefined } }
  | { readonly pathAsWritten: string }
  | { readonly kind: string | undefined; readonly baselineState: string | undefined };

/** A result of the report that is not net-new, and why. */
export interface NotCounted {
  readonly reason: Reason;
  readonly runIndex: number;
  /** The result's position in its run's `results`. */
  readonly index: number;
  readonly result: SarifResult;
  readonly tool: string;
  readonly ruleId: string | undefined;
  readonly severity: Severity;
  /** Relative to the git top level (the report's own path for `unmapped`); undefined without a file. */
  readonly path: string | undefined;
  readonly line: number | undefined;
  readonly detail: Detail | undefined;
}
