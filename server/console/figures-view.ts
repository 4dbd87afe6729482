import type { Clock } from '../clock.js';
import { deliveryFigures, figureSummary, figuresWindow, type DeliveryFigures, type FiguresWindow, type FigureSummary, type RepositoryRef } from '../ledger/delivery-figures.js';
import { listDeployments } from '../ledger/list-deployments.js';
import { isoWeekStartDay } from '../store/figures.js';
import type { DeploymentRecord, FigureTotals, SessionRepository, Store } from '../store/types.js';
import { failureRateBand, frequencyBand, leadTimeBand, restoreBand, type Band } from './bands.js';
import { duration, percent, perDay } from './pages/format.js';

/*
 * What the pages show, computed with the ledger's own functions: the repository page's figures
 * are `GET /v1/deployments/metrics`'s answer itself (`deliveryFigures`), the overview's and the
 * weekly series' are `figureSummary` over the store's grouped query. One computation, one source.
 */

const DAY = 86_400_000;
export const WINDOWS = [7, 30, 90] as const;
export type WindowDays = (typeof WINDOWS)[number];
export const WEEKS = 12;
export const RECORDS_PER_PAGE = 20;

export const FIGURES = ['deployment_frequency', 'lead_time', 'change_failure_rate', 'time_to_restore'] as const;
export type FigureKey = (typeof FIGURES)[number];
export const FIGURE_LABELS: Readonly<Record<FigureKey, string>> = {
  deployment_frequency: 'Deployment frequency',
  lead_time: 'Lead time',
  change_failure_rate: 'Change failure rate',
  time_to_restore: 'Time to restore',
};

/** One figure as a page shows it: the API's value, its text, its DORA level, or why there is none. */
export interface FigureCell {
  readonly key: FigureKey;
  /** The value as the API states it (per day, milliseconds, a rate 0–1), or null. */
  readonly value: number | null;
  /** Where the value is in the API's answer (`lead_time_ms.median`), for readers who compare. */
  readonly source: string;
  readonly text: string;
  readonly band: Band | null;
  /** Why the figure cannot be computed (set exactly when `value` is null). */
  readonly gap?: string;
}

const RECORD_HINT = 'record one with the record-deployment action (docs/ledger.md)';

/** The four figures of a summary over `days` days, each with its level or the reason it is missing. */
export function figureCells(summary: FigureSummary, days: number): FigureCell[] {
  const { deployments: d } = summary;
  const none = d.total === 0 ? `No deployment recorded in these ${formatDays(days)}: ${RECORD_HINT}.` : undefined;
  const frequency = summary.deployment_frequency.per_day;
  const lead = summary.lead_time_ms?.median ?? null;
  const rate = summary.change_failure_rate;
  const restore = summary.recovery_time_ms?.median ?? null;
  return [
    none
      ? { key: 'deployment_frequency', value: null, source: 'deployment_frequency.per_day', text: '—', band: null, gap: none }
      : { key: 'deployment_frequency', value: frequency, source: 'deployment_frequency.per_day', text: `${perDay(frequency)} (${d.success} in ${formatDays(days)})`, band: frequencyBand(frequency) },
    lead !== null
      ? { key: 'lead_time', value: lead, source: 'lead_time_ms.median', text: `${duration(lead)} (median of ${summary.lead_time_ms!.count})`, band: leadTimeBand(lead) }
      : {
          key: 'lead_time',
          value: null,
          source: 'lead_time_ms.median',
          text: '—',
          band: null,
          gap: none ?? (d.success === 0 ? 'No lead time: no successful deployment in the window.' : "No lead time: no successful deployment carries committed_at; set record-deployment's committed-at input to the commit's time."),
        },
    rate !== null
      ? { key: 'change_failure_rate', value: rate, source: 'change_failure_rate', text: `${percent(rate)} (${d.failure + d.rolled_back} of ${d.success + d.failure + d.rolled_back})`, band: failureRateBand(rate) }
      : { key: 'change_failure_rate', value: null, source: 'change_failure_rate', text: '—', band: null, gap: none ?? 'No change failure rate: no success, failure or rollback in the window (only skipped records).' },
    restore !== null
      ? { key: 'time_to_restore', value: restore, source: 'recovery_time_ms.median', text: `${duration(restore)} (median of ${summary.recovery_time_ms!.count})`, band: restoreBand(restore) }
      : {
          key: 'time_to_restore',
          value: null,
          source: 'recovery_time_ms.median',
          text: '—',
          band: null,
          gap: none ?? (d.failure + d.rolled_back === 0 ? 'No time to restore: no failure or rollback in the window, so nothing to restore.' : 'No time to restore: no failure in the window was followed by a success yet.'),
        },
  ];
}

