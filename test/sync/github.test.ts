import assert from 'node:assert/strict';
import { GITHUB_API_VERSION as API_VERSION } from '../../server/github/api.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { readFixture } from '../support/fixtures.js';
import { codeScanningAlert, dependabotAlert, secretScanningAlert } from '../support/github-alert-objects.js';
import { runSync } from './support.js';


type Alert = Record<string, unknown> & { number: number };

const API = { owner: 'acme', repo: 'api' };

function codeScanningAlerts(): Alert[] {
  return [
    codeScanningAlert(API, { number: 34, rule: 'py/path-injection', description: 'Uncontrolled data used in path expression', path: 'src/file2.py', line: 78 }),
    codeScanningAlert(API, { number: 35, rule: 'py/clear-text-storage-sensitive-data', description: 'Clear-text storage of sensitive information', path: 'src/file.py', line: 42 }),
    // A rule without a security severity (a quality rule): null in GitHub's answer.
    codeScanningAlert(API, { number: 36, rule: 'js/unused-local-variable', description: 'Unused variable', severity: 'warning', securitySeverity: null, path: 'src/file2.py', line: 78 }),
  ] as Alert[];
}

function dependabotAlerts(count: number): Alert[] {
  const [example] = readFixture<Record<string, any>[]>('sync', 'github__dependabot_alerts_rest_example.json');
  // One alert per advisory and manifest, as GitHub raises them.
  return Array.from({ length: count }, (_, i) => dependabotAlert(API, example!, { number: i + 1, manifestPath: i === 0 ? 'path/to/requirements.txt' : `services/svc-${i}/requirements.txt` }) as Alert);
}

function secretAlerts(): Alert[] {
  // Two open alerts of one secret type: DefectDojo's legacy matching would fold them together.
  return [1, 2].map((number) => secretScanningAlert(API, { number, validity: 'active' }) as Alert);
}

