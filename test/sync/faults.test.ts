import assert from 'node:assert/strict';
import type { FakeDefectDojo } from '../support/fake-defectdojo.js';
import type { FakeDependencyTrack } from '../support/fake-dependency-track.js';
import { runSync, startSyncFakes, type SyncFakes } from './support.js';

describe('gatehouse-sync sync under faults: every project ends synced or reported failed', () => {
  let fakes: SyncFakes;
  let dt: FakeDependencyTrack;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async () => {
    fakes = await startSyncFakes(6, 4);
    ({ dt, dd, env } = fakes);
  });
  afterEach(() => fakes.close());

  const accounted = (run: Awaited<ReturnType<typeof runSync>>) => {
    const items = run.report!.items;
    assert.equal(items.length, 6, 'no project silently skipped');
    assert.ok(items.every((i) => i.status === 'synced' || (i.status === 'failed' && i.reason)));
    return items;
  };

  it('retries 5xx answers of the export and the reimport, then syncs', async () => {
    dt.faults.inject('export', { status: 503, body: 'busy' }, 2);
    dd.faults.inject('reimport', { status: 502 }, 2);
    const run = await runSync(['sync', '--json', '--concurrency', '1'], env);
    assert.equal(run.code, 0, run.all);
    const items = accounted(run);
    assert.ok(items.every((i) => i.status === 'synced'));
    assert.equal(items.reduce((n, i) => n + i.attempts, 0), 6 + 4, 'four failed attempts retried');
    assert.equal(dd.products.size, 6);
    assert.ok(run.err.some((l) => /answered 503; retry 1 in/.test(l)), 'each retry is logged');
  });

  it('waits out a 429 for its Retry-After', async () => {
    dd.faults.inject('reimport', { status: 429, body: { detail: 'Request was throttled. Expected available in 1 second.' }, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const run = await runSync(['sync', '--json', '--concurrency', '1'], env);
    assert.equal(run.code, 0, run.all);
    assert.ok(Date.now() - started >= 1000, 'waited at least the Retry-After');
    assert.equal(accounted(run).filter((i) => i.attempts === 2).length, 1);
  });

  it('a connection reset mid-upload retries the export and the upload together', async () => {
    dd.faults.inject('reimport', 'reset', 2);
    const run = await runSync(['sync', '--json', '--concurrency', '2'], env);
    assert.equal(run.code, 0, run.all);
    accounted(run);
    assert.equal(dt.count('export'), 8, 'a spent export is fetched again for the retry');
    assert.equal(dd.tests.length, 6);
  });

  it('reports a hanging export as failed after its timeout and carries on', async () => {
    dt.faults.inject('export', 'hang');
    const run = await runSync(['sync', '--json', '--concurrency', '1', '--retries', '0', '--upload-timeout', '1'], env);
    assert.equal(run.code, 1);
    const items = accounted(run);
    const failed = items.filter((i) => i.status === 'failed');
    assert.equal(failed.length, 1);
    assert.match(failed[0]!.reason!, /Dependency-Track FPF export of acme\/service-\d+ failed: no complete answer within 1 s/);
    assert.match(run.out.join('\n'), /"failed":1/);
  });

  it('a final 4xx is not retried; the other projects still sync and the exit code says one failed', async () => {
    dd.faults.inject('reimport', { status: 400, body: { scan_type: ['"X" is not a valid choice.'] } });
    const run = await runSync(['sync', '--json', '--concurrency', '1'], env);
    assert.equal(run.code, 1);
    const items = accounted(run);
    const failed = items.find((i) => i.status === 'failed')!;
    assert.equal(failed.attempts, 1);
    assert.match(failed.reason!, /answered 400: scan_type: "X" is not a valid choice\.$/);
    assert.equal(items.filter((i) => i.status === 'synced').length, 5);
  });

  it('a malformed or failing project list fails the run with a clear reason and no reimport', async () => {
    dt.faults.inject('projects', 'malformed');
    const run = await runSync(['sync', '--json'], env);
    assert.equal(run.code, 1);
    assert.equal(run.report!.ok, false);
    assert.equal(run.report!.error, 'could not list projects: Dependency-Track project list (page 1): the answer is not valid JSON');
    assert.equal(dd.uploads.length, 0);

    dt.faults.inject('projects', { status: 500 }, 10);
    const down = await runSync(['sync', '--retries', '2'], env);
    assert.equal(down.code, 1);
    assert.match(down.all, /FAILED .*\n.*could not list projects: Dependency-Track project list \(page 1\) answered 500/);
    assert.equal(dt.count('projects'), 1 + 3);
  });

  it('a DefectDojo that crashes on a report (500) is retried, then reported with the project named', async () => {
    dd.faults.inject('reimport', { status: 500, body: { message: 'Internal server error, check logs for details' } }, 5);
    const run = await runSync(['sync', '--json', '--concurrency', '1', '--retries', '4'], env);
    assert.equal(run.code, 1);
    const failed = accounted(run).filter((i) => i.status === 'failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.attempts, 5);
    assert.match(failed[0]!.reason!, /^DefectDojo reimport-scan of acme\/service-000 answered 500: Internal server error/);
  });
});
