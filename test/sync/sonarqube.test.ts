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
    // Projects without issues and without a product get no empty product; the two with issues
    // also get their (empty) hotspots report, their product being there.
    assert.equal(run.report!.totals.synced, 4);
    assert.equal(run.report!.totals.skipped, 1036);
    // The run's product directory answers every project: one product list, no lookup by name.
    assert.equal(dd.count('products'), 1);
    assert.equal(dd.count('product_types'), 1);
    const test = dd.testOf('acme/p0', DETAILED, 'acme/p0 (SonarQube issues)')!;
    assert.equal(test.engagement, 'SonarQube');
    assert.equal(test.findings.size, 1203, 'same rule, same file, different issues: distinct findings');
    const upload = dd.uploads.find((u) => u.fields.product_name === 'acme/p0' && u.fields.test_title === 'acme/p0 (SonarQube issues)')!;
    assert.equal(upload.fields.scan_type, DETAILED);
    assert.ok(dd.uploads.every((u) => u.fields.test_title === `${u.fields.product_name} (SonarQube ${u.filename === 'sonarqube-hotspots.json' ? 'hotspots' : 'issues'})`), 'every reimport names its test');
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
    const sent = dd.uploads.length;
    const again = await runSync(['sync-sonarqube', '--json'], env);
    // Issues and hotspots unchanged: neither report is sent again (the digest on the test says so).
    assert.deepEqual([again.report!.totals.synced, again.report!.totals.unchanged, dd.uploads.length], [2, 2, sent]);
    project.issues[0]!.resolution = 'FIXED';
    const fixed = await runSync(['sync-sonarqube', '--json'], env);
    assert.deepEqual([fixed.report!.totals.closed, fixed.report!.totals.untouched], [1, 1]);
    project.issues = [];
    const emptied = await runSync(['sync-sonarqube', '--json'], env);
    assert.equal(emptied.report!.totals.closed, 1);
    assert.equal([...dd.testOf('acme/api', DETAILED, 'acme/api (SonarQube issues)')!.findings.values()].filter((f) => f.active).length, 0);
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
    assert.match(bad.report!.error!, /SonarQube at http:\/\/127\.0\.0\.1:\d+ refused SONARQUBE_TOKEN: api\/authentication\/validate answered valid: false/);
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

