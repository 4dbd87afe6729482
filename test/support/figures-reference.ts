import type { DeploymentRecord } from '../../server/store/types.js';

const DAY = 86_400_000;

/** Smallest value with at least p% of the values at or below it (nearest rank), by counting. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i++) if ((i + 1) * 100 >= p * sorted.length) return sorted[i]!;
  throw new Error('no values');
}

const summary = (values: readonly number[]) => (values.length === 0 ? null : { median: percentile(values, 50), p90: percentile(values, 90), count: values.length });

const byTimeThenId = (a: DeploymentRecord, b: DeploymentRecord): number =>
  a.recordedAt.getTime() - b.recordedAt.getTime() || (a.deploymentId < b.deploymentId ? -1 : a.deploymentId > b.deploymentId ? 1 : 0);

/**
 * The store's figures computed directly from every record, written apart from the stores' code:
 * select, then walk each environment's records in order, looking back for the streak's start.
 */
export function referenceFigures(all: readonly DeploymentRecord[], q: { repositoryId: string; environment?: string; from: Date; to: Date; now: Date }) {
  const selected = all.filter(
    (r) =>
      r.repositoryId === q.repositoryId &&
      (q.environment === undefined || r.environment === q.environment) &&
      r.expireAt > q.now &&
      r.recordedAt >= q.from &&
      r.recordedAt <= q.to,
  );
  const count = (status: DeploymentRecord['status']) => selected.filter((r) => r.status === status).length;
  const successes = selected.filter((r) => r.status === 'success');
  const recoveries: number[] = [];
  for (const environment of new Set(selected.map((r) => r.environment))) {
    const seq = selected.filter((r) => r.environment === environment && r.status !== 'skipped').sort(byTimeThenId);
    seq.forEach((r, i) => {
      if (r.status !== 'success' || i === 0 || seq[i - 1]!.status === 'success') return;
      let start = i - 1;
      while (start > 0 && seq[start - 1]!.status !== 'success') start--;
      recoveries.push(r.recordedAt.getTime() - seq[start]!.recordedAt.getTime());
    });
  }
  return {
    counts: { success: successes.length, failure: count('failure'), 'rolled-back': count('rolled-back'), skipped: count('skipped') },
    successDays: new Set(successes.map((r) => r.recordedAt.toISOString().slice(0, 10))).size,
    recovery: summary(recoveries),
    leadTime: summary(successes.filter((r) => r.committedAt).map((r) => r.recordedAt.getTime() - r.committedAt!.getTime())),
    byDay: new Map(
      [...new Set(selected.map((r) => r.recordedAt.toISOString().slice(0, 10)))].map((date) => {
        const of = (status: DeploymentRecord['status']) => selected.filter((r) => r.status === status && r.recordedAt.toISOString().startsWith(date)).length;
        return [date, { success: of('success'), failure: of('failure'), 'rolled-back': of('rolled-back'), skipped: of('skipped') }];
      }),
    ),
  };
}

/** The body of `GET /v1/deployments/metrics` computed directly from every record. */
export function referenceMetricsBody(all: readonly DeploymentRecord[], q: { repositoryId: string; repository: string; environment?: string; days: number; now: Date }) {
  const from = new Date(q.now.getTime() - q.days * DAY);
  const f = referenceFigures(all, { ...q, from, to: q.now });
  const { success, failure, 'rolled-back': rolledBack, skipped } = f.counts;
  return {
    repository: q.repository,
    environment: q.environment ?? null,
    window: { from: from.toISOString(), to: q.now.toISOString(), days: q.days },
    deployments: { total: success + failure + rolledBack + skipped, success, failure, rolled_back: rolledBack, skipped },
    deployment_frequency: { per_day: success / q.days, days_with_deployment: f.successDays },
    change_failure_rate: success + failure + rolledBack === 0 ? null : (failure + rolledBack) / (success + failure + rolledBack),
    recovery_time_ms: f.recovery,
    lead_time_ms: f.leadTime,
    daily: referenceDaily(all, { ...q, from }),
  };
}

/** Per UTC date from the window's first to its last, the records of that date, counted by status. */
function referenceDaily(all: readonly DeploymentRecord[], q: { repositoryId: string; environment?: string; from: Date; now: Date }) {
  const selected = all.filter(
    (r) => r.repositoryId === q.repositoryId && (q.environment === undefined || r.environment === q.environment) && r.expireAt > q.now && r.recordedAt >= q.from && r.recordedAt <= q.now,
  );
  const days: { date: string; success: number; failure: number; rolled_back: number; skipped: number }[] = [];
  for (let at = new Date(`${q.from.toISOString().slice(0, 10)}T00:00:00Z`); at <= q.now; at = new Date(at.getTime() + DAY)) {
    const date = at.toISOString().slice(0, 10);
    const of = (status: DeploymentRecord['status']) => selected.filter((r) => r.status === status && r.recordedAt.toISOString().startsWith(date)).length;
    days.push({ date, success: of('success'), failure: of('failure'), rolled_back: of('rolled-back'), skipped: of('skipped') });
  }
  return days;
}
