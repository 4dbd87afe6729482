import { inlineText } from '../../server/markdown.js';
import type { Distribution } from '../../server/store/types.js';
import type { DeliveryFigures } from './ledger-client.js';

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

/** Text inside a Mermaid string: its quotes and line breaks would end it. */
const mermaidText = (text: string): string => text.replace(/["\r\n`]/g, "'").replace(/[#;]/g, ' ');

/**
 * The window's deployments per day as a Mermaid `xychart-beta` (GitHub renders ```` ```mermaid ````
 * blocks in job summaries): two bar series drawn over each other, all changes of the day, then
 * the failed and rolled back ones on top of them, so the part of each bar left showing is the
 * day's successes. Skipped deployments are not changes. Undefined when the window has no change
 * or the ledger sent no daily series.
 */
export function deploymentChart(environment: string, f: DeliveryFigures): string | undefined {
  const days = f.daily;
  if (!days || days.every((d) => d.success + d.failure + d.rolled_back === 0)) return undefined;
  const changes = days.map((d) => d.success + d.failure + d.rolled_back);
  const failed = days.map((d) => d.failure + d.rolled_back);
  return [
    '```mermaid',
    'xychart-beta',
    `  title "${mermaidText(environment)}: deployments per day (failed and rolled back over all changes)"`,
    `  x-axis [${days.map((d) => `"${d.date.slice(5)}"`).join(', ')}]`,
    `  y-axis "Deployments" 0 --> ${Math.max(...changes)}`,
    `  bar [${changes.join(', ')}]`,
    `  bar [${failed.join(', ')}]`,
    '```',
  ].join('\n');
}

/** The job summary's table of the figures, and the chart of the window's days. */
export function figuresSummary(environment: string, f: DeliveryFigures): string {
  const d = f.deployments;
  const chart = deploymentChart(environment, f);
  return [
    `#### ${inlineText(environment)}: the last ${f.window.days} days`,
    '',
    '| Deployments | Per day | Days with a deployment | Change failure rate | Time to recover | Lead time |',
    '| --- | --- | --- | --- | --- | --- |',
    `| ${d.total} (${d.success} success, ${d.failure} failure, ${d.rolled_back} rolled back, ${d.skipped} skipped) | ${f.deployment_frequency.per_day.toFixed(2)} | ${f.deployment_frequency.days_with_deployment} | ${percent(f.change_failure_rate)} | ${spread(f.recovery_time_ms, 'no recovered failure')} | ${spread(f.lead_time_ms, 'no commit times')} |`,
    '',
    ...(chart ? [chart, '', 'Each bar is the day\'s changes (successes, failures and roll-backs); its lower part, drawn over it, the failed and rolled back ones.', ''] : []),
  ].join('\n');
}
