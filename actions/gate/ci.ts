import { resolve } from 'node:path';
import { Baseline } from './reports/baseline.js';
import { checkoutOf, type WorkTree } from './diff/checkout.js';
import { classify, type Classification, type Unattributed } from './rules/classify.js';
import { EXIT_BLOCKED, EXIT_ERROR, EXIT_OK, GateError, optionName, type OptionNaming } from './errors.js';
import { pullRequestDiff, type PullRequestDiff } from './diff/git-diff.js';
import { linterKeyOf, megalinterMajor, missingLinters, skippedLinters, type SkippedLinter } from './reports/megalinter.js';
import { megalinterSettings, type MegalinterSettings } from './reports/megalinter-config.js';
import { countsOf, writeCounts, writeFilteredSarif, type Counts } from './outputs/report.js';
import { computed, readSarif, type SarifLog } from './reports/sarif.js';
import { SopsDetector } from './rules/secrets.js';
import { staleReport } from './reports/stale-report.js';
import { blocks, type FailOn } from './rules/severity.js';

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
  /** `--unattributed-dependency`; undefined takes classify's default (net-new). */
  readonly unattributed?: Unattributed;
  /** `--baseline-sarif`: the base commit's report. */
  readonly baselineSarif?: string;
  /** `--strip-prefix`, normalised (`normalisePrefixes`). */
  readonly stripPrefixes?: readonly string[];
  /** How options are named in messages: flags (the CLI) or inputs (the action). */
  readonly naming?: OptionNaming;
}

