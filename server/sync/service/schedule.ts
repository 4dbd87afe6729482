import { Cron } from 'croner';

/** When a source runs: a cron expression (UTC) or a fixed interval. */
export interface Schedule {
  /** As configured, e.g. `30 * * * *` or `3600`. */
  readonly text: string;
  /** The first run strictly after `after`, or null when the expression has no future run. */
  next(after: Date): Date | null;
}

class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}

const MIN_INTERVAL_SECONDS = 60;
const MAX_INTERVAL_SECONDS = 7 * 86_400;

/**
 * A five- or six-field cron expression, evaluated in UTC so a schedule means the same on every
 * node; or whole seconds from 60 to 604800, counted from the service's start. Croner is the
 * judge of an expression; its message names the wrong field, never more than the expression.
 */
export function parseSchedule(raw: string | number): Schedule {
  const text = String(raw).trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    if (seconds < MIN_INTERVAL_SECONDS || seconds > MAX_INTERVAL_SECONDS) {
      throw new ScheduleError(`as an interval must be whole seconds from ${MIN_INTERVAL_SECONDS} to ${MAX_INTERVAL_SECONDS}`);
    }
    return { text, next: (after) => new Date(after.getTime() + seconds * 1000) };
  }
  const fields = text.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) throw new ScheduleError('must be a cron expression (5 or 6 fields) or an interval in seconds');
  let cron: Cron;
  try {
    cron = new Cron(fields.join(' '), { paused: true, timezone: 'Etc/UTC' });
  } catch (err) {
    throw new ScheduleError(`is not a valid cron expression (${(err as Error).message.replace(/^CronPattern: /, '')})`);
  }
  return { text: fields.join(' '), next: (after) => cron.nextRun(after) };
}
