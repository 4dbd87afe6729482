import { resolve } from 'node:path';
import { Baseline } from './rules/baseline.js';
import { checkoutOf, type WorkTree } from './diff/checkout.js';
import { classify, type Classification, type Unattributed } from './rules/classify.js';
import { GateError, type OptionNaming } from './errors.js';
import { pullRequestDiff, type PullRequestDiff } from './diff/git-diff.js';
import { linterKeyOf, megalinterMajor, missingLinters, skippedLinters } from './reports/megalinter.js';
import { megalinterSettings, type MegalinterSettings } from './reports/megalinter-config.js';
import { countsOf, writeCounts, writeFilteredSarif, type Counts } from './outputs/report.js';
import { computed, readSarif, type SarifLog } from './reports/sarif.js';
import { SopsDetector } from './rules/secrets.js';
import { staleReport } from './reports/stale-report.js';
import type { FailOn } from './rules/severity.js';
import { verdict, type Facts, type ToolFacts, type Verdict } from './rules/verdict.js';

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

/** What the outputs write besides the verdict's facts. */
type Known = ToolFacts & { readonly log?: SarifLog; readonly diff?: PullRequestDiff };

/**
 * `gate ci`: classify the report's results against the pull request's diff, decide the verdict,
 * write the filtered SARIF and the counts, then answer with the exit code (0 pass, 1 blocked,
 * 2 no answer). The outputs are written in every case.
 */
export async function runCi(options: CiOptions, env: NodeJS.ProcessEnv): Promise<CiOutcome> {
  const git = await startGit(options);
  // Whatever stopped the gathering, git's steps are awaited: none is left behind, nor its failure unhandled.
  const facts = await gather(options, env, git).finally(() => git.ended);
  return writeOutputs(options, facts, verdict(facts, options));
}

/** The filtered SARIF (empty when nothing was classified) and the counts, whatever the verdict. */
async function writeOutputs(options: CiOptions, facts: Facts & Known, { exitCode, message, error }: Verdict): Promise<CiOutcome> {
  const { log, diff, settings, stale } = facts;
  const classification = 'classification' in facts ? facts.classification : undefined;
  const warnings = [
    ...(settings?.problem ? [`${settings.problem}: ${settings.enabled ? 'SARIF_REPORTER_LINTERS may be unknown' : 'the enabled linters are unknown, so skipped and missing linters are not checked'} (name them with --linters, action input linters)`] : []),
    ...(stale ? [`the report ${stale} is the file committed at head, unchanged: an earlier run's output, since this run wrote no report`] : []),
  ];
  const leftOut = options.filteredOut ? await writeFilteredSarif(options.filteredOut, log, classification) : 0;
  const counts = countsOf(classification, {
    exit_code: exitCode,
    fail_on: options.failOn,
    linters_skipped: facts.skipped,
    linters_missing: facts.missing,
    failed_invocations: facts.failed,
    stale_report: stale !== undefined,
    warnings,
    ...(settings?.source ? { linters_source: settings.source } : {}),
    filtered_left_out_count: leftOut,
    ...(diff ? { base: options.base, head: diff.head, merge_base: diff.mergeBase } : {}),
    ...(error ? { error } : {}),
  });
  if (options.countsJson) await writeCounts(options.countsJson, counts, classification?.notCounted ?? []);
  return { exitCode, counts, message, ...(classification ? { classification } : {}), ...(diff ? { diff } : {}) };
}

/**
 * git computes the diff in its own process while this one reads the report: the checks before it
 * take a few git calls, then `git diff` runs alone. The head's file list is read beside it, once
 * it runs: starting a process takes this one's thread a few milliseconds, which would otherwise
 * delay git diff. Each step is watched from its start, so its failure waits for its turn to be
 * reported (report problems come first); `ended` settles once every step has, whatever they did.
 */
