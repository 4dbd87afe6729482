import { cell } from '../shared/summary.js';
import type { DeliveryFigures, Distribution } from './ledger-client.js';

/** The window the action shows: the last 30 days, the ledger's default. */
export const FIGURES_DAYS = 30;

const UNITS: [number, string][] = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'min'],
  [1000, 's'],
];

/** A duration for people: its two largest units ("2 d 3 h", "5 min 12 s"), "under 1 s" below a second. */
export function humanDuration(ms: number): string {
  const sign = ms < 0 ? '−' : '';
  let rest = Math.abs(Math.round(ms));
  const parts: string[] = [];
  for (const [size, unit] of UNITS) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    } else if (parts.length > 0) break;
  }
  return parts.length === 0 ? 'under 1 s' : sign + parts.join(' ');
}

const ratio = (value: number | null): string => (value === null ? '' : String(value));
const percent = (value: number | null): string => (value === null ? 'n/a (no change)' : `${(value * 100).toFixed(1)} %`);
const spread = (d: Distribution | null, none: string): string =>
  d === null ? none : `median ${humanDuration(d.median)}, p90 ${humanDuration(d.p90)} (${d.count})`;

/**
 * The step's outputs of the figures: plain numbers (empty when the ledger says null) so a later
 * step can compare them, and the whole answer as JSON.
 */
export function figuresOutputs(f: DeliveryFigures): Record<string, string> {
  return {
    'deployment-frequency': String(f.deployment_frequency.per_day),
    'change-failure-rate': ratio(f.change_failure_rate),
    'recovery-time-ms': ratio(f.recovery_time_ms?.median ?? null),
    'lead-time-ms': ratio(f.lead_time_ms?.median ?? null),
    figures: JSON.stringify(f),
  };
}

/** The job summary's table of the figures. */
export function figuresSummary(environment: string, f: DeliveryFigures): string {
  const d = f.deployments;
  return [
    `#### ${cell(environment)}: the last ${f.window.days} days`,
    '',
    '| Deployments | Per day | Days with a deployment | Change failure rate | Time to recover | Lead time |',
    '| --- | --- | --- | --- | --- | --- |',
    `| ${d.total} (${d.success} success, ${d.failure} failure, ${d.rolled_back} rolled back, ${d.skipped} skipped) | ${f.deployment_frequency.per_day.toFixed(2)} | ${f.deployment_frequency.days_with_deployment} | ${percent(f.change_failure_rate)} | ${spread(f.recovery_time_ms, 'no recovered failure')} | ${spread(f.lead_time_ms, 'no commit times')} |`,
    '',
  ].join('\n');
}
