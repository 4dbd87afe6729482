import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import type { SourceName } from '../config.js';
import type { Connector } from '../connector.js';
import { message } from '../../errors.js';
import { summaryEntries, type SourceReport } from '../report.js';
import type { SourceLocks } from './locks.js';
import type { SyncMetrics } from './metrics.js';
import type { Timers } from '../../clock.js';

/** What issue push did after a run; see `issues/push.ts`. */
export interface IssuePushOutcome {
  readonly opened: number;
  readonly failed: number;
  /** Issues closed and reopened by issue lifecycle (absent: none). */
  readonly closed?: number;
  readonly reopened?: number;
}

export type RunReason = 'schedule' | 'trigger' | 'once' | 'webhook';

/**
 * What a run covers: every item of the source (absent), or only these (Dependency-Track project
 * UUIDs, GitHub `owner/name` repositories).
 */
export interface RunScope {
  readonly items: readonly string[];
}

export interface RunResult {
  readonly runId: string;
  readonly source: SourceName;
  readonly ok: boolean;
  readonly report?: SourceReport;
  readonly issues?: IssuePushOutcome;
  /** Why the run failed before or outside its report. */
  readonly error?: string;
}

export type StartAnswer =
  | { readonly outcome: 'started'; readonly runId: string; readonly finished: Promise<RunResult> }
  | { readonly outcome: 'busy' | 'unknown_source' | 'stopping' };

export interface SyncServiceDeps {
  /** The enabled sources. */
  readonly connectors: readonly Connector[];
  /** Runs one connector once (configuration, clients and progress already bound), over the scope when one is given. */
  readonly runSource: (connector: Connector, log: Logger, scope?: RunScope) => Promise<SourceReport>;
  /** Opens issues for what the run brought in; absent when issue push is off. */
  readonly issuePush?: (report: SourceReport, log: Logger) => Promise<IssuePushOutcome>;
  readonly locks: SourceLocks;
  readonly metrics: SyncMetrics;
  readonly logger: Logger;
  readonly timers: Pick<Timers, 'now'>;
  /** Told when a run shows DefectDojo answering (a reimport went through). */
  readonly onDefectDojoAnswer?: () => void;
  readonly newRunId?: () => string;
}

/**
 * Runs sources: at most one run per source at a time (the lock), runs of different sources side
 * by side. Every run ends in the metrics and one summary log line, whatever happened in it.
 */
export class SyncService {
  private readonly running = new Map<SourceName, Promise<RunResult>>();
  /** Sources between the in-process check and the lock, so two triggers in one tick cannot both pass. */
  private readonly claiming = new Set<SourceName>();
  /** Items asked for (webhooks) while their source was busy: run together once it is free. */
  private readonly queued = new Map<SourceName, Set<string>>();
  private stopping = false;

  constructor(private readonly deps: SyncServiceDeps) {}

  get sources(): readonly SourceName[] {
    return this.deps.connectors.map((c) => c.source);
  }

  /** How a run of an enabled source is narrowed to one item (`Connector.scope`); undefined when it cannot be, or the source is not enabled. */
  scopeOf(source: string): Connector['scope'] {
    return this.deps.connectors.find((c) => c.source === source)?.scope;
  }

  /**
   * Runs `items` of `source` as soon as no other run of it holds its lock: now when it is free,
   * else after the run in progress (items asked for meanwhile are run together). Answers whether
   * they started now or wait.
   */
  async enqueue(source: SourceName, items: readonly string[]): Promise<'started' | 'queued' | 'unknown_source' | 'stopping'> {
    if (!this.deps.connectors.some((c) => c.source === source)) return 'unknown_source';
    if (this.stopping) return 'stopping';
    this.queued.set(source, new Set([...(this.queued.get(source) ?? []), ...items]));
    return (await this.drain(source)) ? 'started' : 'queued';
  }

  /** Starts the queued items of a source when it is free; true when a run started. */
  private async drain(source: SourceName): Promise<boolean> {
    const pending = this.queued.get(source);
    if (!pending || pending.size === 0 || this.stopping || this.running.has(source) || this.claiming.has(source)) return false;
    const items = [...pending];
    this.queued.delete(source);
    const answer = await this.start(source, 'webhook', { items });
    if (answer.outcome === 'started') return true;
    // Held (by another process's lock): put back, tried again when a run of the source ends here.
    this.queued.set(source, new Set([...(this.queued.get(source) ?? []), ...items]));
    return false;
  }

