import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import { dependabotReport } from '../../server/sync/github/reports.js';
import { FakeDefectDojo, hashCodeOf } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { readFixture } from '../support/fixtures.js';
import { codeScanningAlert, dependabotAlert } from '../support/github-alert-objects.js';
import { fpfProject, runSync, startSyncFakes, type SyncFakes } from './support.js';

// What DefectDojo does with what the sync sends: which test a reimport lands in, which findings its
// default hash and matching keep apart, a product moved to another type, bodies without a length,
// reports above its size limit, and scan types an older server does not know.

type Alert = Record<string, any> & { number: number };

describe('reimports as DefectDojo takes them (Dependency-Track)', () => {
  let fakes: SyncFakes;
  let env: Record<string, string>;

  beforeEach(async () => {
    fakes = await startSyncFakes();
    env = { ...fakes.env, SYNC_DEFECTDOJO_PRODUCT_TYPE: 'Platform' };
  });
  afterEach(() => fakes.close());

  it('a project without a version keeps its own test next to its versioned twin, run after run', async () => {
    const { dt, dd } = fakes;
    const versioned = fpfProject(1, 3, { version: '2.0.0' });
    const unversioned = { ...fpfProject(1, 2), uuid: 'unversioned', version: undefined as never, findings: fpfProject(2, 2).findings };
    dt.projects.push(versioned, unversioned);
    for (let run = 1; run <= 3; run++) {
      const result = await runSync(['sync', '--json', '--concurrency', '1'], env);
      assert.equal(result.code, 0, result.all);
      // Later runs find each report already in its own test (its digest there), and send nothing.
      for (const item of result.report!.items) if (run > 1) assert.equal(item.unchanged, true, `run ${run}, ${item.label}`);
    }
    assert.ok(dd.uploads.every((u) => u.fields.test_title), 'every reimport names its test');
    const tests = dd.tests.filter((t) => t.product === 'acme/service-001');
    assert.deepEqual(tests.map((t) => t.title).sort(), ['(no version)', '2.0.0']);
    assert.deepEqual(tests.map((t) => [...t.findings.values()].filter((f) => f.active).length).sort(), [2, 3]);
  });

  it('a product moved to another product type keeps syncing, and the summary says where it was found', async () => {
    const { dt, dd } = fakes;
    dt.projects.push(fpfProject(1, 2));
    assert.equal((await runSync(['sync'], env)).code, 0);
    assert.equal(dd.uploads[0]!.fields.product_type_name, 'Platform', 'a new product is created under the configured type');
    dd.products.get('acme/service-001')!.productType = 'Payments';
    // Each run below must reimport: the digest of the last import is forgotten, as when someone else imported.
    const forget = () => dd.tests.forEach((t) => (t.buildId = ''));
    forget();
    const run = await runSync(['sync', '--json'], env);
    assert.equal(run.code, 0, run.all);
    assert.equal(dd.uploads.at(-1)!.fields.product_type_name, undefined, 'no product type for a product that exists');
    const item = run.report!.items[0]!;
    assert.deepEqual(item.counts, { created: 0, closed: 0, reactivated: 0, untouched: 2 });
    assert.deepEqual(item.notes, ['product acme/service-001 is under product type "Payments", not "Platform"; synced where it is']);
    const line = '[dependencytrack] note: acme/service-001 1.0.0: product acme/service-001 is under product type "Payments", not "Platform"; synced where it is';
    assert.ok(run.err.includes(line), 'in the progress lines');
    forget();
    const plain = await runSync(['sync'], env);
    assert.ok(plain.out.includes(line), `in the closing summary: ${plain.out.join('\n')}`);
    // Without the run's product list, the product is looked up before its reimport.
    dd.faults.inject('product_types', { status: 403, body: { detail: 'You do not have permission to perform this action.' } });
    forget();
    const looked = await runSync(['sync', '--json'], env);
    assert.equal(looked.code, 0, looked.all);
    assert.ok(looked.err.some((l) => /DefectDojo products could not be listed \(DefectDojo product type list answered 403/.test(l)), looked.err.join('\n'));
    assert.deepEqual(looked.report!.items[0]!.notes, item.notes);
    assert.ok(dd.calls.some((c) => c.url.startsWith('/api/v2/products/?name=acme%2Fservice-001')), 'looked up by name');
  });

  it('the fake refuses a chunked upload as DefectDojo behind its nginx does, and the sync never sends one', async () => {
    const { dt, dd } = fakes;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${dd.url}/api/v2/reimport-scan/`, { method: 'POST', headers: { authorization: `Token ${dd.token}`, 'content-type': 'multipart/form-data; boundary=x' } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write('--x\r\nContent-Disposition: form-data; name="scan_type"\r\n\r\nGithub SAST Scan\r\n');
      req.end('--x--\r\n');
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.body).scan_type, ['This field is required.']);

    // An export streamed with its length, and one that comes chunked (read whole, within the limit).
    dt.projects.push(fpfProject(1, 3), fpfProject(2, 3));
    assert.equal((await runSync(['sync'], env)).code, 0);
    dt.chunkedExports = true;
    dt.projects.push(fpfProject(3, 3));
    const run = await runSync(['sync', '--json'], env);
    assert.equal(run.code, 0, run.all);
    const sent = dd.uploads.find((u) => u.fields.product_name === 'acme/service-003')!;
    const exportedAt = JSON.parse(sent.text!).meta.timestamp as string;
    // Nothing in it to fold: each finding as exported, naming its own id among its aliases (fold-aliases.ts).
    const exported = JSON.parse(dt.documentOf(dt.projects[2]!, new Date(exportedAt))) as { findings: { vulnerability: Record<string, unknown> }[] };
    for (const f of exported.findings) f.vulnerability.aliases = [{ cveId: f.vulnerability.vulnId }];
    assert.deepEqual(JSON.parse(sent.text!), exported, 'a chunked export arrives whole');
    assert.equal(dd.refusedChunked, 1, 'only the request above came chunked');
    // The first two exports were unchanged the second time: not sent again.
    assert.equal(dd.uploads.length, 3);
  });

  it('an export above the upload limit fails before anything is sent, naming the project and the limit', async () => {
    const { dt, dd } = fakes;
    const big = fpfProject(1, 1400, { version: '3.1' });
    dt.projects.push(big, fpfProject(2, 1));
    for (const chunked of [false, true]) {
      dt.chunkedExports = chunked;
      const run = await runSync(['sync', '--json', '--concurrency', '1'], { ...env, SYNC_DEFECTDOJO_MAX_UPLOAD_MB: '1' });
      assert.equal(run.code, 1, run.all);
      const failed = run.report!.items.find((i) => i.status === 'failed')!;
      assert.equal(failed.label, 'acme/service-001 3.1');
      assert.match(failed.reason!, /^the FPF export of Dependency-Track project acme\/service-001 3\.1 is (\d+\.\d|over 1\.0) MB, above the upload limit of 1\.0 MB \(DefectDojo's DD_SCAN_FILE_MAX_SIZE; defectdojo\.maxUploadMb\); not sent$/);
      // A stated length is refused at once and named; a chunked export once more than the limit has come.
      assert.match(failed.reason!, chunked ? / is over 1\.0 MB, / : / is \d+\.\d MB, /);
      assert.equal(failed.attempts, 1, 'not retried');
    }
    assert.ok(dd.uploads.every((u) => u.fields.product_name === 'acme/service-002'), 'the large export never reached DefectDojo');
  });
});

describe('the DefectDojo fake hashes as DefectDojo does', () => {
  // Expected values from Python, with DefectDojo's Finding.compute_hash_code / hash_fields steps:
  // the configured fields' str() concatenated, casefold(), encode, strip(), SHA-256.
  it('configured fields in order, None for an empty one, vulnerability ids sorted; the legacy hash without settings', () => {
    const hex = (scanType: string, finding: Parameters<typeof hashCodeOf>[1]) => hashCodeOf(scanType, finding);
    assert.equal(
      hex('Github SAST Scan', { title: 'ignored', severity: 'high', active: true, vulnIdFromTool: 'py/path-injection #34', filePath: 'src/file2.py', line: 78 }),
      '32d07e04016729c3cddb23a9dd93d1daca7ea4231067da685462663f3a39dabc',
    );
    assert.equal(
      hex('Github Vulnerability Scan', { title: 'Django allows remote attackers', severity: 'high', active: true, componentName: 'django', vulnerabilityIds: ['GHSA-rf4j-j272-fj86', 'CVE-2018-6188'] }),
      '860c32e6f453772949668b19bdaa82856621d9d9bbbc7374f095f6791fa15813',
    );
    assert.equal(
      hex('Github Secrets Detection Report Scan', { title: 'Exposed Secret Detected: GitHub Token (alert #7)', severity: 'high', active: true }),
      'abcec6e23ba061fc8cc035e5f608f42049b0e8db3e3c5dd9cd3e149dbfe6b06d',
    );
  });
});

describe('GitHub alerts as DefectDojo deduplicates them by default', () => {
  let github: FakeGitHubAlerts;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async function () {
    github = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    dd = await FakeDefectDojo.start();
    github.orgs.add('acme');
    env = { SYNC_DEFECTDOJO_URL: dd.url, DEFECTDOJO_TOKEN: dd.token, GITHUB_TARGETS: JSON.stringify([{ server: github.server, owners: ['acme'], token: github.token }]) };
  });
  afterEach(async () => {
    await github?.close();
    await dd?.close();
  });

  /** Nine alerts: two pairs share rule, file, line and severity (a rule firing twice on one line). */
  function codeScanning(): Alert[] {
    const place = { owner: 'acme', repo: 'api' };
    const a = (number: number, line: number) => codeScanningAlert(place, { number, rule: 'py/clear-text-storage-sensitive-data', path: 'src/file.py', line }) as Alert;
    const b = (number: number, line: number) => codeScanningAlert(place, { number, rule: 'py/path-injection', path: 'src/file2.py', line }) as Alert;
    return [a(1, 10), a(2, 10), a(3, 11), a(4, 12), b(5, 20), b(6, 20), b(7, 21), b(8, 22), b(9, 23)];
  }

  it('code scanning: nine alerts are nine findings, and each stays its finding when it moves or is re-rated', async () => {
    const repo = github.addRepo({ owner: 'acme', name: 'api', codeScanning: codeScanning(), dependabot: [], secretScanning: [] });
    const first = await runSync(['sync-github', '--json'], env);
    assert.equal(first.code, 0, first.all);
    const test = dd.testOf('acme/api', 'Github SAST Scan', 'Code scanning')!;
    assert.equal(test.findings.size, 9, 'one finding per alert');
    const ids = new Map([...test.findings.values()].map((f) => [f.uniqueIdFromTool, f.id]));
    const alerts = repo.codeScanning as Alert[];
    alerts[0]!.most_recent_instance.location.start_line = 14;
    alerts[4]!.rule.security_severity_level = 'critical';
    const second = await runSync(['sync-github', '--json'], env);
    const item = second.report!.items.find((i) => i.scan_type === 'Github SAST Scan')!;
    assert.deepEqual(item.counts, { created: 0, closed: 0, reactivated: 0, untouched: 9 });
    assert.deepEqual(new Map([...test.findings.values()].map((f) => [f.uniqueIdFromTool, f.id])), ids, 'the same findings');
  });

  it('Dependabot: an alert GitHub re-rates or gives a CVE stays its finding, with its tags; the summary says so', async () => {
    const [example] = readFixture<Alert[]>('sync', 'github__dependabot_alerts_rest_example.json');
    const alerts = [1, 2].map((number) => dependabotAlert({ owner: 'acme', repo: 'api' }, example!, { number, manifestPath: `app-${number}/requirements.txt` }) as Alert);
    github.addRepo({ owner: 'acme', name: 'api', codeScanning: [], dependabot: alerts, secretScanning: [] });
    assert.equal((await runSync(['sync-github'], env)).code, 0);
    const test = dd.testOf('acme/api', 'Github Vulnerability Scan', 'Dependabot alerts')!;
    const triaged = test.findings.get('dependabot/1')!;
    triaged.tags = ['triaged'];
    alerts[0]!.security_vulnerability.severity = 'critical';
    alerts[0]!.security_advisory.severity = 'critical';
    alerts[0]!.security_advisory.identifiers.push({ type: 'CVE', value: 'CVE-2026-99999' });
    const run = await runSync(['sync-github', '--json'], env);
    assert.equal(run.code, 0, run.all);
    const item = run.report!.items.find((i) => i.scan_type === 'Github Vulnerability Scan')!;
    assert.deepEqual(item.counts, { created: 0, closed: 0, reactivated: 0, untouched: 2 });
    assert.equal(test.findings.get('dependabot/1'), triaged);
    assert.deepEqual(triaged.tags, ['triaged']);
    assert.equal(triaged.active, true);
    assert.match(item.notes![0]!, /^1 alert changed on GitHub \(severity, summary or identifiers\) .*kept as DefectDojo has them.*\(alerts #1\)$/);
  });

  it('Dependabot: CVSS from cvss_severities alone, EPSS and the vulnerable version reach the finding', async () => {
    const [example] = readFixture<Alert[]>('sync', 'github__dependabot_alerts_rest_example.json');
    const alert = dependabotAlert({ owner: 'acme', repo: 'api' }, example!, { number: 2 }) as Alert;
    // GitHub's deprecated `cvss` says nothing here; only cvss_severities holds scores.
    alert.security_advisory.cvss = { vector_string: null, score: 0 };
    alert.security_advisory.cvss_severities = {
      cvss_v3: { vector_string: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', score: 7.5 },
      cvss_v4: { vector_string: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N', score: 8.7 },
    };
    alert.security_advisory.epss = { percentage: 0.00045, percentile: 0.16001 };
    // The advisory as GitHub's published description has it (the list endpoint's item schema).
    const description = join(dirname(createRequire(import.meta.url).resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.deref.json');
    const paths = (JSON.parse(readFileSync(description, 'utf8')) as { paths: Record<string, any> }).paths;
    const advisorySchema = paths['/repos/{owner}/{repo}/dependabot/alerts']!.get.responses['200'].content['application/json'].schema.items.properties.security_advisory;
    const validate = new Ajv({ strict: false, validateFormats: false }).compile(advisorySchema);
    assert.ok(validate(alert.security_advisory), JSON.stringify(validate.errors));
    github.addRepo({ owner: 'acme', name: 'api', codeScanning: [], dependabot: [alert], secretScanning: [] });
    const run = await runSync(['sync-github'], env);
    assert.equal(run.code, 0, run.all);
    const [found] = dd.findings();
    const finding = found?.finding;
    assert.deepEqual(
      { score: finding!.cvssv3Score, vector: finding!.cvssv3, epss: finding!.epssScore, percentile: finding!.epssPercentile, version: finding!.componentVersion },
      { score: 7.5, vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', epss: 0.00045, percentile: 0.16001, version: alert.security_vulnerability.vulnerable_version_range },
    );
    assert.match(finding!.description!, /CVSS v4: 8\.7 CVSS:4\.0\/AV:N/);
  });

  it("Dependabot: EPSS as GitHub's own examples show it (a list of one, a numeric string) is read too", () => {
    const [template] = readFixture<Alert[]>('sync', 'github__dependabot_alerts_rest_example.json');
    const { document } = dependabotReport({ fullName: 'acme/api', htmlUrl: 'https://github.com/acme/api' }, [template!]);
    const node = (document as { data: { repository: { vulnerabilityAlerts: { nodes: any[] } } } }).data.repository.vulnerabilityAlerts.nodes[0];
    assert.deepEqual(node.securityVulnerability.advisory.epss, { percentage: 0.00045, percentile: 0.16001 });
  });

  it('a DefectDojo without the code-scanning parser is named too old, with the version that has it; the kind is skipped, the run not failed', async () => {
    dd.scanTypes.delete('Github SAST Scan');
    github.addRepo({ owner: 'acme', name: 'api', codeScanning: codeScanning().slice(0, 1), dependabot: [], secretScanning: [] });
    const run = await runSync(['sync-github', '--json'], env);
    assert.equal(run.code, 0, run.all);
    const item = run.report!.items.find((i) => i.scan_type === 'Github SAST Scan')!;
    assert.equal(item.status, 'skipped');
    assert.equal(item.reason, `DefectDojo at ${dd.url} does not know the scan type "Github SAST Scan": the server is too old for this source; it needs DefectDojo 2.52.0 or later`);
    assert.equal(item.attempts, 1, 'not retried');
  });
});
