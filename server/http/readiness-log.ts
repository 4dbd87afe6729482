import type { Logger } from '../logger.js';

/**
 * Readiness as an operator sees it in the log: each change (ready ↔ not ready, or another reason
 * for not being ready) written once, not once per probe, so a log alert fires on the change and a
 * probe every few seconds adds nothing. Not ready is a `warn` with the reason and what to fix.
 */
export class ReadinessLog {
  private last: string | undefined;

  constructor(private readonly log: Pick<Logger, 'info' | 'warn'>) {}

  ready(): void {
    if (this.last === 'ready') return;
    const wasNotReady = this.last !== undefined;
    this.last = 'ready';
    this.log.info(wasNotReady ? 'ready again' : 'ready');
  }

  notReady(reason: string, problems: readonly string[] = []): void {
    const state = `${reason}\u0000${problems.join('\u0000')}`;
    if (this.last === state) return;
    this.last = state;
    this.log.warn({ reason, ...(problems.length > 0 ? { problems } : {}) }, `not ready: ${reason}`);
  }
}
