import type { Clock } from '../clock.js';
import type { DeploymentFigures, Distribution, FigureTotals, Store } from '../store/types.js';
import { FIGURES_DEFAULT_DAYS, type FiguresRequest } from './schema.js';

const DAY_MS = 86_400_000;

/** The repository a figures query is about: its key (the numeric id) and its name. */
export interface RepositoryRef {
  readonly repositoryId: string;
  /** `owner/name`. */
  readonly repository: string;
}

/** `[now − days, now]`, both ends inclusive. */
export interface FiguresWindow {
  readonly from: Date;
  readonly to: Date;
  readonly days: number;
}

export function figuresWindow(nowMs: number, days: number): FiguresWindow {
  return { from: new Date(nowMs - days * DAY_MS), to: new Date(nowMs), days };
}

/** The four figures and the counts behind them, as `GET /v1/deployments/metrics` answers them. */
export interface FigureSummary {
  readonly deployments: { readonly total: number; readonly success: number; readonly failure: number; readonly rolled_back: number; readonly skipped: number };
  readonly deployment_frequency: { readonly per_day: number; readonly days_with_deployment: number };
  readonly change_failure_rate: number | null;
  readonly recovery_time_ms: Distribution | null;
  readonly lead_time_ms: Distribution | null;
}

export interface DailyCounts {
  readonly date: string;
  readonly success: number;
  readonly failure: number;
  readonly rolled_back: number;
  readonly skipped: number;
}

/** The body of `GET /v1/deployments/metrics`. */
export interface DeliveryFigures extends FigureSummary {
  readonly repository: string;
  readonly environment: string | null;
  readonly window: { readonly from: string; readonly to: string; readonly days: number };
  readonly daily: DailyCounts[];
}

/**
 * The one place where the store's counts become delivery figures (rates derived here; everything
 * else is the store's), for the API and for the console alike. `days` divides the frequency.
 */
export function figureSummary(figures: FigureTotals, days: number): FigureSummary {
  const { success, failure, 'rolled-back': rolledBack, skipped } = figures.counts;
  const changes = success + failure + rolledBack;
  return {
    deployments: { total: success + failure + rolledBack + skipped, success, failure, rolled_back: rolledBack, skipped },
    deployment_frequency: { per_day: success / days, days_with_deployment: figures.successDays },
    change_failure_rate: changes === 0 ? null : (failure + rolledBack) / changes,
    recovery_time_ms: figures.recovery,
    lead_time_ms: figures.leadTime,
  };
}

/**
 * `GET /v1/deployments/metrics`: a repository's delivery figures over `[now − days, now]`, from one
 * store query. The console's repository page shows exactly this answer.
 */
export async function deliveryFigures(deps: { readonly store: Store; readonly clock: Clock }, repository: RepositoryRef, query: FiguresRequest): Promise<DeliveryFigures> {
  const window = figuresWindow(deps.clock.now(), query.days ?? FIGURES_DEFAULT_DAYS);
  const figures = await deps.store.deployments.figures({
    repositoryId: repository.repositoryId,
    from: window.from,
    to: window.to,
    now: window.to,
    ...(query.environment === undefined ? {} : { environment: query.environment }),
  });
  return {
    repository: repository.repository,
    environment: query.environment ?? null,
    window: { from: window.from.toISOString(), to: window.to.toISOString(), days: window.days },
    ...figureSummary(figures, window.days),
    daily: dailySeries(window, figures.byDay),
  };
}

/**
 * Every UTC date the window touches, oldest first, the first and last partly, each with its
 * records' counts (zeros for a date without any): together they hold every record counted above.
 */
function dailySeries({ from, to }: FiguresWindow, byDay: DeploymentFigures['byDay']): DailyCounts[] {
  const series: DailyCounts[] = [];
  for (let day = Math.floor(from.getTime() / DAY_MS); day <= Math.floor(to.getTime() / DAY_MS); day++) {
    const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    const counts = byDay.get(date);
    series.push({ date, success: counts?.success ?? 0, failure: counts?.failure ?? 0, rolled_back: counts?.['rolled-back'] ?? 0, skipped: counts?.skipped ?? 0 });
  }
  return series;
}
