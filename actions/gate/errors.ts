/** Exit codes of `gate ci` (spec: EXIT_OK, EXIT_BLOCKED, EXIT_ERROR). */
export const EXIT_OK = 0;
export const EXIT_BLOCKED = 1;
export const EXIT_ERROR = 2;

/**
 * A setup or tool problem: nothing could be decided, so the gate answers 2 ("no answer"), never
 * a pass. The message says what to fix.
 */
export class GateError extends Error {
  override readonly name = 'GateError';
}
