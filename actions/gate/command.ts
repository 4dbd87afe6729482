import { packageVersion } from '../../server/version.js';
import { NO_EVENT, type EventContext } from '../shared/event.js';
import { parseCommand } from './args.js';
import { runCi } from './ci.js';
import { EXIT_ERROR, EXIT_OK, GateError, GateUsageError, noAnswerLine } from './errors.js';

export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/**
 * The `gate` command: returns the exit code; relative paths resolve against `cwd`; a workflow's
 * pull-request event gives the default base.
 */
export async function gateCommand(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string, io: CliIo, event: EventContext = NO_EVENT): Promise<number> {
  let command;
  try {
    command = parseCommand(argv, cwd, 'flag', event);
  } catch (err) {
    if (!(err instanceof GateError)) throw err;
    if (err instanceof GateUsageError) io.err(err.usage);
    io.err(noAnswerLine(err.message));
    return EXIT_ERROR;
  }
  if (command.kind === 'help') {
    io.out(command.text);
    return EXIT_OK;
  }
  if (command.kind === 'version') {
    io.out(packageVersion());
    return EXIT_OK;
  }
  const outcome = await runCi(command.options, env);
  const c = outcome.counts;
  for (const finding of outcome.classification?.netNew ?? []) {
    const place = finding.path ? `${finding.path}:${finding.startLine ?? 1}` : '(no file)';
    io.out(`${finding.blocking ? 'BLOCKING' : 'net-new '} ${finding.severity.padEnd(8)} ${place} ${finding.tool}${finding.ruleId ? ` ${finding.ruleId}` : ''}`);
  }
  for (const skipped of c.linters_skipped) io.out(`skipped  ${skipped.linter}: ${skipped.reason}`);
  for (const missing of c.linters_missing) io.out(`missing  ${missing.linter}: ${missing.reason}`);
  for (const warning of c.warnings) io.err(`warning: ${warning}`);
  // Counts only when findings were classified: "0 net-new" after no answer would read like a pass.
  if (outcome.classification) {
    const reasons = Object.entries(c.not_counted_by_reason).filter(([, n]) => n > 0);
    if (reasons.length > 0) io.out(`not counted: ${reasons.map(([reason, n]) => `${n} ${reason}`).join(', ')} (each with its reason in --counts-json)`);
    io.out(
      `gate: ${c.net_new_count} net-new (${c.blocking_count} blocking), ${c.pre_existing_count} pre-existing, ${c.suppressed_count} suppressed, ${c.sops_ignored_count} SOPS-encrypted, ${c.no_location_count} without location, ${c.unmapped_count} not in the repository${c.not_a_finding_count > 0 ? `, ${c.not_a_finding_count} not findings` : ''}`,
    );
  }
  if (outcome.exitCode === EXIT_ERROR) io.err(noAnswerLine(c.error ?? outcome.message));
  else (outcome.exitCode === EXIT_OK ? io.out : io.err)(`gate: ${outcome.message} (exit ${outcome.exitCode})`);
  return outcome.exitCode;
}
