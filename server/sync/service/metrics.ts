import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { SOURCES, type SourceName } from '../config.js';

const METRIC_PREFIX = 'gatehouse_';

/** The `change` label of `gatehouse_sync_finding_changes_total`: DefectDojo's reimport statistics. */
const FINDING_CHANGES = ['created', 'closed', 'reactivated'] as const;

/**
 * The service's Prometheus metrics, on a registry of its own (never prom-client's global one),
 * so a test or a second service in one process starts from zero.
 */
export class SyncMetrics {
  readonly registry = new Registry();
  private readonly findings: Counter<'source'>;
  private readonly changes: Counter<'source' | 'change'>;
  private readonly issues: Counter;
  private readonly issuesClosed: Counter;
  private readonly issuesReopened: Counter;
  private readonly lastSuccess: Gauge<'source'>;
  private readonly errors: Counter;
  private readonly runs: Counter<'source' | 'outcome'>;
  private readonly duration: Histogram<'source'>;
  private readonly running: Gauge<'source'>;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    // The default process metrics keep their usual names (process_*, nodejs_*), which dashboards expect.
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.findings = new Counter({
      name: `${METRIC_PREFIX}sync_findings_total`,
      help: 'Findings sent to DefectDojo, by source',
      labelNames: ['source'],
      registers,
    });
    this.changes = new Counter({
      name: `${METRIC_PREFIX}sync_finding_changes_total`,
      help: "What DefectDojo's reimports did to findings (its own statistics; a reimport that created its test counts all its findings as created), by source",
      labelNames: ['source', 'change'],
      registers,
    });
    this.issues = new Counter({ name: `${METRIC_PREFIX}issues_total`, help: 'GitHub issues opened for DefectDojo findings', registers });
    this.issuesClosed = new Counter({ name: `${METRIC_PREFIX}issues_closed_total`, help: 'GitHub issues closed because their DefectDojo finding is no longer active', registers });
    this.issuesReopened = new Counter({ name: `${METRIC_PREFIX}issues_reopened_total`, help: 'GitHub issues reopened because their DefectDojo finding became active again', registers });
    this.lastSuccess = new Gauge({
      name: `${METRIC_PREFIX}last_success_timestamp`,
      help: 'Unix time (seconds) at which the last fully successful run of a source ended; until one has since the service started, the time it started',
      labelNames: ['source'],
      registers,
    });
    this.errors = new Counter({
      name: `${METRIC_PREFIX}errors_total`,
      help: 'Failures: a project, alert list or finding that failed, or a run that could not start',
      registers,
    });
    this.runs = new Counter({ name: `${METRIC_PREFIX}sync_runs_total`, help: 'Finished runs, by source and outcome', labelNames: ['source', 'outcome'], registers });
    this.duration = new Histogram({
      name: `${METRIC_PREFIX}sync_run_duration_seconds`,
      help: 'Duration of a run of a source, issue push included',
      labelNames: ['source'],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600],
      registers,
    });
    this.running = new Gauge({ name: `${METRIC_PREFIX}sync_running`, help: '1 while a run of the source is in progress', labelNames: ['source'], registers });
    // Every source appears from the first scrape, so a rate() or an absence alert has a series to read.
    for (const source of SOURCES) {
      this.findings.inc({ source }, 0);
      for (const change of FINDING_CHANGES) this.changes.inc({ source, change }, 0);
      this.running.set({ source }, 0);
    }
    this.issues.inc(0);
    this.issuesClosed.inc(0);
    this.issuesReopened.inc(0);
    this.errors.inc(0);
  }

  /**
   * The enabled sources, at the service's start: each one's last-success series starts at the
   * start time, so a staleness alert (`time() - gatehouse_last_success_timestamp > …`) has a
   * series from the first scrape and fires when no run has succeeded that long after a restart.
   */
  sourcesEnabled(sources: readonly SourceName[], startedAt: Date): void {
    for (const source of sources) this.lastSuccess.set({ source }, startedAt.getTime() / 1000);
  }

  runStarted(source: SourceName): void {
    this.running.set({ source }, 1);
  }

  runFinished(source: SourceName, outcome: 'success' | 'failure', seconds: number, endedAt: Date): void {
    this.running.set({ source }, 0);
    this.runs.inc({ source, outcome });
    this.duration.observe({ source }, seconds);
    if (outcome === 'success') this.lastSuccess.set({ source }, endedAt.getTime() / 1000);
  }

  findingsSent(source: SourceName, count: number): void {
    if (count > 0) this.findings.inc({ source }, count);
  }

  /** A run's totals of DefectDojo's own counts. */
  findingsChanged(source: SourceName, totals: Readonly<Record<(typeof FINDING_CHANGES)[number], number>>): void {
    for (const change of FINDING_CHANGES) if (totals[change] > 0) this.changes.inc({ source, change }, totals[change]);
  }

  issuesOpened(count: number): void {
    if (count > 0) this.issues.inc(count);
  }

  /** Issue lifecycle after a run: issues closed and reopened. */
  issuesChanged(closed: number, reopened: number): void {
    if (closed > 0) this.issuesClosed.inc(closed);
    if (reopened > 0) this.issuesReopened.inc(reopened);
  }

  errorsSeen(count: number): void {
    if (count > 0) this.errors.inc(count);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
