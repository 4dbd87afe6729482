/** Exit codes of `gate ci` (spec: EXIT_OK, EXIT_BLOCKED, EXIT_ERROR). */
export const EXIT_OK = 0;
export const EXIT_BLOCKED = 1;
export const EXIT_ERROR = 2;

/**
 * A setup or tool problem: nothing could be decided, so the gate answers 2 ("no answer"), never
 * a pass. The message says what to fix.
 */
export class GateError extends Error {
  override readonly name: string = 'GateError';
}

/** A command-line mistake: printed with the usage text of the command it was made in. */
export class GateUsageError extends GateError {
  override readonly name = 'GateUsageError';
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/**
 * The last line of every exit 2: "no answer" in capitals, so neither a skimming reader nor a log
 * tail takes it for a pass.
 */
export const noAnswerLine = (reason: string): string => `gate: NO ANSWER (exit ${EXIT_ERROR}): ${reason}`;

/**
 * How an option is named in a message: `--fail-on` on the command line, the input `fail-on` in
 * the action (which passes its inputs through the same parser).
 */
export type OptionNaming = 'flag' | 'input';

export function optionName(option: string, naming: OptionNaming): string {
  return naming === 'input' ? `the input ${option}` : `--${option}`;
}