describe('gatehouse-sync sync-github (GitHub alerts -> DefectDojo)', () => {
  let github: FakeGitHubAlerts;
  let enterprise: FakeGitHubAlerts;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async () => {
    github = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    enterprise = await FakeGitHubAlerts.start({ prefix: '/api/v3', token: 'ghe_enterpriseToken0123456789abcdefXYZ' });
    dd = await FakeDefectDojo.start();
    env = {
      SYNC_DEFECTDOJO_URL: dd.url,
      DEFECTDOJO_TOKEN: dd.token,
      GITHUB_TARGETS: JSON.stringify([
        { server: github.server, owners: ['acme'], token: github.token },
        { server: enterprise.server, owners: ['corp'], token: enterprise.token },
      ]),
    };
  });
  afterEach(async () => {
    await github.close();
    await enterprise.close();
    await dd.close();
  });

  it('sends every kind of alert in a form DefectDojo parses, one product per repository, distinct alerts kept distinct', function () {
    return (async () => {
      github.orgs.add('acme');
      github.addRepo({ owner: 'acme', name: 'api', codeScanning: codeScanningAlerts(), dependabot: dependabotAlerts(150), secretScanning: secretAlerts() });
      enterprise.orgs.add('corp');
      enterprise.addRepo({ owner: 'corp', name: 'billing', dependabot: dependabotAlerts(2) });
      const run = await runSync(['sync-github', '--json'], env);
      assert.equal(run.code, 0, run.all);

      const sast = dd.testOf('acme/api', 'Github SAST Scan')!;
      assert.equal(sast.findings.size, 3, 'the null security_severity_level did not crash the parser');
      assert.equal(sast.findings.get('36')!.severity, 'medium', 'a warning-level quality rule is Medium');
      const vulns = dd.testOf('acme/api', 'Github Vulnerability Scan')!;
      assert.equal(vulns.findings.size, 150, 'every Dependabot alert is its own finding');
      const secrets = dd.testOf('acme/api', 'Github Secrets Detection Report Scan')!;
      assert.equal(secrets.findings.size, 2, 'two alerts of one secret type stay two findings');
      assert.equal(dd.testOf('corp/billing', 'Github Vulnerability Scan')!.findings.size, 2);
      assert.deepEqual([...dd.products.keys()].sort(), ['acme/api', 'corp/billing']);

      const upload = dd.uploads.find((u) => u.fields.scan_type === 'Github Vulnerability Scan' && u.fields.product_name === 'acme/api')!;
      assert.deepEqual(
        { engagement: upload.fields.engagement_name, test: upload.fields.test_title, close: upload.fields.close_old_findings },
        { engagement: 'GitHub', test: 'Dependabot alerts', close: 'true' },
      );
      const node = (JSON.parse(upload.text!) as { data: { repository: { vulnerabilityAlerts: { nodes: Record<string, any>[] } } } }).data.repository.vulnerabilityAlerts.nodes[0]!;
      assert.equal(node.id, 'dependabot/1');
      assert.equal(node.securityVulnerability.severity, 'HIGH');
      assert.equal(node.securityVulnerability.advisory.cwes.nodes[0].cweId, 'CWE-200');
      assert.equal(node.vulnerableManifestPath, 'path/to/requirements.txt');

      const dependabotCalls = github.calls.filter((c) => c.route === 'dependabot');
      assert.equal(dependabotCalls.length, 2, '150 alerts: two cursor pages');
      assert.ok(dependabotCalls.every((c) => !c.query.has('page')) && dependabotCalls[1]!.query.has('after'));
      const report = run.report!;
      assert.deepEqual({ synced: report.totals.synced, skipped: report.totals.skipped, failed: report.totals.failed }, { synced: 4, skipped: 2, failed: 0 });
      assert.ok(run.err.some((l) => /alert list 6 of 6/.test(l)));
    })();
  });

  it('always asks for secret scanning alerts with hide_secret=true and never forwards a secret value', async () => {
    github.orgs.add('acme');
    github.addRepo({ owner: 'acme', name: 'web', secretScanning: [secretScanningAlert({ owner: 'acme', repo: 'web' }, { number: 7, validity: 'active' })] });
    const run = await runSync(['sync-github', '--json'], env);
    assert.equal(run.code, 0, run.all);
    const calls = github.calls.filter((c) => c.route === 'secret_scanning');
    assert.ok(calls.length > 0 && calls.every((c) => c.query.get('hide_secret') === 'true'));
    const text = dd.uploads.find((u) => u.fields.scan_type === 'Github Secrets Detection Report Scan')!.text!;
    assert.ok(!text.includes('THE-LEAKED-SECRET-VALUE') && !/"secret":/.test(text));
    assert.match(text, /GitHub Personal Access Token \(alert #7\)/);
  });

  it('a feature that is off is skipped with GitHub\'s reason; an owner that is a user is listed as one', async () => {
    github.addRepo({ owner: 'acme', name: 'site', codeScanning: 'disabled', dependabot: 'disabled', secretScanning: 'disabled' });
    github.addRepo({ owner: 'acme', name: 'fresh', codeScanning: 'no-analysis', dependabot: [], secretScanning: [] });
    const run = await runSync(['sync-github', '--json'], env);
    assert.equal(run.code, 0, run.all);
    assert.equal(github.count('org_repos'), 1);
    assert.equal(github.count('user_repos'), 1, 'not an organisation: the user listing');
    const reasons = run.report!.items.filter((i) => i.product === 'acme/site').map((i) => i.reason);
    assert.deepEqual(reasons, [
      'not enabled on GitHub: Advanced Security must be enabled for this repository to use code scanning.',
      'not enabled on GitHub: Dependabot alerts are disabled for this repository.',
      'not enabled on GitHub: Secret scanning is disabled on this repository.',
    ]);
    const fresh = run.report!.items.filter((i) => i.product === 'acme/fresh').map((i) => i.reason);
    assert.deepEqual(fresh, ['not enabled on GitHub: no analysis found', 'no open alerts and no DefectDojo product yet', 'no open alerts and no DefectDojo product yet']);
    assert.equal(dd.uploads.length, 0, 'no empty products');
    assert.ok(github.calls.length > 0 && github.calls.every((c) => c.apiVersion === API_VERSION), 'every REST call names the API version');
  });

  it('the token owner\'s own repositories come from /user/repos (private ones included)', async () => {
    github.viewer = 'acme';
    github.addRepo({ owner: 'acme', name: 'private-tool' });
    const run = await runSync(['sync-github', '--json'], env);
    assert.equal(run.code, 0, run.all);
    assert.equal(github.count('viewer_repos'), 1);
    assert.equal(github.count('user_repos'), 0);
  });

  it('an empty list still reaches an existing product, so fixed alerts get closed', async () => {
    github.orgs.add('acme');
    const repo = github.addRepo({ owner: 'acme', name: 'api', codeScanning: [codeScanningAlert(API, { number: 1, rule: 'js/xss', securitySeverity: 'critical', path: 'a.js', line: 1 })] });
    assert.equal((await runSync(['sync-github'], env)).code, 0);
    repo.codeScanning = [];
    const run = await runSync(['sync-github', '--json'], env);
    assert.equal(run.code, 0, run.all);
    const item = run.report!.items.find((i) => i.scan_type === 'Github SAST Scan')!;
    assert.deepEqual(item.counts, { created: 0, closed: 1, reactivated: 0, untouched: 0 });
    // One product list per run (whether to name a product type, and whether an empty list has a
    // product to reach): no lookup by name.
    assert.equal(dd.count('products'), 2);
    assert.equal(dd.count('product_types'), 2);
  });

  it('stops calling a target once its primary rate limit is spent and reports what was not attempted', async () => {
    github.orgs.add('acme');
    for (let i = 0; i < 5; i++) github.addRepo({ owner: 'acme', name: `repo-${i}`, dependabot: [] });
    github.rateLimit.remaining = 4;
    const run = await runSync(['sync-github', '--json', '--concurrency', '1'], env);
    assert.equal(run.code, 1);
    const failed = run.report!.items.filter((i) => i.status === 'failed');
    assert.equal(failed.length, 12, 'the first repository got its three answers; the other four were not attempted');
    assert.ok(failed.every((i) => /rate limit exhausted until .*; not attempted|answered 403: API rate limit exceeded/.test(i.reason!)));
    assert.equal(github.calls.length, 4, 'no call after the answer that said the limit was spent');
    assert.equal(run.report!.items.length, 15, 'every repository and kind is accounted for');
  });

  it('backs off a secondary rate limit for its Retry-After and 5xx answers, then syncs', async () => {
    github.orgs.add('acme');
    github.addRepo({ owner: 'acme', name: 'api', codeScanning: [codeScanningAlert(API, { number: 1, rule: 'js/xss', path: 'a.js', line: 1 })] });
    github.faults.inject('code_scanning', {
      status: 403,
      headers: { 'retry-after': '1' },
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
    });
    github.faults.inject('dependabot', { status: 502, body: { message: 'Server Error' } });
    const started = Date.now();
    const run = await runSync(['sync-github', '--json'], env);
    assert.equal(run.code, 0, run.all);
    assert.ok(Date.now() - started >= 1000);
    assert.equal(github.count('code_scanning'), 2);
    assert.ok(run.err.some((l) => /secondary rate limit.*retry 1 in 1\.\d s/.test(l)), run.err.join('\n'));
  });

  it('refuses unusable GITHUB_TARGETS without quoting it', async () => {
    for (const [targets, message] of [
      ['[{"server": "https://github.com", "owners": ["acme"], "token": "ghp_secretvalue", }]', /GITHUB_TARGETS is not valid JSON/],
      ['[{"server": "http://github.example.com", "owners": ["acme"], "token": "ghp_secretvalue"}]', /GITHUB_TARGETS\[0\]\.server must use https/],
      ['[{"server": "https://github.com", "owners": [], "token": "ghp_secretvalue"}]', /GITHUB_TARGETS\[0\]\.owners must be a non-empty list/],
      ['{"server": "https://github.com"}', /GITHUB_TARGETS must be a non-empty JSON list/],
    ] as const) {
      const run = await runSync(['sync-github'], { ...env, GITHUB_TARGETS: targets });
      assert.equal(run.code, 2);
      assert.match(run.all, message);
      assert.ok(!run.all.includes('ghp_secretvalue'));
    }
    assert.equal(github.calls.length + dd.calls.length, 0);
  });
});
