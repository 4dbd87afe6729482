import assert from 'node:assert/strict';
import { createLogger } from '../../server/logger.js';
import type { Connector } from '../../server/sync/connector.js';
import { finishReport, type ItemResult, type SourceReport } from '../../server/sync/report.js';
import { memoryLocks } from '../../server/sync/service/locks.js';
import { SyncMetrics } from '../../server/sync/service/metrics.js';
import { Readiness } from '../../server/sync/service/readiness.js';
import { parseSchedule } from '../../server/sync/service/schedule.js';
import { Scheduler } from '../../server/sync/service/scheduler.js';
import { SyncService, type IssuePushOutcome } from '../../server/sync/service/service.js';
import { FakeTimers } from '../support/fake-timers.js';
import { sample } from './support.js';

const silent = createLogger({ level: 'silent' });

function connector(source: 'dependencytrack' | 'github' | 'sonarqube'): Connector {
  return { source, command: `sync-${source}`, noun: 'project', description: '', missing: () => [], run: () => Promise.reject(new Error('not used')) };
}

function item(status: ItemResult['status'], findings = 0): ItemResult {
  return { label: 'p', product: 'acme/api', engagement: 'E', test: 'T', scan_type: 'S', status, findings, attempts: 1 };
}

function report(source: Connector['source'], items: ItemResult[], error?: string): SourceReport {
  return finishReport({ command: `sync-${source}`, source, startedAt: new Date(), ...(error ? { error } : {}) }, items);
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}


describe('sync service: scheduler (fake clock)', () => {
  it('fires a cron schedule at each matching minute, in UTC', () => {
    const timers = new FakeTimers(new Date('2026-03-01T10:15:00Z'));
    const scheduler = new Scheduler(timers);
    const fired: string[] = [];
    scheduler.add('github', parseSchedule('30 * * * *'), () => fired.push(new Date(timers.now()).toISOString()));
    assert.equal(scheduler.nextRuns().github?.toISOString(), '2026-03-01T10:30:00.000Z');
    timers.advance(3 * 3_600_000);
    assert.deepEqual(fired, ['2026-03-01T10:30:00.000Z', '2026-03-01T11:30:00.000Z', '2026-03-01T12:30:00.000Z']);
  });

  it('fires an interval in seconds from the start, and the sources are independent', () => {
    const timers = new FakeTimers(new Date('2026-03-01T10:15:00Z'));
    const scheduler = new Scheduler(timers);
    const fired: string[] = [];
    scheduler.add('dependencytrack', parseSchedule('0 * * * *'), () => fired.push(`dt ${new Date(timers.now()).toISOString().slice(11, 16)}`));
    scheduler.add('sonarqube', parseSchedule(5400), () => fired.push(`sq ${new Date(timers.now()).toISOString().slice(11, 16)}`));
    timers.advance(3 * 3_600_000);
    assert.deepEqual(fired, ['dt 11:00', 'sq 11:45', 'dt 12:00', 'dt 13:00', 'sq 13:15']);
  });

  it('does not catch up missed runs after a freeze, and stop() disarms every timer', () => {
    const timers = new FakeTimers(new Date('2026-03-01T10:15:00Z'));
    const scheduler = new Scheduler(timers);
    let count = 0;
    scheduler.add('github', parseSchedule('30 * * * *'), () => count++);
    timers.jump(5 * 3_600_000);
    timers.advance(0);
    assert.equal(count, 1, 'five missed runs become one');
    assert.equal(scheduler.nextRuns().github?.toISOString(), '2026-03-01T15:30:00.000Z');
    scheduler.stop();
    assert.equal(timers.armed, 0);
    timers.advance(10 * 3_600_000);
    assert.equal(count, 1);
  });

  it('reaches a run further away than a timer can wait in steps', () => {
    const timers = new FakeTimers(new Date('2026-03-01T00:00:00Z'));
    const scheduler = new Scheduler(timers);
    const fired: string[] = [];
    scheduler.add('github', parseSchedule('0 0 1 6 *'), () => fired.push(new Date(timers.now()).toISOString()));
    timers.advance(100 * 86_400_000);
    assert.deepEqual(fired, ['2026-06-01T00:00:00.000Z']);
  });

  it('refuses bad schedules with a reason', () => {
    assert.throws(() => parseSchedule('61 * * * *'), /not a valid cron expression \(Invalid value for minute: 61\)/);
    assert.throws(() => parseSchedule('30'), /whole seconds from 60 to 604800/);
    assert.throws(() => parseSchedule('hourly'), /cron expression \(5 or 6 fields\)/);
  });
});

