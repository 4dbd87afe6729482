/*
 * DORA's performance levels, as the Accelerate State of DevOps Report 2023 (DORA, Google Cloud,
 * "How do you compare?") publishes them for the four keys; docs/console.md quotes the table and
 * says how its ranges become the bounds below. The report gives each level's typical range, not
 * cut-offs: a value between two ranges belongs to the slower level, and where the report's Low
 * row repeats Medium's range (frequency and lead time), Low is everything slower than Medium.
 */

export type Band = 'Elite' | 'High' | 'Medium' | 'Low';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Successful deployments per day: Elite on demand (more than one a day), High at least weekly, Medium at least monthly. */
export function frequencyBand(perDay: number): Band {
  if (perDay > 1) return 'Elite';
  if (perDay >= 1 / 7) return 'High';
  if (perDay >= 1 / 30) return 'Medium';
  return 'Low';
}

/** Median lead time: Elite under a day, High within a week, Medium within a month. */
export function leadTimeBand(ms: number): Band {
  if (ms < DAY) return 'Elite';
  if (ms <= 7 * DAY) return 'High';
  if (ms <= 30 * DAY) return 'Medium';
  return 'Low';
}

/** Change failure rate (0–1): the report's levels sit at 5 %, 10 %, 15 % and 64 %. */
export function failureRateBand(rate: number): Band {
  if (rate <= 0.05) return 'Elite';
  if (rate <= 0.1) return 'High';
  if (rate <= 0.15) return 'Medium';
  return 'Low';
}

/** Median time to restore: Elite under an hour, High under a day, Medium within a week. */
export function restoreBand(ms: number): Band {
  if (ms < HOUR) return 'Elite';
  if (ms < DAY) return 'High';
  if (ms <= 7 * DAY) return 'Medium';
  return 'Low';
}