async function startGit(options: CiOptions) {
  let running!: () => void;
  const diffRunning = new Promise<void>((resolve) => (running = resolve));
  const diff = pullRequestDiff(options.repo, options.base, options.head, running);
  const diffEnded = Promise.allSettled([diff]);
  await diffRunning;
  const { workTree, checkout } = checkoutOf(options.repo, options.head);
  const stale = staleReport(options.sarif, options.head, checkout);
  return { diff, workTree, checkout, stale, ended: Promise.allSettled([diffEnded, workTree, checkout, stale]) };
}
type GitWork = Awaited<ReturnType<typeof startGit>>;

/**
 * The facts, in the order their problems are reported: the report, then MegaLinter's settings
 * and the linters, the diff, the checkout and the classification. A setup problem (a
 * `GateError`) stops there, with the facts gathered before it.
 */
async function gather(options: CiOptions, env: NodeJS.ProcessEnv, git: GitWork): Promise<Facts & Known> {
  let known: Known = { skipped: [], missing: [], failed: [] };
  try {
    const log = readReport(options.sarif);
    const settings = await megalinterSettingsOf(options, env, git.workTree);
    const skipped = skippedLinters(settings.enabled, megalinterMajor(log), settings.sarifLinters);
    known = { log, settings, skipped, missing: missingLinters(log, options.sarif, settings.enabled, skipped), failed: failedInvocations(log) };
    const diff = await git.diff;
    known = { ...known, diff };
    const checkout = await git.checkout;
    const classification = classify(log, diff, {
      failOn: options.failOn,
      checkout,
      sops: new SopsDetector(checkout.topLevel),
      skippedLinters: new Set(skipped.map((s) => s.linter)),
      unattributed: options.unattributed,
      ...(options.stripPrefixes ? { stripPrefixes: options.stripPrefixes } : {}),
      ...(options.baselineSarif ? { baseline: Baseline.open(options.baselineSarif, checkout, options.stripPrefixes) } : {}),
    });
    return { ...known, stale: await git.stale, classification, topLevel: checkout.topLevel };
  } catch (err) {
    if (!(err instanceof GateError)) throw err;
    return { ...known, stale: await git.stale, problem: err.message };
  }
}

/** The report, refused when it holds nothing to judge: no runs, or a run that computed no results. */
function readReport(path: string): SarifLog {
  const log = readSarif(path);
  if (log.runs.length === 0) throw new GateError('the SARIF report has no runs: nothing was scanned');
  const uncomputed = log.runs.flatMap((run) => (computed(run) ? [] : [linterKeyOf(run) ?? run.tool.driver.name ?? 'unknown tool']));
  if (uncomputed.length > 0) {
    throw new GateError(`the run of ${uncomputed.join(', ')} produced no results ("results" is null or absent: the tool computed none, as after a failure); nothing can be judged from it`);
  }
  return log;
}

/** Runs whose tool says its invocation failed: a partial scan. */
function failedInvocations(log: SarifLog): string[] {
  return log.runs
    .filter((run) => run.invocations?.some((i) => i.executionSuccessful === false))
    .map((run) => linterKeyOf(run) ?? run.tool.driver.name ?? 'unknown tool');
}

/**
 * MegaLinter's settings as read from `--repo`, else, when `--repo` is a directory inside the work
 * tree and holds no configuration, from the top level (where MegaLinter usually runs). A top
 * level git cannot tell leaves `--repo`'s settings; the checkout reports why in its turn.
 */
async function megalinterSettingsOf(options: CiOptions, env: NodeJS.ProcessEnv, workTree: Promise<WorkTree>): Promise<MegalinterSettings> {
  const settings = await megalinterSettings(options.linters, env, options.repo);
  if (settings.source || settings.problem) return settings;
  const topLevel = await workTree.then((w) => w.topLevel, () => undefined);
  return topLevel && resolve(topLevel) !== resolve(options.repo) ? megalinterSettings(options.linters, env, topLevel) : settings;
}
