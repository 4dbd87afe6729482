import assert from 'node:assert/strict';
import { DIGEST_PREFIX, type ReportTarget } from '../../server/sync/defectdojo/digests.js';
import { SCAN_TYPES } from '../../server/sync/defectdojo/scan-types.js';
import { prepareExport } from '../../server/sync/dependency-track/sync.js';
import { rateLimitedClient } from '../../server/github/rate-limited-client.js';
import { ConditionalAnswers } from '../../server/github/conditional.js';
import { githubConnector } from '../../server/sync/github/connector.js';
import { SYNC_RETRY as DEFAULT_RETRY } from '../../server/http/retry.js';
import { loadSyncConfig } from '../../server/sync/config.js';
import { DEFAULT_OPTIONS } from '../../server/sync/options.js';
import { runConnector } from '../../server/sync/run.js';
import type { Progress } from '../../server/sync/report.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { readFixture } from '../support/fixtures.js';
import { codeScanningAlert, dependabotAlert, secretScanningAlert } from '../support/github-alert-objects.js';
import { FAST_RETRY, fpfProject, runSync, startSyncFakes } from './support.js';

// Nothing changed, nothing sent: report digests kept on DefectDojo's tests, conditional GitHub requests.

const TARGET: ReportTarget = { scanType: SCAN_TYPES.dependencyTrack, productName: 'acme/api', engagementName: 'Dependency-Track', testTitle: '1.0', doNotReactivate: false };

function fpfDigest(text: string, target = TARGET): string {
  return prepareExport({ name: 'acme/api' }, Buffer.from(text), target).digest;
}

const SILENT: Progress = { started() {}, item() {}, retry() {}, warn() {} };

