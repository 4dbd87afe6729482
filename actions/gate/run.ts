import { join } from 'node:path';
import { booleanInput, InputError, optionalInput } from '../shared/inputs.js';
import { appendSummary } from '../shared/summary.js';
import { parseCommand } from './args.js';
import { runCi, type CiOutcome } from './ci.js';
import { messageOf, type Finding } from './rules/classify.js';
import { EXIT_BLOCKED, EXIT_OK, GateError } from './errors.js';
import { NO_EVENT } from '../shared/event.js';
import type { GateCore, GateDeps } from './deps.js';
import { COMMENT_LIMIT } from './outputs/pr-comment.js';
import { gateReport, rankFindings, SUMMARY_LIMIT } from './outputs/summary.js';
import { PullRequestFeedback, pullRequestSettings, type PullRequestSettings } from './pull-request.js';

export type { GateCore, GateDeps } from './deps.js';

/** The action's inputs as `gate ci` arguments, so both share one parser and one set of defaults. */
function argv(core: GateCore, env: NodeJS.ProcessEnv): string[] {
  const args = ['ci'];
  const temp = env.RUNNER_TEMP || '.';
  const value = (input: string, fallback?: string) => optionalInput(core, input) ?? fallback;
  for (const [input, flag, fallback] of [
    ['sarif', '--sarif', undefined],
    ['base', '--base', undefined],
    ['head', '--head', undefined],
    ['repo', '--repo', undefined],
    ['fail-on', '--fail-on', undefined],
    ['linters', '--linters', undefined],
    ['unattributed-dependency', '--unattributed-dependency', undefined],
    ['baseline-sarif', '--baseline-sarif', undefined],
    ['filtered-out', '--filtered-out', join(temp, 'gatehouse-gate', 'filtered.sarif')],
    ['counts-json', '--counts-json', join(temp, 'gatehouse-gate', 'counts.json')],
  ] as const) {
    const v = value(input, fallback);
    if (v !== undefined) args.push(flag, v);
  }
  // One prefix per line, as multi-line inputs are written.
  for (const prefix of (optionalInput(core, 'strip-prefix') ?? '').split(/\r?\n/).map((p) => p.trim()).filter(Boolean)) args.push('--strip-prefix', prefix);
  if (booleanInput(core, 'strict', false)) args.push('--strict');
  return args;
}

/**
 * GitHub shows at most 10 error annotations per step, and a failed step's own message is one of
 * them: the 9 worst blocking findings (severity, then report order) get one each, and one notice
 * says how many more the job summary lists.
 */
const MAX_FINDING_ANNOTATIONS = 9;

function annotate(core: GateCore, ranked: readonly Finding[]): void {
  // Blocking is a severity threshold, so the blocking findings lead the ranking.
  const blocking = ranked.filter((f) => f.blocking);
  const worst = blocking.slice(0, MAX_FINDING_ANNOTATIONS);
  for (const f of worst) {
    core.error(`${f.tool}${f.ruleId ? ` ${f.ruleId}` : ''}: ${messageOf(f) || 'finding'}`, {
      title: `Net-new ${f.severity} finding`,
      ...(f.path ? { file: f.path } : {}),
      ...(f.startLine === undefined || !f.path ? {} : { startLine: f.startLine }),
    });
  }
  const more = blocking.length - worst.length;
  if (more > 0) core.notice(`${more} more blocking finding${more === 1 ? ' is' : 's are'} listed in the job summary (GitHub shows 10 error annotations per step)`, { title: 'More blocking findings' });
}

/**
 * The gate action: `gate ci` with the inputs, then outputs, an annotation per blocking finding (the worst 9),
 * the job summary, one pull-request comment updated in place, and a failed step on exit 1 or 2.
 */
export async function runGate(deps: GateDeps): Promise<CiOutcome | undefined> {
  const { core, env } = deps;
  let outcome: CiOutcome;
  let settings: PullRequestSettings;
  try {
    settings = pullRequestSettings(core);
    const command = parseCommand(argv(core, env), deps.cwd, 'input', deps.event ?? NO_EVENT);
    if (command.kind !== 'ci') throw new GateError('unreachable: the action always runs gate ci');
    core.setOutput('filtered-sarif', command.options.filteredOut ?? '');
    outcome = await runCi(command.options, env);
  } catch (err) {
    // A bad input is a question the gate cannot answer: exit 2, like a bad command-line option.
    if (!(err instanceof GateError) && !(err instanceof InputError)) throw err;
    core.setOutput('exit-code', '2');
    core.setFailed(`no answer: ${err.message}`);
    return undefined;
  }

  const c = outcome.counts;
  core.setOutput('exit-code', String(outcome.exitCode));
  
  core.setOutput('net-new-count', String(c.net_new_count));
  core.setOutput('blocking-count', String(c.blocking_count));
  core.setOutput('linters-skipped', JSON.stringify(c.linters_skipped.map((s) => s.linter)));
  core.setOutput('linters-missing', JSON.stringify(c.linters_missing.map((m) => m.linter)));
  core.setOutput('stale-report', String(c.stale_report));
  for (const w of c.warnings) core.warning(`gate: ${w}`);
  // One ranking for the annotations, the summary, the comment and the inline comments.
  const ranked = rankFindings(outcome);
  annotate(core, ranked);
  const pullRequest = await PullRequestFeedback.open(deps, settings);
  const notes = (await pullRequest?.review(outcome, ranked)) ?? [];
  await appendSummary(core, gateReport(outcome, env, SUMMARY_LIMIT, ranked, notes));
  await pullRequest?.summary(gateReport(outcome, env, COMMENT_LIMIT, ranked, notes));

  if (outcome.exitCode === EXIT_BLOCKED) core.setFailed(`blocked by ${c.blocking_count} net-new finding${c.blocking_count === 1 ? '' : 's'}`);
  else if (outcome.exitCode !== EXIT_OK) core.setFailed(outcome.message);
  else core.info(`gate: ${outcome.message}`);
  return outcome;
}
