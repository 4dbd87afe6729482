import { classify, type Classification, type Unattributed } from './classify.js';
import { EXIT_BLOCKED, EXIT_ERROR, EXIT_OK, GateError } from './errors.js';
import { pullRequestDiff, type PullRequestDiff } from './git-diff.js';
import { enabledLinters, linterKeyOf, megalinterMajor, skippedLinters, type SkippedLinter } from './megalinter.js';
import { countsOf, writeFilteredSarif, writeJson, type Counts } from './report.js';
import { openSarif, type SarifLog, type SarifReport } from './sarif.js';
import { SopsDetector } from './secrets.js';
import type { FailOn } from './severity.js';

export interface CiOptions {
  readonly sarif: string;
  readonly base: string;
  readonly head: string;
  /** The repository (working tree) the report was made from. */
  readonly repo: string;
  readonly failOn: FailOn;
  readonly strict: boolean;
  readonly filteredOut?: string;
  readonly countsJson?: string;
  /** `--linters`; undefined reads MegaLinter's own setting. */
  readonly linters?: string;
  /** `--unattributed-dependency`; default net-new. */
  readonly unattributed?: Unattributed;
}

export interface CiOutcome {
  readonly exitCode: number;
  readonly counts: Counts;
  readonly classification?: Classification;
  /** The report the classification was made from: findings' messages are read from it again. */
  readonly report?: SarifReport;
  readonly diff?: PullRequestDiff;
  /** What the exit code means, in one line. */
  readonly message: string;
}

/** Runs whose tool says its invocation failed: a partial scan. */
function failedInvocations(log: SarifLog): string[] {
  return log.runs
    .filter((run) => run.invocations?.some((i) => i.executionSuccessful === false))
    .map((run) => linterKeyOf(run) ?? run.tool.driver.name ?? 'unknown tool');
}

function noAnswer(err: GateError): { exitCode: number; error: string; message: string; classification: undefined } {
  return { exitCode: EXIT_ERROR, error: err.message, message: `no answer: ${err.message}`, classification: undefined };
}

/**
 * `gate ci`: classify the report's results against the pull request's diff, write the filtered
 * SARIF and the counts, then choose the exit code (0 pass, 1 blocked, 2 no answer). The outputs
 * are written in every case, before the exit code is decided.
 */
export async function runCi(options: CiOptions, env: NodeJS.ProcessEnv): Promise<CiOutcome> {
  let report: SarifReport | undefined;
  let diff: PullRequestDiff | undefined;
  let classification: Classification | undefined;
  let skipped: SkippedLinter[] = [];
  let failed: string[] = [];
  let exitCode: number;
  let message: string;
  let error: string | undefined;

  // git computes the diff in its own process while this one reads the report: the checks before
  // it take a few git calls, then `git diff` runs alone. Report problems are still reported first.
  let running!: () => void;
  const diffRunning = new Promise<void>((resolve) => (running = resolve));
  const pendingDiff = pullRequestDiff(options.repo, options.base, options.head, running);
  pendingDiff.catch(() => {});
  try {
    await diffRunning;
    report = openSarif(options.sarif);
    const { log } = report;
    if (log.runs.length === 0) throw new GateError('the SARIF report has no runs: nothing was scanned');
    skipped = skippedLinters(await enabledLinters(options.linters, env, options.repo), megalinterMajor(log));
    failed = failedInvocations(log);
    diff = await pendingDiff;
    classification = classify(report, diff, {
      failOn: options.failOn,
      workspace: options.repo,
      sops: new SopsDetector(options.repo),
      skippedLinters: new Set(skipped.map((s) => s.linter)),
      ...(options.unattributed ? { unattributed: options.unattributed } : {}),
    });
    const toolErrors = options.strict
      ? [...skipped.map((s) => `${s.linter} is enabled but cannot write SARIF`), ...failed.map((f) => `${f} failed to run`)]
      : [];
    const blocking = classification.netNew.filter((f) => f.blocking).length;
    if (toolErrors.length > 0) {
      exitCode = EXIT_ERROR;
      error = `--strict: ${toolErrors.join('; ')}`;
      message = `no answer: ${error}`;
    } else if (blocking > 0) {
      exitCode = EXIT_BLOCKED;
      message = `blocked by ${blocking} net-new finding${blocking === 1 ? '' : 's'} at or above ${options.failOn}`;
    } else {
      exitCode = EXIT_OK;
      message = `no blocking net-new findings (${classification.netNew.length} net-new, ${classification.preExisting} pre-existing)`;
    }
  } catch (err) {
    if (!(err instanceof GateError)) throw err;
    ({ exitCode, error, message, classification } = noAnswer(err));
  }

  if (options.filteredOut) {
    try {
      await writeFilteredSarif(options.filteredOut, report, classification);
    } catch (err) {
      // Net-new results are read again from the report: one that changed since is no answer.
      if (!(err instanceof GateError)) throw err;
      ({ exitCode, error, message, classification } = noAnswer(err));
      await writeFilteredSarif(options.filteredOut, undefined, undefined);
    }
  }
  const counts = countsOf(classification, {
    exit_code: exitCode,
    fail_on: options.failOn,
    linters_skipped: skipped,
    failed_invocations: failed,
    ...(diff ? { base: options.base, head: diff.head, merge_base: diff.mergeBase } : {}),
    ...(error ? { error } : {}),
  });
  if (options.countsJson) await writeJson(options.countsJson, counts);
  return { exitCode, counts, message, ...(classification && report ? { classification, report } : {}), ...(diff ? { diff } : {}) };
}