describe('nothing changed, nothing sent', () => {
  it('an FPF digest leaves the export time out, and nothing else', () => {
    const doc = (time: string, vuln = 'CVE-2026-0001') => `{"version":"1.2","meta":{"application":"Dependency-Track","timestamp" : "${time}"},"findings":[{"component":{"name":"a","version":"1"},"vulnerability":{"vulnId":"${vuln}","source":"NVD","description":"a \\"timestamp\\": \\"x\\" in text ü"},"matrix":"p:c:v"}]}`;
    const a = doc('2026-11-20T10:00:00Z');
    const whole = fpfDigest(a);
    assert.match(whole, new RegExp(`^${DIGEST_PREFIX}[0-9a-f]{64}$`));
    assert.equal(fpfDigest(doc('2026-11-21T11:30:05Z')), whole, 'another export time, the same digest');
    assert.equal(fpfDigest(JSON.stringify(JSON.parse(a), null, 2)), whole, 'the same export laid out otherwise, the same digest');
    assert.notEqual(fpfDigest(doc('2026-11-20T10:00:00Z', 'CVE-2026-0002')), whole, 'another finding, another digest');
    assert.notEqual(fpfDigest(a, { ...TARGET, testTitle: '1.1' }), whole, 'another test, another digest');
    assert.notEqual(fpfDigest(a, { ...TARGET, doNotReactivate: true }), whole, 'sent another way, another digest');
    assert.notEqual(fpfDigest(a, { ...TARGET, scan: { version: '1.0', sourceCodeManagementUri: 'https://git.example.com/a' } }), whole, 'other scan facts, another digest');
  });

  it('Dependency-Track: a second run over unchanged projects sends nothing; a changed project, or a test imported by someone else, is sent', async () => {
    const fakes = await startSyncFakes(3, 4);
    try {
      const { dt, dd, env } = fakes;
      const first = await runSync(['sync', '--json'], env);
      assert.equal(first.code, 0, first.all);
      assert.equal(dd.uploads.length, 3);
      for (const upload of dd.uploads) assert.equal(dd.testOf(upload.fields.product_name!, upload.fields.scan_type!)!.buildId, upload.fields.build_id, 'the digest is on the test');
      // Exports a second later: other timestamps, the same findings.
      await new Promise((r) => setTimeout(r, 1100));
      const second = await runSync(['sync', '--json'], env);
      assert.equal(second.code, 0, second.all);
      assert.equal(dd.uploads.length, 3, 'nothing sent');
      assert.deepEqual([second.report!.totals.synced, second.report!.totals.unchanged, second.report!.totals.findings], [3, 3, 0]);
      assert.ok(second.err.some((l) => /acme\/service-000 1\.0\.0: unchanged since the last import; not sent/.test(l)));
      const testCalls = dd.calls.filter((c) => c.route === 'tests');
      assert.ok(testCalls.every((c) => new URL(c.url, dd.url).searchParams.get('scan_type') === SCAN_TYPES.dependencyTrack));
      // One project gains a finding; another's test was reimported by someone else (its build_id is theirs).
      dt.projects[1] = fpfProject(1, 5);
      dd.testOf('acme/service-002', SCAN_TYPES.dependencyTrack)!.buildId = 'ci-build-77';
      const third = await runSync(['sync', '--json'], env);
      assert.deepEqual(dd.uploads.slice(3).map((u) => u.fields.product_name).sort(), ['acme/service-001', 'acme/service-002']);
      assert.equal(third.report!.items.find((i) => i.product === 'acme/service-001')!.counts!.created, 1);
    } finally {
      await fakes.close();
    }
  });

  it('when the tests cannot be listed, it says so once and sends every report', async () => {
    const fakes = await startSyncFakes(2, 1);
    try {
      assert.equal((await runSync(['sync'], fakes.env)).code, 0);
      fakes.dd.faults.inject('tests', { status: 500, body: { message: 'Internal server error, check logs for details' } });
      const run = await runSync(['sync', '--retries', '0'], fakes.env);
      assert.equal(run.code, 0, run.all);
      assert.equal(fakes.dd.uploads.length, 4);
      assert.equal(run.err.filter((l) => /tests of "Dependency Track Finding Packaging Format \(FPF\) Export" could not be listed/.test(l)).length, 1);
    } finally {
      await fakes.close();
    }
  });

  describe('GitHub conditional requests', () => {
    let gh: FakeGitHubAlerts;
    let dd: FakeDefectDojo;
    beforeEach(async () => {
      gh = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
      dd = await FakeDefectDojo.start();
    });
    afterEach(async () => {
      await gh.close();
      await dd.close();
    });

    it('a GET made again with the kept ETag is answered 304, served from what was kept, pages included, and costs no rate limit', async () => {
      const alerts = Array.from({ length: 150 }, (_, i) => ({ number: i + 1, state: 'open' }));
      gh.addRepo({ owner: 'acme', name: 'api', codeScanning: alerts });
      const conditional = new ConditionalAnswers();
      const target = { server: gh.server, apiBase: `${gh.server}/api/v3`, kind: 'enterprise' as const, owners: ['acme'], token: gh.token };
      const client = rateLimitedClient(target, { timeoutMs: 5000, retry: { ...DEFAULT_RETRY, ...FAST_RETRY }, conditional });
      const list = () => client.paginate('GET /repos/{owner}/{repo}/code-scanning/alerts', { owner: 'acme', repo: 'api', state: 'open', per_page: 100 });
      assert.equal((await list()).length, 150);
      const remaining = gh.rateLimit.remaining;
      const again = await list();
      assert.deepEqual(again, await list());
      assert.equal(again.length, 150);
      assert.equal(gh.rateLimit.remaining, remaining, 'two 304 pages, twice: nothing counted');
      const calls = gh.calls.filter((c) => c.route === 'code_scanning');
      assert.deepEqual(calls.map((c) => c.notModified === true), [false, false, true, true, true, true]);
      assert.equal(conditional.notModified, 4);
      // A change on the second page: that page is answered in full again, and counted; the first is still 304.
      alerts.push({ number: 151, state: 'open' });
      assert.equal((await list()).length, 151);
      assert.equal(gh.rateLimit.remaining, remaining - 1);
      // Another token never gets this token's answers.
      assert.notEqual(ConditionalAnswers.key('other', 'u'), ConditionalAnswers.key(gh.token, 'u'));
    });

    it('sync-github twice in one process: the second run asks GitHub conditionally, spends no primary rate limit and sends nothing', async () => {
      const [dependabot] = readFixture<Record<string, any>[]>('sync', 'github__dependabot_alerts_rest_example.json');
      gh.orgs.add('acme');
      for (const name of ['api', 'web', 'cli']) {
        const place = { owner: 'acme', repo: name };
        gh.addRepo({
          owner: 'acme',
          name,
          codeScanning: [codeScanningAlert(place, { number: 1, rule: 'py/clear-text-storage-sensitive-data', path: 'src/file.py', line: 42 })],
          dependabot: [dependabotAlert(place, dependabot!, { number: 1 })],
          secretScanning: [secretScanningAlert(place, { number: 1 })],
        });
      }
      const loaded = loadSyncConfig({ env: { SYNC_DEFECTDOJO_URL: dd.url, DEFECTDOJO_TOKEN: dd.token, GITHUB_TARGETS: JSON.stringify([{ server: gh.server, owners: ['acme'], token: gh.token }]) } });
      const conditional = new ConditionalAnswers();
      const run = () => runConnector(githubConnector, loaded, DEFAULT_OPTIONS, SILENT, FAST_RETRY, { conditional });
      const first = await run();
      assert.equal(first.ok, true, JSON.stringify(first));
      const counted = gh.countedCalls();
      const uploads = dd.uploads.length;
      assert.equal(uploads, 9, 'three kinds of three repositories');
      const second = await run();
      assert.equal(second.ok, true);
      assert.equal(dd.uploads.length, uploads, 'nothing sent');
      assert.equal(second.totals.unchanged, 9);
      // DefectDojo title-cases the advisory summary it stores: that is not a change on GitHub.
      assert.notEqual(dd.findings().find((f) => f.test.scanType === 'Github Vulnerability Scan')!.finding.title, dependabot!.security_advisory.summary);
      assert.deepEqual(second.items.flatMap((i) => i.notes ?? []), [], 'no "changed on GitHub" note');
      assert.equal(gh.countedCalls() - counted, 0, 'every GitHub answer was 304');
      assert.equal(gh.calls.slice(-10).filter((c) => c.notModified).length, 10, 'the repository list and every alert list');
      // Without the kept answers (a new process), the same run spends its requests again, and still sends nothing.
      const fresh = await runConnector(githubConnector, loaded, DEFAULT_OPTIONS, SILENT, FAST_RETRY);
      assert.equal(gh.countedCalls() - counted, counted);
      assert.equal(fresh.totals.unchanged, 9);
    });
  });
});