describe('gatehouse-sync sync-sonarqube: security findings, CWEs and hotspots', () => {
  let sonar: FakeSonarQube;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async () => {
    sonar = await FakeSonarQube.start();
    dd = await FakeDefectDojo.start();
    // No SYNC_SONARQUBE_ENABLED: the url and token switch it on.
    env = { SYNC_SONARQUBE_URL: sonar.url, SYNC_DEFECTDOJO_URL: dd.url, SONARQUBE_TOKEN: sonar.token, DEFECTDOJO_TOKEN: dd.token };
  });
  afterEach(async () => {
    await sonar.close();
    await dd.close();
  });

  const mixed = (project: string) => [
    FakeSonarQube.issue(project, 1),
    FakeSonarQube.issue(project, 2, { type: 'CODE_SMELL', rule: 'python:S1481', severity: 'MINOR', impacts: [{ softwareQuality: 'MAINTAINABILITY', severity: 'LOW' }], tags: [] }),
    FakeSonarQube.issue(project, 3, { type: 'BUG', rule: 'python:S5754', severity: 'MAJOR', impacts: [{ softwareQuality: 'RELIABILITY', severity: 'MEDIUM' }], tags: [] }),
  ];

  it('imports vulnerabilities only by default; --all-issue-types or sources.sonarqube.allIssueTypes brings bugs and code smells', async () => {
    sonar.addProject('acme_api', 'acme/api', mixed('acme_api'));
    const run = await runSync(['sync-sonarqube', '--json'], env);
    assert.equal(run.code, 0, run.all);
    assert.ok(sonar.calls.filter((c) => c.route === 'issues').every((c) => c.query.get('types') === 'VULNERABILITY'));
    const issuesTest = dd.testOf('acme/api', DETAILED, 'acme/api (SonarQube issues)')!;
    assert.deepEqual([...issuesTest.findings.values()].map((f) => f.line), [1]);
    const flag = await runSync(['sync-sonarqube', '--json', '--all-issue-types'], env);
    assert.equal(flag.code, 0, flag.all);
    assert.equal(sonar.calls.filter((c) => c.route === 'issues').at(-1)!.query.get('types'), null);
    assert.deepEqual([...issuesTest.findings.values()].map((f) => f.line).sort(), [1, 2, 3]);
    const setting = await runSync(['sync-sonarqube', '--json'], { ...env, SYNC_SONARQUBE_ALL_ISSUE_TYPES: 'true' });
    assert.equal(sonar.calls.filter((c) => c.route === 'issues').at(-1)!.query.get('types'), null);
    // The same three issues as the flag's run: that report is not sent again.
    assert.equal(setting.report!.items.find((i) => i.label.endsWith(' issues'))!.unchanged, true);
  });

  it('keeps SonarQube’s CWE: each rule’s CWEs, looked up once per rule, reach the finding DefectDojo’s parser makes', async () => {
    sonar.ruleCwes.set('python:S4502', ['352']);
    sonar.ruleCwes.set('python:S3752', ['352', '1275']);
    for (const n of [1, 2, 3]) {
      const key = `acme_p${n}`;
      const project = sonar.addProject(key, `acme/p${n}`, [FakeSonarQube.issue(key, 1), FakeSonarQube.issue(key, 2, { rule: 'python:S2076' })]);
      project.hotspots = [FakeSonarQube.hotspot(key, 1)];
    }
    const run = await runSync(['sync-sonarqube', '--json'], env);
    assert.equal(run.code, 0, run.all);
    const byLine = new Map([...dd.testOf('acme/p1', DETAILED, 'acme/p1 (SonarQube issues)')!.findings.values()].map((f) => [f.line, f.cwe]));
    assert.deepEqual([byLine.get(1), byLine.get(2)], [352, 0], 'a rule without a CWE leaves it unset');
    assert.deepEqual([...dd.testOf('acme/p1', DETAILED, 'acme/p1 (SonarQube hotspots)')!.findings.values()].map((f) => f.cwe), [352]);
    const lookups = sonar.calls.filter((c) => c.route === 'rules');
    assert.deepEqual(lookups.map((c) => c.query.get('rule_key')).sort(), ['python:S2076', 'python:S3752', 'python:S4502'], 'once per rule for the whole run');
    assert.ok(lookups.every((c) => c.query.get('facets') === 'cwe'));
    // The finding in DefectDojo's API carries it (what issue push links to MITRE).
    const found = (await (await fetch(`${dd.url}/api/v2/findings/?product_name=acme/p1&limit=100`, { headers: { authorization: `Token ${dd.token}` } })).json()) as { results: { cwe: number }[] };
    assert.ok(found.results.some((f) => f.cwe === 352));
  });

  it('sends hotspots to review as their own test, named on every reimport, so issues and hotspots never close each other', async () => {
    const project = sonar.addProject('acme_api', 'acme/api', [FakeSonarQube.issue('acme_api', 1), FakeSonarQube.issue('acme_api', 2)]);
    project.hotspots = [FakeSonarQube.hotspot('acme_api', 1), FakeSonarQube.hotspot('acme_api', 2, { vulnerabilityProbability: 'LOW' }), FakeSonarQube.hotspot('acme_api', 3, { status: 'REVIEWED', resolution: 'SAFE' })];
    const first = await runSync(['sync-sonarqube', '--json'], env);
    assert.equal(first.code, 0, first.all);
    assert.ok(sonar.calls.filter((c) => c.route === 'hotspots').every((c) => c.query.get('projectKey') === 'acme_api' && c.query.get('status') === 'TO_REVIEW'));
    const titles = dd.uploads.map((u) => [u.fields.scan_type, u.fields.test_title]);
    assert.deepEqual(titles, [
      [DETAILED, 'acme/api (SonarQube issues)'],
      [DETAILED, 'acme/api (SonarQube hotspots)'],
    ]);
    const hotspots = dd.testOf('acme/api', DETAILED, 'acme/api (SonarQube hotspots)')!;
    assert.deepEqual([...hotspots.findings.values()].map((f) => [f.line, f.severity, f.title]), [
      [1, 'high', 'Rule Python:S3752'],
      [2, 'low', 'Rule Python:S3752'],
    ]);
    assert.deepEqual(first.report!.items.map((i) => [i.test, i.findings]), [
      ['acme/api (SonarQube issues)', 2],
      ['acme/api (SonarQube hotspots)', 2],
    ]);
    // One hotspot reviewed: closed in the hotspots test; the issues test is untouched.
    project.hotspots[0]!.status = 'REVIEWED';
    const second = await runSync(['sync-sonarqube', '--json'], env);
    // The issues' report is unchanged (not sent); the hotspots' closes the reviewed one.
    assert.deepEqual(second.report!.items.map((i) => [i.unchanged, i.counts?.closed, i.counts?.untouched]), [
      [true, undefined, undefined],
      [undefined, 1, 1],
    ]);
    const issues = dd.testOf('acme/api', DETAILED, 'acme/api (SonarQube issues)')!;
    assert.equal([...issues.findings.values()].filter((f) => f.active).length, 2);
  });
});
