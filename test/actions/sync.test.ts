import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSyncAction } from '../../actions/sync/run.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeDependencyTrack } from '../support/fake-dependency-track.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { REPO_ROOT } from '../support/processes.js';
import { RecordingCore, runAction } from '../support/runner.js';
import { configFile, FAST_RETRY, fpfProject } from '../sync/support.js';

describe('sync action', () => {
  let dt: FakeDependencyTrack;
  let dd: FakeDefectDojo;
  let temp: string;

  beforeEach(async () => {
    dt = await FakeDependencyTrack.start();
    dd = await FakeDefectDojo.start();
    temp = mkdtempSync(join(tmpdir(), 'gatehouse-sync-action-'));
    dt.projects.push(fpfProject(1, 3), fpfProject(2, 2));
  });
  afterEach(async () => {
    await dt.close();
    await dd.close();
    rmSync(temp, { recursive: true, force: true });
  });

  it('runs sync, masks every secret input, writes the per-project table and the report', async () => {
    const file = configFile(`sources:\n  dependencytrack: { url: "${dt.url}" }\ndefectdojo: { url: "${dd.url}", productType: Platform }\n`);
    const core = new RecordingCore({ command: 'sync', config: file, 'defectdojo-token': dd.token, 'dependency-track-api-key': dt.apiKey });
    await runSyncAction({ core, env: { RUNNER_TEMP: temp }, retry: FAST_RETRY });
    assert.deepEqual(core.of('failed'), []);
    assert.deepEqual(core.secrets.sort(), [dd.token, dt.apiKey].sort());
    assert.deepEqual({ synced: core.outputs['synced-count'], failed: core.outputs['failed-count'], skipped: core.outputs['skipped-count'] }, { synced: '2', failed: '0', skipped: '0' });
    const summary = core.summaries.join('\n');
    assert.match(summary, /\| Product \| Test \| Status \| Findings \| Created \| Closed \| Reactivated \| Untouched \| Note \|/);
    assert.match(summary, /\| acme\/service-001 \| 1\.0\.0 \| synced \| 3 \| 3 \| 0 \| 0 \| 0 \|  \|/);
    assert.ok(core.of('info').some((l) => /project 2 of 2/.test(l)));
    const report = JSON.parse(readFileSync(core.outputs.report!, 'utf8')) as { totals: { findings: number } };
    assert.equal(report.totals.findings, 5);
  });

  it('masks every token inside the targets JSON and fails the step when an item failed', async () => {
    const github = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    try {
      github.orgs.add('acme');
      github.addRepo({ owner: 'acme', name: 'api', codeScanning: [{ number: 1, state: 'open', rule: { id: 'r', description: 'd', severity: 'error', security_severity_level: 'high' } }] });
      dd.faults.inject('reimport', { status: 400, body: { product_type_name: ['This field may not be blank.'] } });
      const targets = JSON.stringify([{ server: github.server, owners: ['acme'], token: github.token }]);
      const core = new RecordingCore({ command: 'sync-github', 'defectdojo-token': dd.token, 'github-targets': targets });
      await runSyncAction({ core, env: { RUNNER_TEMP: temp, SYNC_DEFECTDOJO_URL: dd.url }, retry: FAST_RETRY });
      assert.ok(core.secrets.includes(github.token) && core.secrets.includes(targets));
      assert.deepEqual(core.of('failed'), ['1 of 3 failed; see the job summary']);
      assert.match(core.summaries.join(''), /\| acme\/api \| Code scanning \| failed \|.*answered 400/);
    } finally {
      await github.close();
    }
  });

  it('a bad input or configuration fails the step with the key named and nothing called', async () => {
    const core = new RecordingCore({ command: 'sync-everything', 'defectdojo-token': dd.token });
    await runSyncAction({ core, env: {} });
    assert.deepEqual(core.of('failed'), ['input "command" must be one of sync, sync-github, sync-sonarqube']);
    const missing = new RecordingCore({ command: 'sync', 'defectdojo-token': dd.token });
    await runSyncAction({ core: missing, env: { SYNC_DEFECTDOJO_URL: dd.url } });
    assert.match(missing.of('failed')[0]!, /sources\.dependencytrack\.url is required[\s\S]*DEPENDENCY_TRACK_API_KEY is required/);
    const range = new RecordingCore({ command: 'sync', 'defectdojo-token': dd.token, concurrency: '0' });
    await runSyncAction({ core: range, env: { SYNC_DEFECTDOJO_URL: dd.url, SYNC_DEPENDENCYTRACK_URL: dt.url, DEPENDENCY_TRACK_API_KEY: dt.apiKey } });
    assert.deepEqual(range.of('failed'), ['--concurrency must be a whole number from 1 to 32'], 'the CLI\'s own limits');
    assert.equal(dt.calls.length + dd.calls.length, 0);
  });

  it('the bundle runs as the runner runs it and leaves no secret in its output', async () => {
    const run = await runAction(join(REPO_ROOT, 'dist', 'sync', 'index.js'), {
      command: 'sync',
      'defectdojo-token': dd.token,
      'dependency-track-api-key': dt.apiKey,
    }, { SYNC_DEPENDENCYTRACK_URL: dt.url, SYNC_DEFECTDOJO_URL: dd.url, RUNNER_TEMP: temp });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.outputs['synced-count'], '2');
    assert.match(run.stdout, /::add-mask::/);
    const unmasked = run.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n') + run.stderr + run.summary;
    assert.ok(!unmasked.includes(dd.token) && !unmasked.includes(dt.apiKey));
    assert.match(run.summary, /acme\/service-002/);
  });
});