  /** Items waiting for their source to be free. */
  queuedItems(source: SourceName): readonly string[] {
    return [...(this.queued.get(source) ?? [])];
  }

  /** Starts a run of `source` unless one is in progress; answers without waiting for the run. */
  async start(source: string, reason: RunReason, scope?: RunScope): Promise<StartAnswer> {
    const connector = this.deps.connectors.find((c) => c.source === source);
    if (!connector) return { outcome: 'unknown_source' };
    if (this.stopping) return { outcome: 'stopping' };
    if (this.running.has(connector.source) || this.claiming.has(connector.source)) return { outcome: 'busy' };
    this.claiming.add(connector.source);
    const runId = (this.deps.newRunId ?? randomUUID)();
    try {
      const lease = await this.deps.locks.acquire(connector.source, runId);
      if (!lease) return { outcome: 'busy' };
      const finished = this.execute(connector, runId, reason, scope).finally(async () => {
        this.running.delete(connector.source);
        await lease.release().catch((err: unknown) => this.deps.logger.warn({ err, source: connector.source }, 'lock release failed; it expires on its own'));
        // Items a webhook asked for during this run.
        void this.drain(connector.source).catch((err: unknown) => this.deps.logger.error({ source: connector.source, err: message(err) }, 'queued items could not start'));
      });
      this.running.set(connector.source, finished);
      return { outcome: 'started', runId, finished };
    } finally {
      this.claiming.delete(connector.source);
    }
  }

  /** Runs in progress. */
  get inProgress(): number {
    return this.running.size;
  }

  /**
   * Refuses new runs and waits for the running ones, at most `graceMs`. True when all finished;
   * false when some were still running at the bound (the caller stops anyway).
   */
  async stop(graceMs: number): Promise<boolean> {
    this.stopping = true;
    const all = Promise.allSettled([...this.running.values()]).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    });
    try {
      return await Promise.race([all, bound]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async execute(connector: Connector, runId: string, reason: RunReason, scope?: RunScope): Promise<RunResult> {
    const { metrics, timers } = this.deps;
    const log = this.deps.logger.child({ run_id: runId, source: connector.source });
    const startedAt = timers.now();
    metrics.runStarted(connector.source);
    log.info({ reason, ...(scope ? { items: scope.items } : {}) }, 'run started');
    let result: RunResult;
    try {
      const report = await this.deps.runSource(connector, log, scope);
      metrics.findingsSent(connector.source, report.totals.findings);
      metrics.findingsChanged(connector.source, report.totals);
      metrics.errorsSeen(report.totals.failed + (report.error ? 1 : 0));
      if (report.totals.synced > 0) this.deps.onDefectDojoAnswer?.();
      for (const { level, text } of summaryEntries(report)) log[level]({ totals: report.totals }, text);
      let issues: IssuePushOutcome | undefined;
      if (this.deps.issuePush) {
        try {
          issues = await this.deps.issuePush(report, log);
        } catch (err) {
          issues = { opened: 0, failed: 1 };
          log.error({ err: message(err) }, 'issue push stopped');
        }
        metrics.issuesOpened(issues.opened);
        metrics.issuesChanged(issues.closed ?? 0, issues.reopened ?? 0);
        metrics.errorsSeen(issues.failed);
      }
      result = { runId, source: connector.source, ok: report.ok && (issues?.failed ?? 0) === 0, report, ...(issues ? { issues } : {}) };
    } catch (err) {
      // A connector reports its failures; reaching here is a bug or a configuration the checks missed.
      metrics.errorsSeen(1);
      log.error({ err: message(err) }, 'run failed');
      result = { runId, source: connector.source, ok: false, error: message(err) };
    }
    const endedAt = timers.now();
    metrics.runFinished(connector.source, result.ok ? 'success' : 'failure', (endedAt - startedAt) / 1000, new Date(endedAt));
    // A run that did not fully succeed says so at warn: what failed was logged above, at warn or error.
    log[result.ok ? 'info' : 'warn']({ ok: result.ok, duration_ms: endedAt - startedAt, issues: result.issues }, result.ok ? 'run finished' : 'run finished with failures');
    return result;
  }
}