const formatDays = (days: number): string => (days === 1 ? '1 day' : `${Number.isInteger(days) ? days : days.toFixed(1)} days`);

// ---- overview --------------------------------------------------------------------------------

export interface OverviewRow {
  readonly repository: SessionRepository;
  /** Null: no record of this repository in the window (one row says so). */
  readonly environment: string | null;
  readonly cells: FigureCell[];
  readonly summary: FigureSummary | null;
}

export const SORTS = ['repository', 'environment', ...FIGURES] as const;
export type SortKey = (typeof SORTS)[number];

export interface OverviewQuery {
  readonly days: WindowDays;
  readonly owner?: string;
  readonly environment?: string;
  readonly sort: SortKey;
  readonly order: 'asc' | 'desc';
}

export interface Overview {
  readonly window: FiguresWindow;
  readonly rows: OverviewRow[];
  readonly owners: string[];
  readonly environments: string[];
}

/**
 * One row per (repository, environment) with records in the window, from ONE grouped store
 * query over every repository the person can see; a repository without any gets one row saying so.
 */
export async function overview(deps: { readonly store: Store; readonly clock: Clock }, repositories: readonly SessionRepository[], query: OverviewQuery): Promise<Overview> {
  const window = figuresWindow(deps.clock.now(), query.days);
  const owners = [...new Set(repositories.map((r) => r.owner))].sort(byText);
  const shown = query.owner === undefined ? repositories : repositories.filter((r) => r.owner.toLowerCase() === query.owner!.toLowerCase());
  const groups = await deps.store.deployments.groupedFigures({ repositoryIds: shown.map((r) => r.id), from: window.from, to: window.to, now: window.to });
  const environments = [...new Set(groups.map((g) => g.environment))].sort(byText);
  const byId = new Map(shown.map((r) => [r.id, r]));
  const rows: OverviewRow[] = [];
  const seen = new Set<string>();
  for (const group of groups) {
    seen.add(group.repositoryId);
    if (query.environment !== undefined && group.environment !== query.environment) continue;
    const summary = figureSummary(group.figures, query.days);
    rows.push({ repository: byId.get(group.repositoryId)!, environment: group.environment, summary, cells: figureCells(summary, query.days) });
  }
  if (query.environment === undefined) {
    for (const repository of shown) {
      if (!seen.has(repository.id)) rows.push({ repository, environment: null, summary: null, cells: figureCells(emptySummary, query.days) });
    }
  }
  return { window, rows: sortRows(rows, query.sort, query.order), owners, environments };
}

const NO_RECORDS: FigureTotals = { counts: { success: 0, failure: 0, 'rolled-back': 0, skipped: 0 }, successDays: 0, recovery: null, leadTime: null };
const emptySummary = figureSummary(NO_RECORDS, 1);

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const fullName = (r: SessionRepository): string => `${r.owner}/${r.name}`.toLowerCase();

/** Sorted by the chosen column; rows without a value come last whatever the order; ties by name and environment. */
function sortRows(rows: OverviewRow[], sort: SortKey, order: 'asc' | 'desc'): OverviewRow[] {
  const sign = order === 'asc' ? 1 : -1;
  const tie = (a: OverviewRow, b: OverviewRow) => byText(fullName(a.repository), fullName(b.repository)) || byText(a.environment ?? '', b.environment ?? '');
  return [...rows].sort((a, b) => {
    if (sort === 'repository') return sign * tie(a, b);
    if (sort === 'environment') return sign * byText(a.environment ?? '\uffff', b.environment ?? '\uffff') || tie(a, b);
    const x = a.cells.find((c) => c.key === sort)!.value;
    const y = b.cells.find((c) => c.key === sort)!.value;
    if (x === null || y === null) return x === y ? tie(a, b) : x === null ? 1 : -1;
    return sign * (x - y) || tie(a, b);
  });
}