describe('sync service: runs, the lock per source, metrics', () => {
  let timers: FakeTimers;
  let metrics: SyncMetrics;
  let gates: Map<string, ReturnType<typeof deferred<SourceReport>>>;
  let pushed: IssuePushOutcome | undefined;
  let service: SyncService;
  let runs: number;

  beforeEach(() => {
    timers = new FakeTimers(new Date('2026-03-01T10:00:00Z'));
    metrics = new SyncMetrics({ defaultMetrics: false });
    gates = new Map();
    pushed = undefined;
    runs = 0;
    service = new SyncService({
      connectors: [connector('dependencytrack'), connector('github')],
      runSource: (c) => {
        runs++;
        const gate = deferred<SourceReport>();
        gates.set(c.source, gate);
        return gate.promise;
      },
      issuePush: async () => pushed ?? { opened: 0, failed: 0 },
      locks: memoryLocks(),
      metrics,
      logger: silent,
      timers,
    });
  });

  it('twenty concurrent triggers of one source start exactly one run; another source runs beside it', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => service.start('dependencytrack', 'trigger')));
    assert.equal(answers.filter((a) => a.outcome === 'started').length, 1);
    assert.equal(answers.filter((a) => a.outcome === 'busy').length, 19);
    assert.equal((await service.start('dependencytrack', 'schedule')).outcome, 'busy', 'a scheduled run waits for the triggered one');
    assert.equal((await service.start('github', 'trigger')).outcome, 'started');
    assert.equal(service.inProgress, 2);
    await new Promise((r) => setImmediate(r));
    assert.equal(runs, 2);
    gates.get('dependencytrack')!.resolve(report('dependencytrack', [item('synced', 3)]));
    const started = answers.find((a) => a.outcome === 'started')!;
    assert.equal(started.outcome === 'started' && (await started.finished).ok, true);
    assert.equal((await service.start('dependencytrack', 'trigger')).outcome, 'started', 'the lock is released when the run ends');
    assert.equal((await service.start('nosuch', 'trigger')).outcome, 'unknown_source');
  });

  it('every metric moves as runs, failures and issue push happen', async () => {
    const before = await metrics.text();
    assert.equal(sample(before, 'gatehouse_sync_findings_total{source="dependencytrack"}'), 0);
    assert.equal(sample(before, 'gatehouse_issues_total'), 0);
    assert.equal(sample(before, 'gatehouse_issues_closed_total'), 0);
    assert.equal(sample(before, 'gatehouse_issues_reopened_total'), 0);
    assert.equal(sample(before, 'gatehouse_errors_total'), 0);
    assert.equal(sample(before, 'gatehouse_last_success_timestamp{source="dependencytrack"}'), undefined);

    pushed = { opened: 2, failed: 0, closed: 3, reopened: 1 };
    const ok = await service.start('dependencytrack', 'trigger');
    await new Promise((r) => setImmediate(r));
    timers.jump(90_000);
    gates.get('dependencytrack')!.resolve(report('dependencytrack', [item('synced', 5), item('skipped')]));
    assert.equal(ok.outcome === 'started' && (await ok.finished).ok, true);
    let text = await metrics.text();
    assert.equal(sample(text, 'gatehouse_sync_findings_total{source="dependencytrack"}'), 5);
    assert.equal(sample(text, 'gatehouse_issues_total'), 2);
    assert.equal(sample(text, 'gatehouse_issues_closed_total'), 3);
    assert.equal(sample(text, 'gatehouse_issues_reopened_total'), 1);
    assert.equal(sample(text, 'gatehouse_errors_total'), 0);
    assert.equal(sample(text, 'gatehouse_last_success_timestamp{source="dependencytrack"}'), Date.parse('2026-03-01T10:01:30Z') / 1000);
    assert.equal(sample(text, 'gatehouse_sync_runs_total{source="dependencytrack",outcome="success"}'), 1);
    assert.equal(sample(text, 'gatehouse_sync_run_duration_seconds_sum{source="dependencytrack"}'), 90);

    pushed = { opened: 1, failed: 2 };
    const bad = await service.start('dependencytrack', 'schedule');
    await new Promise((r) => setImmediate(r));
    timers.jump(60_000);
    gates.get('dependencytrack')!.resolve(report('dependencytrack', [item('synced', 4), item('failed'), item('failed')]));
    assert.equal(bad.outcome === 'started' && (await bad.finished).ok, false);
    text = await metrics.text();
    assert.equal(sample(text, 'gatehouse_sync_findings_total{source="dependencytrack"}'), 9);
    assert.equal(sample(text, 'gatehouse_issues_total'), 3);
    assert.equal(sample(text, 'gatehouse_errors_total'), 4, 'two failed projects and two findings issue push could not handle');
    assert.equal(sample(text, 'gatehouse_last_success_timestamp{source="dependencytrack"}'), Date.parse('2026-03-01T10:01:30Z') / 1000, 'a failed run does not move it');
    assert.equal(sample(text, 'gatehouse_sync_runs_total{source="dependencytrack",outcome="failure"}'), 1);

    pushed = undefined;
    const broken = await service.start('github', 'trigger');
    await new Promise((r) => setImmediate(r));
    gates.get('github')!.resolve(report('github', [], 'could not list projects: GitHub answered 500'));
    assert.equal(broken.outcome === 'started' && (await broken.finished).ok, false);
    assert.equal(sample(await metrics.text(), 'gatehouse_errors_total'), 5);
  });

  it('stop() refuses new runs and waits for running ones up to its bound', async () => {
    const running = await service.start('dependencytrack', 'trigger');
    await new Promise((r) => setImmediate(r));
    assert.equal(await service.stop(30), false, 'still running at the bound');
    assert.equal((await service.start('github', 'trigger')).outcome, 'stopping');
    gates.get('dependencytrack')!.resolve(report('dependencytrack', [item('synced', 1)]));
    assert.equal(running.outcome === 'started' && (await running.finished).ok, true);
    assert.equal(await service.stop(30), true);
  });
});

