import { EXIT_BLOCKED, EXIT_ERROR, EXIT_OK, optionName, type OptionNaming } from '../errors.js';
import type { MegalinterSettings } from '../reports/megalinter-config.js';
import type { SkippedLinter } from '../reports/megalinter.js';
import type { Classification } from './classify.js';
import { blocks, type FailOn } from './severity.js';

/** What `gate ci` learnt about the report and its tools, however far it got. */
export interface ToolFacts {
  readonly skipped: readonly SkippedLinter[];
  readonly missing: readonly SkippedLinter[];
  /** Runs whose tool says its invocation failed: a partial scan. */
  readonly failed: readonly string[];
  readonly settings?: MegalinterSettings;
  /** The report's repository path when it is the file committed at head, unchanged. */
  readonly stale?: string;
}

/** The verdict's facts: the results classified against the checkout, or the setup problem (a `GateError`'s message) that stopped the gate first. */
export type Facts = ToolFacts & ({ readonly problem: string } | { readonly classification: Classification; readonly topLevel: string });

export type VerdictOptions = { readonly failOn: FailOn; readonly strict: boolean; readonly naming?: OptionNaming };

export interface Verdict {
  readonly exitCode: number;
  /** What the exit code means, in one line. */
  readonly message: string;
  /** Why there is no answer (exit 2 only). */
  readonly error?: string;
}

const noAnswer = (error: string): Verdict => ({ exitCode: EXIT_ERROR, message: `no answer: ${error}`, error });

/** What `--strict` makes a tool error. */
function toolErrors({ skipped, missing, failed, stale, settings }: ToolFacts): string[] {
  return [
    ...skipped.map((s) => `${s.linter} is enabled but cannot write SARIF`),
    ...missing.map((m) => `${m.linter} is enabled but has no run in the report`),
    ...failed.map((f) => `${f} failed to run`),
    ...(stale ? [`the report ${stale} is unchanged from the committed file at head (stale)`] : []),
    ...(settings?.problem && !settings.enabled ? [`the enabled linters are unknown (${settings.problem})`] : []),
  ];
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
function unplaceable(c: Classification, failOn: FailOn, naming: OptionNaming): string | undefined {
  if (c.noLocationBlocking === 0) return undefined;
  const n = c.noLocationBlocking;
  const first = c.notCounted.find((x) => x.reason === 'no-location' && blocks(x.severity, failOn));
  const what = first ? ` (the first: ${first.tool}${first.ruleId ? ` ${first.ruleId}` : ''}, ${first.severity})` : '';
  return (
    `${n} result${n === 1 ? '' : 's'} at or above ${failOn} name${n === 1 ? 's' : ''} no file${what}: the diff cannot tell whether the pull request introduced ${n === 1 ? 'it' : 'them'}; ` +
    `give ${optionName('baseline-sarif', naming)} (the base commit's report), which decides results without a file`
  );
}

/**
 * The exit code, first rule that applies: a setup problem, then under `--strict` a tool error, then
 * a report whose paths name no file of the head are no answer (2); a blocking net-new finding
 * blocks (1); a result at or above the threshold that names no file is no answer (2), since it
 * could be new; otherwise a pass (0).
 */
export function verdict(facts: Facts, options: VerdictOptions): Verdict {
  const naming = options.naming ?? 'flag';
  if ('problem' in facts) return noAnswer(facts.problem);
  const errors = options.strict ? toolErrors(facts) : [];
  if (errors.length > 0) return noAnswer(`${optionName('strict', naming)}: ${errors.join('; ')}`);
  const { classification: c, topLevel } = facts;
  const mismatch = pathsMismatch(c, topLevel, naming);
  if (mismatch) return noAnswer(mismatch);
  const blocking = c.netNew.filter((f) => f.blocking).length;
  if (blocking > 0) return { exitCode: EXIT_BLOCKED, message: `blocked by ${blocking} net-new finding${blocking === 1 ? '' : 's'} at or above ${options.failOn}` };
  const unplaced = unplaceable(c, options.failOn, naming);
  if (unplaced) return noAnswer(unplaced);
  return { exitCode: EXIT_OK, message: `no blocking net-new findings (${c.netNew.length} net-new, ${c.preExisting} pre-existing)` };
}
