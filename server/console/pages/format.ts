/** How figures read on the pages: short, unambiguous, in UTC. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A duration as at most two units: `45 s`, `12 min`, `3 h 20 min`, `2 d 4 h`; negative durations keep their sign. */
export function duration(ms: number): string {
  if (ms < 0) return `−${duration(-ms)}`;
  if (ms < MINUTE) return `${Math.round(ms / 1000)} s`;
  if (ms < HOUR) return `${Math.round(ms / MINUTE)} min`;
  if (ms < DAY) {
    const h = Math.floor(ms / HOUR);
    const min = Math.round((ms - h * HOUR) / MINUTE);
    return min === 0 || min === 60 ? `${min === 60 ? h + 1 : h} h` : `${h} h ${min} min`;
  }
  const d = Math.floor(ms / DAY);
  const h = Math.round((ms - d * DAY) / HOUR);
  return h === 0 || h === 24 ? `${h === 24 ? d + 1 : d} d` : `${d} d ${h} h`;
}

export const percent = (rate: number): string => `${(rate * 100).toFixed(1)} %`;

export function perDay(rate: number): string {
  if (rate >= 1) return `${rate.toFixed(1)} per day`;
  if (rate * 7 >= 1) return `${(rate * 7).toFixed(1)} per week`;
  return `${(rate * 30).toFixed(1)} per month`;
}

/** `2026-11-20 12:34 UTC`. */
export const utc = (date: Date): string => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
