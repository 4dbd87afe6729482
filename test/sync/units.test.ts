import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadSyncConfig, SyncConfigError } from '../../server/sync/config.js';
import { DefectDojoClient } from '../../server/sync/defectdojo/client.js';
import { dependabotReport, codeScanningReport } from '../../server/sync/github/reports.js';
import { apiBaseOf } from '../../server/github/targets.js';
import { multipartBody } from '../../server/sync/defectdojo/multipart.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { reimportCounts } from '../../server/sync/defectdojo/statistics.js';
import { readFixture } from '../support/fixtures.js';
import { configFile } from './support.js';

const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof SyncConfigError) return [...err.problems];
    throw err;
  }
  return [];
};

describe('sync configuration', () => {
  it('reads the file, lets the environment override each key, and fills the defaults', () => {
    const file = configFile(`mode: cronjob
schedule:
  dependencytrack: "15 * * * *"
  github: 3600
sources:
  dependencytrack: { enabled: true, url: "https://dtrack.example.com/" }
  github: { enabled: false, secretScanning: false }
defectdojo: { url: "https://dd.example.com", productType: "Research and Development" }
github: { minSeverity: critical, maxIssuesPerRun: 10 }
`);
    const { config, secrets } = loadSyncConfig({ file, env: { SYNC_GITHUB_ENABLED: 'true', SYNC_GITHUB_CODE_SCANNING: 'False', SYNC_DEFECTDOJO_PRODUCT_TYPE: 'Platform', DEFECTDOJO_TOKEN: ' tok ' } });
    assert.deepEqual(config, {
      mode: 'cronjob',
      schedule: { dependencytrack: '15 * * * *', github: '3600', sonarqube: '0 * * * *' },
      sources: { dependencytrack: { enabled: true, url: 'https://dtrack.example.com', excludeInactive: false, writeBackTriage: false }, github: { enabled: true, codeScanning: false, dependabot: true, secretScanning: false }, sonarqube: { enabled: false, allIssueTypes: false } },
      defectdojo: { url: 'https://dd.example.com', productType: 'Platform', maxUploadMb: 100, doNotReactivate: false },
      github: { minSeverity: 'Critical', maxIssuesPerRun: 10 },
    });
    assert.equal(secrets.defectDojoToken, 'tok');
  });

  it('names every bad key and where it came from, never its value', () => {
    const file = configFile(`mode: sometimes
schedule: { github: "every hour" }
sources: { dependencytrack: { url: "https://user:pw@dt.example.com" }, gitlab: { enabled: true } }
defectdojo: { token: "dd-secret-in-file" }
github: { maxIssuesPerRun: -1 }
`);
    const problems = problemsOf(() => loadSyncConfig({ file, env: { SYNC_GITHUB_MIN_SEVERITY: 'urgent' } }));
    assert.deepEqual(problems.sort(), [
      'defectdojo.token: secrets are read only from the environment (DEPENDENCY_TRACK_API_KEY, DEFECTDOJO_TOKEN, SONARQUBE_TOKEN, GITHUB_TARGETS); remove it from the file',
      'github.maxIssuesPerRun must be a whole number from 0 to 1000',
      'github.minSeverity (from SYNC_GITHUB_MIN_SEVERITY) must be one of Critical, High, Medium, Low, Info',
      'mode must be one of deployment, cronjob',
      'schedule.github must be a cron expression (5 or 6 fields) or an interval in seconds',
      'sources.dependencytrack.url must not carry credentials (they are read from the environment)',
      'sources.gitlab: not a known key',
    ]);
    assert.ok(!problems.join('\n').includes('dd-secret-in-file') && !problems.join('\n').includes(':pw@'));
  });

  it('each kind of value is refused in its own words, from the file or the environment; accepted values are read as given', () => {
    const file = configFile(`mode: CronJob
schedule: { sonarqube: true }
sources: { github: { dependabot: "yes" } }
defectdojo: { productType: "${'x'.repeat(256)}" }
`);
    const env = {
      SYNC_DEFECTDOJO_URL: 'https://dd.example.com/?x=1',
      SYNC_SONARQUBE_URL: 'ftp://sq.example.com',
      SYNC_DEFECTDOJO_MAX_UPLOAD_MB: '1.5',
      SYNC_GITHUB_ENABLED: 'maybe',
    };
    assert.deepEqual(problemsOf(() => loadSyncConfig({ file, env })).sort(), [
      'defectdojo.maxUploadMb (from SYNC_DEFECTDOJO_MAX_UPLOAD_MB) must be a whole number from 1 to 100000',
      'defectdojo.productType must be a non-empty string of at most 255 characters',
      'defectdojo.url (from SYNC_DEFECTDOJO_URL) must not have a query or fragment',
      'schedule.sonarqube must be a cron expression (5 or 6 fields) or an interval in seconds',
      'sources.github.dependabot must be true or false (true, True, TRUE, false, False or FALSE)',
      'sources.github.enabled (from SYNC_GITHUB_ENABLED) must be true or false (true, True, TRUE, false, False or FALSE)',
      'sources.sonarqube.url (from SYNC_SONARQUBE_URL) must be an http(s) URL',
    ]);
    const { config } = loadSyncConfig({
      file: configFile('mode: CronJob\ndefectdojo: { url: "https://dd.example.com/", productType: "  Platform  " }\n'),
      env: { SYNC_GITHUB_MAX_ISSUES_PER_RUN: ' 7 ', SYNC_GITHUB_ENABLED: 'True', SYNC_SCHEDULE_GITHUB: '600' },
    });
    assert.equal(config.mode, 'cronjob');
    assert.equal(config.defectdojo.url, 'https://dd.example.com');
    assert.equal(config.defectdojo.productType, 'Platform');
    assert.equal(config.github.maxIssuesPerRun, 7);
    assert.equal(config.sources.github.enabled, true);
    assert.equal(config.schedule.github, '600');
  });

  it('reports unreadable and invalid YAML by position only', () => {
    assert.match(problemsOf(() => loadSyncConfig({ file: '/nonexistent/sync.yaml', env: {} }))[0]!, /cannot be read \(ENOENT\)/);
    const file = configFile('defectdojo:\n  url: "https://dd\n  token: ghp_pasted_secret\n');
    const [problem] = problemsOf(() => loadSyncConfig({ file, env: {} }));
    assert.match(problem!, /not valid YAML \(line \d+, column \d+\)/);
    assert.ok(!problem!.includes('ghp_pasted_secret'));
  });

  it('property: any environment value is either accepted or refused with a named key, never thrown otherwise', () => {
    fc.assert(
      fc.property(fc.record({ SYNC_MODE: fc.string(), SYNC_SCHEDULE_GITHUB: fc.string(), SYNC_GITHUB_MAX_ISSUES_PER_RUN: fc.string(), SYNC_DEFECTDOJO_URL: fc.string(), GITHUB_TARGETS: fc.string() }), (env) => {
        const problems = problemsOf(() => loadSyncConfig({ env }));
        for (const p of problems) assert.match(p, /^(mode|schedule\.github|github\.maxIssuesPerRun|defectdojo\.url) \(from SYNC_|^GITHUB_TARGETS/);
      }),
    );
  });
});

describe('sync building blocks', () => {
  it('GitHub API bases: the public API, GHE.com tenants, and servers under /api/v3', () => {
    assert.deepEqual(apiBaseOf(new URL('https://github.com')), { apiBase: 'https://api.github.com', kind: 'public' });
    assert.deepEqual(apiBaseOf(new URL('https://octo.ghe.com')), { apiBase: 'https://api.octo.ghe.com', kind: 'enterprise' });
    assert.deepEqual(apiBaseOf(new URL('https://ghe.corp.example/')), { apiBase: 'https://ghe.corp.example/api/v3', kind: 'enterprise' });
    assert.deepEqual(apiBaseOf(new URL('https://ghe.corp.example/api/v3')), { apiBase: 'https://ghe.corp.example/api/v3', kind: 'enterprise' });
  });

  it('a multipart body is what a multipart parser reads', async () => {
    const { contentType, body } = multipartBody({ scan_type: 'Github SAST Scan', 'product_name': 'acme/"api"' }, { field: 'file', filename: 'r.json', contentType: 'application/json', content: Buffer.from('[1,2]') });
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    assert.equal(form.get('scan_type'), 'Github SAST Scan');
    assert.equal(await (form.get('file') as File).text(), '[1,2]');
    assert.equal((form.get('file') as File).name, 'r.json');
  });

  it('code scanning: a null security_severity_level is filled from the rule severity, a set one kept', () => {
    const out = codeScanningReport([
      { number: 1, rule: { severity: 'error', security_severity_level: null } },
      { number: 2, rule: { severity: 'note', security_severity_level: null } },
      { number: 3, rule: { severity: 'warning', security_severity_level: 'critical' } },
      { number: 4, rule: {} },
    ]) as { rule: { security_severity_level: string } }[];
    assert.deepEqual(out.map((a) => a.rule.security_severity_level), ['high', 'low', 'critical', 'info']);
  });

  it('Dependabot: null lists are left out, ids are stable per alert number, medium becomes MODERATE', () => {
    const doc = JSON.parse(JSON.stringify(dependabotReport({ fullName: 'acme/api', htmlUrl: 'https://github.com/acme/api' }, [
      { number: 9, state: 'open', security_advisory: { summary: 's', description: null, severity: 'medium', references: null, identifiers: null, cwes: null, cvss: { score: null, vector_string: null } }, security_vulnerability: { severity: 'medium', package: { name: 'lodash', ecosystem: 'npm' } } },
    ]).document)) as { data: { repository: { vulnerabilityAlerts: { nodes: Record<string, any>[] } } } };
    const node = doc.data.repository.vulnerabilityAlerts.nodes[0]!;
    assert.equal(node.id, 'dependabot/9');
    assert.equal(node.securityVulnerability.severity, 'MODERATE');
    assert.deepEqual(Object.keys(node.securityVulnerability.advisory).sort(), ['description', 'summary']);
    assert.equal(node.securityVulnerability.advisory.description, '');
  });
});

describe('the DefectDojo fake refuses what DefectDojo refuses', () => {
  let dd: FakeDefectDojo;
  before(async () => {
    dd = await FakeDefectDojo.start();
  });
  after(() => dd.close());

  const client = () => new DefectDojoClient({ url: dd.url, token: dd.token, productType: 'Platform', timeoutMs: 5000, uploadTimeoutMs: 5000 });

  it('an unknown scan_type is a 400 naming the field; a bad extension and an unparsable report too', async () => {
    const base = { productName: 'p', engagementName: 'e', testTitle: 't', content: Buffer.from('[]') };
    await assert.rejects(client().reimport({ ...base, scanType: 'GitHub SAST Scan' as never, filename: 'r.json' }), /DefectDojo at http:\/\/127\.0\.0\.1:\d+ does not know the scan type "GitHub SAST Scan"$/);
    // As DefectDojo 3.2.0 answers (checked on the real server), read as text naming the field.
    for (const extension of ['exe', 'fpf']) {
      await assert.rejects(client().reimport({ ...base, scanType: 'Github SAST Scan', filename: `r.${extension}` }), new RegExp(`reimport-scan of p answered 400: file: File extension “${extension}” is not allowed\\. Allowed extensions are: xml, csv, nessus, json, jsonl, html, js, zip, xlsx, txt, sarif, fpr, md, log, fvdl\\.$`));
    }
    await assert.rejects(client().reimport({ ...base, scanType: 'Dependency Track Finding Packaging Format (FPF) Export', filename: 'r.json', content: Buffer.from('{"findings":[{}]}') }), /reimport-scan of p answered 400: Missing 'vulnerability' node from finding!$/);
    await assert.rejects(client().reimport({ ...base, scanType: 'Github Vulnerability Scan', filename: 'r.json', content: Buffer.from('not json') }), /reimport-scan of p answered 400: Expecting value: line 1 column 1 \(char 0\)$/);
    await assert.rejects(client().reimport({ ...base, scanType: 'Github SAST Scan', filename: 'r.json', content: Buffer.from('[{"number":1,"rule":{"security_severity_level":null}}]') }), /answered 500/);
    assert.equal(dd.products.size, 0, 'nothing created by a refused reimport');
  });
});

describe('the DefectDojo client reads every page of a list', () => {
  let dd: FakeDefectDojo;
  beforeEach(async () => {
    dd = await FakeDefectDojo.start();
  });
  afterEach(() => dd.close());

  const client = () => new DefectDojoClient({ url: dd.url, token: dd.token, productType: 'Platform', timeoutMs: 5000, uploadTimeoutMs: 5000 });

  it('follows `next` (on another host, as behind a proxy) to our own address, 100 a page, and stops at the match', async () => {
    // `?name=` matches substrings: "svc" matches all 151, and the exact one is on the second page.
    for (let i = 0; i < 150; i++) dd.products.set(`svc-${i}`, { id: 1000 + i, productType: 'Platform' });
    dd.products.set('svc', { id: 2000, productType: 'Platform' });
    assert.equal(await client().productExists('svc'), true);
    assert.deepEqual(
      dd.calls.filter((c) => c.route === 'products').map((c) => c.url),
      ['/api/v2/products/?name=svc&limit=100', '/api/v2/products/?name=svc&limit=100&offset=100'],
    );
    assert.equal(await client().productExists('sv'), false);
    assert.equal(dd.count('products'), 4);
  });

  it('open findings and findings by unique id, across pages', async () => {
    const findings = Array.from({ length: 230 }, (_, i) => ({
      component: { uuid: `c-${i}`, name: 'lodash', version: '4.17.20' },
      vulnerability: { uuid: `v-${i}`, vulnId: `CVE-2026-${1000 + i}`, source: 'NVD', severity: 'HIGH' },
      analysis: { isSuppressed: false },
      matrix: `p:c-${i}:v-${i}`,
    }));
    const content = Buffer.from(JSON.stringify({ version: '1.2', findings }));
    await client().reimport({ scanType: 'Dependency Track Finding Packaging Format (FPF) Export', productName: 'acme/api', engagementName: 'e', testTitle: 't', filename: 'f.json', content });
    const pages: number[] = [];
    for await (const page of client().openFindings('acme/api', ['High'])) pages.push(page.length);
    assert.deepEqual(pages, [100, 100, 30]);
    assert.equal(dd.count('findings'), 3);
    assert.equal((await client().findingsByUniqueId('acme/api', 'p:')).length, 230);
    assert.equal(dd.count('findings'), 6);
  });
});

describe('sync shapes against DefectDojo\'s own test files', () => {
  before(function () {
  });

  it('the Dependabot document uses the keys of the GraphQL files DefectDojo tests its parser with', () => {
    const keysOf = (node: unknown, prefix = ''): string[] =>
      node && typeof node === 'object' && !Array.isArray(node)
        ? Object.entries(node).flatMap(([k, v]) => [prefix + k, ...keysOf(Array.isArray(v) ? v[0] : v, `${prefix}${k}.`)])
        : [];
    const known = new Set(
      ['dd__github-5-vuln.json', 'dd__github-1-vuln-repo-dependabot-link.json'].flatMap((f) => {
        const doc = readFixture<{ data: unknown }>('sync', f);
        const find = (n: unknown): unknown[] => (n && typeof n === 'object' ? ('vulnerabilityAlerts' in n ? ((n as { vulnerabilityAlerts: { nodes: unknown[] } }).vulnerabilityAlerts.nodes) : Object.values(n).flatMap(find)) : []);
        return find(doc.data).flatMap((node) => keysOf(node));
      }),
    );
    const rest = readFixture<unknown[]>('sync', 'github__dependabot_alerts_rest_example.json');
    const ours = dependabotReport({ fullName: 'octo-org/octo-repo', htmlUrl: 'https://github.com/octo-org/octo-repo' }, rest).document as { data: { repository: { vulnerabilityAlerts: { nodes: unknown[] } } } };
    const used = new Set(ours.data.repository.vulnerabilityAlerts.nodes.flatMap((n) => keysOf(JSON.parse(JSON.stringify(n)))));
    // Keys the parser's code reads that these files happen not to show, and a few only for people reading DefectDojo.
    const extra = new Set([
      'securityVulnerability.advisory.cvss',
      'securityVulnerability.advisory.cvss.score',
      'securityVulnerability.advisory.cvss.vectorString',
      'securityVulnerability.advisory.cwes',
      'securityVulnerability.advisory.cwes.nodes',
      'securityVulnerability.advisory.cwes.nodes.cweId','vulnerableManifestPath',
      // Read by the parser since 2.31.1 (vulnerableRequirements) and 2.52.0 (cvssSeverities, epss).
      'vulnerableRequirements',
      'securityVulnerability.advisory.cvssSeverities',
      'securityVulnerability.advisory.cvssSeverities.cvssV3',
      'securityVulnerability.advisory.cvssSeverities.cvssV3.score',
      'securityVulnerability.advisory.cvssSeverities.cvssV3.vectorString',
      'securityVulnerability.advisory.epss',
      'securityVulnerability.advisory.epss.percentage',
      'securityVulnerability.advisory.epss.percentile', 'createdAt', 'state', 'url', 'securityVulnerability.package.ecosystem', 'securityVulnerability.vulnerableVersionRange', 'securityVulnerability.firstPatchedVersion', 'securityVulnerability.firstPatchedVersion.identifier', 'securityVulnerability.advisory.ghsaId', 'securityVulnerability.advisory.cwes.nodes.name']);
    for (const key of used) assert.ok(known.has(key) || extra.has(key), `${key} is not a key DefectDojo's files use`);
    for (const key of ['id', 'securityVulnerability.severity', 'securityVulnerability.advisory.summary', 'securityVulnerability.advisory.description', 'securityVulnerability.advisory.identifiers.value', 'securityVulnerability.advisory.references.url']) {
      assert.ok(used.has(key), `${key} is sent`);
    }
  });

  it('reads created, closed, reactivated and untouched from a reimport answer', () => {
    const counts = reimportCounts(readFixture('sync', 'synthetic__dd_reimport_scan_response.json'));
    assert.ok(counts);
    for (const value of Object.values(counts)) assert.ok(Number.isInteger(value) && value >= 0);
    assert.equal(reimportCounts({ statistics: { after: {} } }), undefined, 'no delta: no counts');
  });
});
