import type { Logger } from './logger.js';

/**
 * Readiness as an operator sees it in the log: each change (ready ↔ not ready, or another reason
 * for not being ready) written once, not once per probe, so a log alert fires on the change and a
 * probe every few seconds adds nothing. Not ready is a `warn` with the reason and what to fix.
 */
export class ReadinessLog {
  private last: string | undefined;

  /**
   * `startsReady`: the process counts as ready from its start (the backend: its store is reached
   * lazily), so only a loss and the recovery after it are written, not the first success.
   */
  constructor(
    private readonly log: Pick<Logger, 'info' | 'warn'>,
    options: { startsReady?: boolean } = {},
  ) {
    if (options.startsReady) this.last = 'ready';
  }

  ready(): void {
    if (this.last === 'ready') return;
    const wasNotReady = this.last !== undefined;
    this.last = 'ready';
    this.log.info(wasNotReady ? 'ready again' : 'ready');
  }

  /** `problems` are part of the state (a new list is a change); `detail` is only written with it. */
  notReady(reason: string, problems: readonly string[] = [], detail: Record<string, unknown> = {}): void {
    const state = `${reason}\u0000${problems.join('\u0000')}`;
    if (this.last === state) return;
    this.last = state;
    this.log.warn({ reason, ...(problems.length > 0 ? { problems } : {}), ...detail }, `not ready: ${reason}`);
  }
}
