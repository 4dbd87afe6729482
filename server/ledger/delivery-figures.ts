import type { CallerIdentity } from '../auth/verifier.js';
import type { Clock } from '../clock.js';
import type { DeploymentFigures, Store } from '../store/types.js';
import { FIGURES_DEFAULT_DAYS, type FiguresRequest } from './schema.js';

const DAY_MS = 86_400_000;

/**
 * `GET /v1/deployments/metrics`: the caller's delivery figures over `[now − days, now]`, from one
 * store query. Rates are derived here from the store's counts; everything else is the store's.
 */
export async function deliveryFigures(
  deps: { readonly store: Store; readonly clock: Clock },
  caller: CallerIdentity,
  query: FiguresRequest,
): Promise<Record<string, unknown>> {
  const days = query.days ?? FIGURES_DEFAULT_DAYS;
  const to = new Date(deps.clock.now());
  const from = new Date(to.getTime() - days * DAY_MS);
  const figures = await deps.store.deployments.figures({
    repositoryId: caller.repositoryId,
    from,
    to,
    now: to,
    ...(query.environment === undefined ? {} : { environment: query.environment }),
  });
  const { success, failure, 'rolled-back': rolledBack, skipped } = figures.counts;
  const changes = success + failure + rolledBack;
  return {
    repository: caller.repository,
    environment: query.environment ?? null,
    window: { from: from.toISOString(), to: to.toISOString(), days },
    deployments: { total: success + failure + rolledBack + skipped, success, failure, rolled_back: rolledBack, skipped },
    deployment_frequency: { per_day: success / days, days_with_deployment: figures.successDays },
    change_failure_rate: changes === 0 ? null : (failure + rolledBack) / changes,
    recovery_time_ms: figures.recovery,
    lead_time_ms: figures.leadTime,
    daily: dailySeries(from, to, figures.byDay),
  };
}

/**
 * Every UTC date the window touches, oldest first, the first and last partly, each with its
 * records' counts (zeros for a date without any): together they hold every record counted above.
 */
function dailySeries(from: Date, to: Date, byDay: DeploymentFigures['byDay']): Record<string, unknown>[] {
  const series: Record<string, unknown>[] = [];
  for (let day = Math.floor(from.getTime() / DAY_MS); day <= Math.floor(to.getTime() / DAY_MS); day++) {
    const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    const counts = byDay.get(date);
    series.push({ date, success: counts?.success ?? 0, failure: counts?.failure ?? 0, rolled_back: counts?.['rolled-back'] ?? 0, skipped: counts?.skipped ?? 0 });
  }
  return series;
}