// ---- repository page ------------------------------------------------------------------------

export interface WeekCell {
  /** The week's Monday, `YYYY-MM-DD`. */
  readonly week: string;
  /** The week's days so far (7 but for the current week). */
  readonly days: number;
  readonly cells: FigureCell[];
}

/** The repository page's query: its window, environment filter and the history's cursor (`page`). */
export interface RepositoryQuery {
  readonly days: WindowDays;
  readonly environment?: string;
  readonly cursor?: string;
}

export interface EnvironmentSection {
  readonly environment: string;
  /** `GET /v1/deployments/metrics?environment=…&days=…` for this repository: the same answer. */
  readonly figures: DeliveryFigures;
  readonly cells: FigureCell[];
  readonly weeks: WeekCell[];
  readonly latest: DeploymentRecord | null;
  readonly latestSuccess: DeploymentRecord | null;
}

export interface RepositoryPage {
  readonly window: FiguresWindow;
  /** Every environment with live records, newest first (the environment filter's choices). */
  readonly environments: string[];
  readonly sections: EnvironmentSection[];
  readonly records: DeploymentRecord[];
  readonly next?: string;
}

/**
 * The repository page: what runs where (the store's answer behind `GET /v1/environments`), per environment the
 * window's figures (`GET /v1/deployments/metrics`'s answer) and its last 12 ISO weeks (one grouped
 * query for every environment), and one page of the window's records (the history's own paging).
 */
export async function repositoryPage(
  deps: { readonly store: Store; readonly clock: Clock },
  repository: SessionRepository,
  query: RepositoryQuery,
  cursorKey: Uint8Array,
): Promise<RepositoryPage> {
  const now = deps.clock.now();
  const window = figuresWindow(now, query.days);
  const ref: RepositoryRef = { repositoryId: repository.id, repository: `${repository.owner}/${repository.name}` };
  // What runs where: the store's answer behind `GET /v1/environments`.
  const states = await deps.store.deployments.environments(repository.id, new Date(now));
  const names = states.map((s) => s.environment).filter((e) => query.environment === undefined || e === query.environment);
  const firstMonday = (isoWeekStartDay(now) - (WEEKS - 1) * 7) * DAY;
  const [figures, weekly, page] = await Promise.all([
    Promise.all(names.map((environment) => deliveryFigures(deps, ref, { environment, days: query.days }))),
    deps.store.deployments.groupedFigures({ repositoryIds: [repository.id], from: new Date(firstMonday), to: new Date(now), now: new Date(now), byWeek: true, ...(query.environment === undefined ? {} : { environment: query.environment }) }),
    listDeployments(deps, ref, { since: window.from, until: window.to, limit: RECORDS_PER_PAGE, ...(query.environment === undefined ? {} : { environment: query.environment }), ...(query.cursor === undefined ? {} : { cursor: query.cursor }) }, cursorKey),
  ]);
  const sections = names.map((environment, i): EnvironmentSection => {
    const state = states.find((s) => s.environment === environment);
    const weeks: WeekCell[] = [];
    for (let w = 0; w < WEEKS; w++) {
      const monday = firstMonday + w * 7 * DAY;
      const week = new Date(monday).toISOString().slice(0, 10);
      const days = Math.min(7, (now - monday) / DAY);
      const group = weekly.find((g) => g.environment === environment && g.week === week);
      const summary = figureSummary(group?.figures ?? NO_RECORDS, days);
      weeks.push({ week, days, cells: figureCells(summary, days) });
    }
    return { environment, figures: figures[i]!, cells: figureCells(figures[i]!, query.days), weeks, latest: state?.latest ?? null, latestSuccess: state?.latestSuccess ?? null };
  });
  return { window, environments: states.map((s) => s.environment), sections, records: page.records, ...(page.next ? { next: page.next } : {}) };
}

