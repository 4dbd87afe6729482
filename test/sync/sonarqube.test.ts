import assert from 'node:assert/strict';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeSonarQube } from '../support/fake-sonarqube.js';
import { runSync } from './support.js';

const DETAILED = 'SonarQube Scan detailed';

describe('gatehouse-sync sync-sonarqube (SonarQube -> DefectDojo)', () => {
  let sonar: FakeSonarQube;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async () => {
    sonar = await FakeSonarQube.start();
    dd = await FakeDefectDojo.start();
    env = {
      SYNC_SONARQUBE_ENABLED: 'true',
      SYNC_SONARQUBE_URL: sonar.url,
      SYNC_DEFECTDOJO_URL: dd.url,
      SONARQUBE_TOKEN: sonar.token,
      DEFECTDOJO_TOKEN: dd.token,
    };
  });
  afterEach(async () => {
    await sonar.close();
    await dd.close();
  });

  it('pages through every project and every open issue, one product per project, each issue its own finding', async () => {
    for (let i = 0; i < 520; i++) sonar.addProject(`acme_p${i}`, `acme/p${i}`);
    const big = sonar.projects[0]!;
    // 1,203 issues of one rule in one file: three pages of 500, all kept distinct.
    big.issues = Array.from({ length: 1203 }, (_, n) => FakeSonarQube.issue(big.key, n + 1));
    big.issues.push(FakeSonarQube.issue(big.key, 99_999, { resolution: 'FIXED', status: 'CLOSED' }));
    sonar.ruleNames.set('python:S4502', 'Disabling CSRF protections is security-sensitive');
    sonar.projects[1]!.issues = [FakeSonarQube.issue(sonar.projects[1]!.key, 1, { severity: undefined, impacts: [{ softwareQuality: 'SECURITY', severity: 'BLOCKER' }], line: undefined })];
    const run = await runSync(['sync-sonarqube', '--json', '--concurrency', '8'], env);
    assert.equal(run.code, 0, run.all);
    const components = sonar.calls.filter((c) => c.route === 'components');
    assert.deepEqual(components.map((c) => [c.query.get('qualifiers'), c.query.get('p'), c.query.get('ps')]), [['TRK', '1', '500'], ['TRK', '2', '500']]);
    const bigCalls = sonar.calls.filter((c) => c.route === 'issues' && c.query.get('componentKeys') === big.key);
    assert.deepEqual(bigCalls.map((c) => c.query.get('p')), ['1', '2', '3']);
    assert.ok(bigCalls.every((c) => c.query.get('resolved') === 'false' && c.query.get('ps') === '500' && c.query.get('additionalFields') === 'rules'));
    // Projects without issues and without a product get no empty product.
    assert.equal(run.report!.totals.synced, 2);
    assert.equal(run.report!.totals.skipped, 518);
    const test = dd.testOf('acme/p0', DETAILED)!;
    assert.equal(test.engagement, 'SonarQube');
    assert.equal(test.findings.size, 1203, 'same rule, same file, different issues: distinct findings');
    const upload = dd.uploads.find((u) => u.fields.product_name === 'acme/p0')!;
    assert.equal(upload.fields.scan_type, DETAILED);
    assert.ok(dd.uploads.every((u) => u.fields.test_title === DETAILED), 'every reimport names its test');
    const doc = JSON.parse(upload.text!) as { issues: { component: string; description: string; severity: string }[]; hotspotKeys: string[] };
    assert.equal(doc.issues[0]!.component, 'app/views.py');
    assert.equal(doc.issues[0]!.description, 'Disabling CSRF protections is security-sensitive');
    assert.equal(doc.hotspotKeys.length, 1203);
    // An issue with impacts only (10.x MQR mode) and no line still parses.
    const second = JSON.parse(dd.uploads.find((u) => u.fields.product_name === 'acme/p1')!.text!) as { issues: { severity: string; line: number }[] };
    assert.deepEqual([second.issues[0]!.severity, second.issues[0]!.line], ['BLOCKER', 0]);
    const authorization = `Basic ${Buffer.from(`${sonar.token}:`).toString('base64')}`;
    assert.ok(sonar.calls.every((c) => c.authorization === authorization));
    assert.ok(!run.all.includes(sonar.token) && !run.all.includes(dd.token));
  });

  it('a second run changes nothing; a fixed issue is closed, and an emptied project closes all', async () => {
    const project = sonar.addProject('acme_api', 'acme/api', [FakeSonarQube.issue('acme_api', 1), FakeSonarQube.issue('acme_api', 2)]);
    assert.equal((await runSync(['sync-sonarqube'], env)).code, 0);
    const again = await runSync(['sync-sonarqube', '--json'], env);
    assert.deepEqual([again.report!.totals.created, again.report!.totals.untouched], [0, 2]);
    project.issues[0]!.resolution = 'FIXED';
    const fixed = await runSync(['sync-sonarqube', '--json'], env);
    assert.deepEqual([fixed.report!.totals.closed, fixed.report!.totals.untouched], [1, 1]);
    project.issues = [];
    const emptied = await runSync(['sync-sonarqube', '--json'], env);
    assert.equal(emptied.report!.totals.closed, 1);
    assert.equal([...dd.testOf('acme/api', DETAILED)!.findings.values()].filter((f) => f.active).length, 0);
  });

  it('a project past the 10,000-issue search window fails whole; nothing partial is sent', async () => {
    sonar.addProject('acme_huge', 'acme/huge', [FakeSonarQube.issue('acme_huge', 1)]);
    sonar.totalOverride = 10_001;
    const run = await runSync(['sync-sonarqube', '--json'], env);
    assert.equal(run.code, 1);
    assert.match(run.report!.items[0]!.reason!, /10001 open issues; SonarQube's search pages through the first 10000 only/);
    assert.equal(dd.uploads.length, 0);
  });

  it('a bad token fails the run with the status named and no token printed; a 503 is retried', async () => {
    sonar.addProject('acme_api', 'acme/api', [FakeSonarQube.issue('acme_api', 1)]);
    sonar.faults.inject('issues', { status: 503, body: { errors: [{ msg: 'Issues are being indexed' }] } });
    const retried = await runSync(['sync-sonarqube', '--json'], env);
    assert.equal(retried.code, 0, retried.all);
    assert.match(retried.all, /answered 503: Issues are being indexed; retry 1/);
    const bad = await runSync(['sync-sonarqube', '--json'], { ...env, SONARQUBE_TOKEN: 'squ_wrong' });
    assert.equal(bad.code, 1);
    assert.match(bad.report!.error!, /could not list projects: SonarQube project list \(page 1\) answered 401/);
    assert.ok(!bad.all.includes('squ_wrong'));
  });

  it('refuses to run while the source is off or its url or token is missing, before any call', async () => {
    const run = await runSync(['sync-sonarqube'], { SYNC_DEFECTDOJO_URL: dd.url, DEFECTDOJO_TOKEN: dd.token });
    assert.equal(run.code, 2);
    assert.match(run.all, /sources\.sonarqube\.enabled is false/);
    assert.match(run.all, /sources\.sonarqube\.url is required/);
    assert.match(run.all, /SONARQUBE_TOKEN is required/);
    assert.equal(sonar.calls.length + dd.calls.length, 0);
  });
});