describe('sync service: readiness', () => {
  it('is not ready with an invalid configuration, and says what is wrong', async () => {
    const readiness = new Readiness({ configProblems: ['defectdojo.url is required'], timers: new FakeTimers(new Date()) });
    assert.deepEqual(await readiness.check(), { ready: false, reason: 'configuration_invalid', problems: ['defectdojo.url is required'] });
  });

  it('asks DefectDojo only when no answer is recent, one probe for concurrent checks', async () => {
    const timers = new FakeTimers(new Date());
    let probes = 0;
    let up = true;
    const readiness = new Readiness({
      configProblems: [],
      timers,
      freshMs: 60_000,
      probe: async () => {
        probes++;
        if (!up) throw new Error('down');
      },
    });
    assert.deepEqual(await Promise.all([readiness.check(), readiness.check(), readiness.check()]), [{ ready: true }, { ready: true }, { ready: true }]);
    assert.equal(probes, 1);
    timers.advance(30_000);
    assert.deepEqual(await readiness.check(), { ready: true });
    assert.equal(probes, 1, 'the answer is recent');
    up = false;
    timers.advance(31_000);
    assert.deepEqual(await readiness.check(), { ready: false, reason: 'defectdojo_unreachable' });
    readiness.defectDojoAnswered();
    assert.deepEqual(await readiness.check(), { ready: true }, 'a run that reached DefectDojo counts');
    readiness.shuttingDown();
    assert.deepEqual(await readiness.check(), { ready: false, reason: 'shutting_down' });
  });
});