export interface CiOutcome {
  readonly exitCode: number;
  readonly counts: Counts;
  readonly classification?: Classification;
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

/**
 * When results name files but none of them is a file of the head, the report was made from
 * another checkout (or another directory): nothing can be judged, so there is no answer.
 */
function pathsMismatch(c: Classification, topLevel: string, naming: OptionNaming): string | undefined {
  const mapped = c.netNew.length + c.preExisting + c.sopsIgnored;
  if (c.unmapped === 0 || mapped > 0) return undefined;
  const [first, ...others] = c.unmappedExamples;
  const option = (name: string) => optionName(name, naming);
  return (
    `the report's paths do not match this checkout: none of the ${c.unmapped} located result${c.unmapped === 1 ? '' : 's'} names a file ` +
    `of the head commit under ${topLevel} (the first is ${first}${others.length > 0 ? `; also ${others.join(', ')}` : ''}); ` +
    `run the gate on the checkout the report was made from, point ${option('repo')} at the directory it scanned, ` +
    `or remove the prefix the scanner saw the repository under with ${option('strip-prefix')}` +
    (c.strippable
      ? `: ${option('strip-prefix')} ${c.strippable} makes ${first} a file of the head`
      : ` <prefix> (no ending of ${first} names a file of the head, so no prefix is suggested)`)
  );
}

/**
 * Results at or above the threshold that name no file (logical locations only, or none) cannot be
 * placed by the diff: without a baseline to decide them, nothing passes on them.
 */
function unplaceable(c: Classification, failOn: string, naming: OptionNaming): string | undefined {
  if (c.noLocationBlocking === 0) return undefined;
  const n = c.noLocationBlocking;
  const first = c.notCounted.find((x) => x.reason === 'no-location' && blocks(x.severity, failOn as FailOn));
  const what = first ? ` (the first: ${first.tool}${first.ruleId ? ` ${first.ruleId}` : ''}, ${first.severity})` : '';
  return (
    `${n} result${n === 1 ? '' : 's'} at or above ${failOn} name${n === 1 ? 's' : ''} no file${what}: the diff cannot tell whether the pull request introduced ${n === 1 ? 'it' : 'them'}; ` +
    `give ${optionName('baseline-sarif', naming)} (the base commit's report), which decides results without a file`
  );
}

function noAnswer(err: GateError): { exitCode: number; error: string; message: string; classification: undefined } {
  return { exitCode: EXIT_ERROR, error: err.message, message: `no answer: ${err.message}`, classification: undefined };
}

/**
 * MegaLinter's settings as read from `--repo`, else, when `--repo` is a directory inside the work
 * tree and holds no configuration, from the top level (where MegaLinter usually runs).
 */
async function megalinterSettingsOf(options: CiOptions, env: NodeJS.ProcessEnv, pendingWorkTree: Promise<WorkTree>): Promise<MegalinterSettings> {
  const settings = await megalinterSettings(options.linters, env, options.repo);
  if (settings.source || settings.problem) return settings;
  const topLevel = await pendingWorkTree.then((w) => w.topLevel).catch(() => undefined);
  return topLevel && resolve(topLevel) !== resolve(options.repo) ? megalinterSettings(options.linters, env, topLevel) : settings;
}

/**
 * `gate ci`: classify the report's results against the pull request's diff, write the filtered
 * SARIF and the counts, then choose the exit code (0 pass, 1 blocked, 2 no answer). The outputs
 * are written in every case, before the exit code is decided.
 */
export async function runCi(options: CiOptions, env: NodeJS.ProcessEnv): Promise<CiOutcome> {
  let log: SarifLog | undefined;
  let diff: PullRequestDiff | undefined;
  let classification: Classification | undefined;
  let skipped: SkippedLinter[] = [];
  let missing: SkippedLinter[] = [];
  let failed: string[] = [];
  let lintersSource: string | undefined;
  let stale: string | undefined;
  const warnings: string[] = [];
  let exitCode: number;
  let message: string;
  let error: string | undefined;

  // git computes the diff in its own process while this one reads the report: the checks before
  // it take a few git calls, then `git diff` runs alone. Report problems are still reported first.
  let running!: () => void;
  const diffRunning = new Promise<void>((resolve) => (running = resolve));
  const pendingDiff = pullRequestDiff(options.repo, options.base, options.head, running);
  pendingDiff.catch(() => {});
  await diffRunning;
  // The head's file list is read beside the diff, once git diff runs: starting a process takes
  // this one's thread a few milliseconds, which would otherwise delay git diff. Its errors wait
  // until the diff's are reported.
  const pending = checkoutOf(options.repo, options.head);
  pending.workTree.catch(() => {});
  pending.checkout.catch(() => {});
  const pendingStale = staleReport(options.sarif, options.head, pending.checkout);
  try {
    log = readSarif(options.sarif);
    if (log.runs.length === 0) throw new GateError('the SARIF report has no runs: nothing was scanned');
    const uncomputed = log.runs.flatMap((run) => (computed(run) ? [] : [linterKeyOf(run) ?? run.tool.driver.name ?? 'unknown tool']));
    if (uncomputed.length > 0) {
      throw new GateError(`the run of ${uncomputed.join(', ')} produced no results ("results" is null or absent: the tool computed none, as after a failure); nothing can be judged from it`);
    }
    const settings = await megalinterSettingsOf(options, env, pending.workTree);
    lintersSource = settings.source;
    if (settings.problem) warnings.push(`${settings.problem}: ${settings.enabled ? 'SARIF_REPORTER_LINTERS may be unknown' : 'the enabled linters are unknown, so skipped and missing linters are not checked'} (name them with --linters, action input linters)`);
    skipped = skippedLinters(settings.enabled, megalinterMajor(log), settings.sarifLinters);
    missing = missingLinters(log, options.sarif, settings.enabled, skipped);
    failed = failedInvocations(log);
    diff = await pendingDiff;
    stale = await pendingStale;
    const checkout = await pending.checkout;
    classification = classify(log, diff, {
      failOn: options.failOn,
      checkout,
      sops: new SopsDetector(checkout.topLevel),
      skippedLinters: new Set(skipped.map((s) => s.linter)),
      unattributed: options.unattributed,
      ...(options.stripPrefixes ? { stripPrefixes: options.stripPrefixes } : {}),
      ...(options.baselineSarif ? { baseline: Baseline.open(options.baselineSarif, checkout, options.stripPrefixes) } : {}),
    });
    const toolErrors = options.strict
      ? [
          ...skipped.map((s) => `${s.linter} is enabled but cannot write SARIF`),
          ...missing.map((m) => `${m.linter} is enabled but has no run in the report`),
          ...failed.map((f) => `${f} failed to run`),
          ...(stale ? [`the report ${stale} is unchanged from the committed file at head (stale)`] : []),
          ...(settings.problem && !settings.enabled ? [`the enabled linters are unknown (${settings.problem})`] : []),
        ]
      : [];
    const blocking = classification.netNew.filter((f) => f.blocking).length;
    if (toolErrors.length > 0) {
      exitCode = EXIT_ERROR;
      error = `${optionName('strict', options.naming ?? 'flag')}: ${toolErrors.join('; ')}`;
      message = `no answer: ${error}`;
    } else if ((error = pathsMismatch(classification, checkout.topLevel, options.naming ?? 'flag'))) {
      exitCode = EXIT_ERROR;
      message = `no answer: ${error}`;
    } else if (blocking > 0) {
      exitCode = EXIT_BLOCKED;
      message = `blocked by ${blocking} net-new finding${blocking === 1 ? '' : 's'} at or above ${options.failOn}`;
    } else if ((error = unplaceable(classification, options.failOn, options.naming ?? 'flag'))) {
      exitCode = EXIT_ERROR;
      message = `no answer: ${error}`;
    } else {
      exitCode = EXIT_OK;
      message = `no blocking net-new findings (${classification.netNew.length} net-new, ${classification.preExisting} pre-existing)`;
    }
  } catch (err) {
    if (!(err instanceof GateError)) throw err;
    ({ exitCode, error, message, classification } = noAnswer(err));
    stale ??= await pendingStale;
  }
  if (stale) warnings.push(`the report ${stale} is the file committed at head, unchanged: an earlier run's output, since this run wrote no report`);

  let leftOut = 0;
  if (options.filteredOut) ({ leftOut } = await writeFilteredSarif(options.filteredOut, classification && log, classification));
  const counts = countsOf(classification, {
    exit_code: exitCode,
    fail_on: options.failOn,
    linters_skipped: skipped,
    linters_missing: missing,
    failed_invocations: failed,
    stale_report: stale !== undefined,
    warnings,
    ...(lintersSource ? { linters_source: lintersSource } : {}),
    filtered_left_out_count: leftOut,
    ...(diff ? { base: options.base, head: diff.head, merge_base: diff.mergeBase } : {}),
    ...(error ? { error } : {}),
  });
  if (options.countsJson) await writeCounts(options.countsJson, counts, classification?.notCounted ?? []);
  return { exitCode, counts, message, ...(classification ? { classification } : {}), ...(diff ? { diff } : {}) };
}
