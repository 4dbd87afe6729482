import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeDefectDojo } from '../support/fake-defectdojo.js';
import type { FakeDependencyTrack } from '../support/fake-dependency-track.js';
import { fixturePath } from '../support/fixtures.js';
import { REPO_ROOT, runToEnd } from '../support/processes.js';
import { listen, readBody, type Listening } from '../support/servers.js';
import { fpfProject, runSync, startSyncFakes, type SyncFakes } from './support.js';

const FPF = 'Dependency Track Finding Packaging Format (FPF) Export';

describe('gatehouse-sync sync (Dependency-Track -> DefectDojo)', () => {
  let fakes: SyncFakes;
  let dt: FakeDependencyTrack;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async () => {
    fakes = await startSyncFakes();
    ({ dt, dd } = fakes);
    env = { ...fakes.env, SYNC_DEFECTDOJO_PRODUCT_TYPE: 'Platform' };
  });
  afterEach(() => fakes.close());

  it('reimports every project of every page into its own product, engagement and version test', async () => {
    for (let i = 0; i < 230; i++) dt.projects.push(fpfProject(i, 3, { version: `2.${i}` }));
    const run = await runSync(['sync', '--json', '--concurrency', '8'], env);
    assert.equal(run.code, 0, run.all);
    assert.equal(dt.count('projects'), 3, 'pageSize 100: three pages for 230 projects');
    assert.deepEqual(
      dt.calls.filter((c) => c.route === 'projects').map((c) => new URL(c.url, dt.url).searchParams.get('pageNumber')).sort(),
      ['1', '2', '3'],
    );
    assert.equal(dd.uploads.length, 230);
    const first = dd.uploads.find((u) => u.fields.product_name === 'acme/service-000')!;
    assert.deepEqual(first.fields, {
      scan_type: FPF,
      product_type_name: 'Platform',
      product_name: 'acme/service-000',
      engagement_name: 'Dependency-Track',
      auto_create_context: 'true',
      close_old_findings: 'true',
      deduplication_on_engagement: 'true',
      test_title: '2.0',
      // The project's version, stored on the test by DefectDojo.
      version: '2.0',
      // The report's digest (defectdojo/digests.ts).
      build_id: first.fields.build_id,
    });
    assert.match(first.fields.build_id!, /^gatehouse:sha256:[0-9a-f]{64}$/);
    assert.match(first.filename, /\.json$/);
    assert.equal(dd.products.size, 230);
    const report = run.report!;
    assert.equal(report.ok, true);
    assert.deepEqual(
      { items: report.totals.items, synced: report.totals.synced, failed: report.totals.failed, findings: report.totals.findings, created: report.totals.created },
      { items: 230, synced: 230, failed: 0, findings: 690, created: 690 },
    );
    assert.ok(dd.peakInFlight <= 8, `at most 8 reimports at once, saw ${dd.peakInFlight}`);
    assert.ok(run.err.some((l) => /project 230 of 230/.test(l)), 'progress names project i of N');
    assert.ok(run.err.some((l) => /: 3 findings sent; created 3, closed 0, reactivated 0, untouched 0$/.test(l)));
  });

  it('--concurrency N keeps N reimports in flight while DefectDojo takes its time, never more', async () => {
    for (let i = 0; i < 12; i++) dt.projects.push(fpfProject(i, 2));
    dd.delayMs = 100;
    const run = await runSync(['sync', '--json', '--concurrency', '3'], env);
    assert.equal(run.code, 0, run.all);
    assert.equal(dd.uploads.length, 12);
    // Counted from arrival to answer (the fake answers after its handler returns): exactly the bound.
    assert.equal(dd.peakInFlight, 3);
  });

  it('a second run leaves findings untouched, closes what left the export, and keeps versions apart', async () => {
    const p = fpfProject(1, 5);
    dt.projects.push(p, { ...fpfProject(1, 2, { version: '2.0.0' }), uuid: 'second-version' });
    assert.equal((await runSync(['sync'], env)).code, 0);
    (p.findings as unknown[]).pop();
    const again = await runSync(['sync', '--json'], env);
    assert.equal(again.code, 0, again.all);
    const v1 = again.report!.items.find((i) => i.test === '1.0.0')!;
    assert.deepEqual(v1.counts, { created: 0, closed: 1, reactivated: 0, untouched: 4 });
    assert.equal(dd.tests.filter((t) => t.product === 'acme/service-001').length, 2, 'one test per version');
  });

  it('skips inactive projects only when asked', async () => {
    dt.projects.push(fpfProject(1, 1), fpfProject(2, 1, { active: false }));
    assert.equal((await runSync(['sync', '--json'], env)).report!.totals.synced, 2);
    const run = await runSync(['sync', '--json'], { ...env, SYNC_DEPENDENCYTRACK_EXCLUDE_INACTIVE: 'true' });
    assert.deepEqual(run.report!.items.map((i) => i.product), ['acme/service-001']);
    assert.equal(new URL(dt.calls.at(-2)!.url, dt.url).searchParams.get('excludeInactive'), 'true');
  });

  it('sends each real FPF export whole, its findings folded where DefectDojo would hash them alike, and counts what it sent', async () => {
    const files = ['dd__dependency_track_4.10_2024_02_11.json', 'dd__deptrack_npm_4.14.1.json', 'dd__one_finding_with_analysis_detail.json', 'dd__no_findings_because_findings_key_is_empty_list.json'];
    files.forEach((file, i) => dt.projects.push({ uuid: `fixture-${i}`, name: file, version: 'main', document: readFileSync(fixturePath('sync', file), 'utf8') }));
    const run = await runSync(['sync', '--json'], env);
    assert.equal(run.code, 0, run.all);
    // The npm export names 6 vulnerabilities twice (a GHSA and its CVE) and lists one finding twice: 22 findings, 15 sent.
    const expected: Record<string, number> = { 'dd__dependency_track_4.10_2024_02_11.json': 1, 'dd__deptrack_npm_4.14.1.json': 15, 'dd__one_finding_with_analysis_detail.json': 1, 'dd__no_findings_because_findings_key_is_empty_list.json': 0 };
    for (const file of files) {
      const original = JSON.parse(readFileSync(fixturePath('sync', file), 'utf8')) as { findings: unknown[] };
      const sent = JSON.parse(dd.uploads.find((u) => u.fields.product_name === file)!.text!) as { findings: unknown[] };
      assert.deepEqual({ ...sent, findings: undefined }, { ...original, findings: undefined }, `${file}: everything but the findings arrives as exported`);
      const item = run.report!.items.find((r) => r.product === file)!;
      assert.deepEqual([item.status, item.findings, sent.findings.length], ['synced', expected[file], expected[file]], file);
    }
    const npm = run.report!.items.find((r) => r.product === 'dd__deptrack_npm_4.14.1.json')!;
    assert.deepEqual(npm.notes, ["7 of the export's 22 findings name the same vulnerability of the same component as another (an alias, or listed twice): sent as 15 findings, each with all its ids"]);
  });

  it('never prints a token or key, also when the services refuse them', async () => {
    dt.projects.push(fpfProject(1, 1));
    const wrong = await runSync(['sync', '--json'], { ...env, DEFECTDOJO_TOKEN: 'wrong-dd-token-0123456789' });
    assert.equal(wrong.code, 1);
    assert.match(wrong.report!.error!, /DefectDojo at http:\/\/127\.0\.0\.1:\d+ refused DEFECTDOJO_TOKEN: answered 403 \(Invalid token\.\)/);
    assert.ok(!wrong.all.includes('wrong-dd-token-0123456789'));
    const badKey = await runSync(['sync'], { ...env, DEPENDENCY_TRACK_API_KEY: 'odt_wrongKey0123456789' });
    assert.equal(badKey.code, 1);
    assert.match(badKey.all, /Dependency-Track at http:\/\/127\.0\.0\.1:\d+ refused DEPENDENCY_TRACK_API_KEY: answered 401/);
    assert.ok(!badKey.all.includes('odt_wrongKey0123456789') && !badKey.all.includes(dd.token));
    assert.ok(dt.calls.every((c) => c.apiKey !== undefined), 'X-Api-Key on every call');
    assert.ok(dd.calls.every((c) => c.authorization?.startsWith('Token ')), 'Authorization: Token on every call');
  });

  it('checks the configuration before any call and names what is missing', async () => {
    const run = await runSync(['sync'], { SYNC_DEFECTDOJO_URL: 'ftp://dd', DEFECTDOJO_TOKEN: 'secret-token-value' });
    assert.equal(run.code, 2);
    assert.match(run.all, /defectdojo\.url \(from SYNC_DEFECTDOJO_URL\) must be an http\(s\) URL/);
    const missing = await runSync(['sync'], { SYNC_DEFECTDOJO_URL: dd.url });
    assert.equal(missing.code, 2);
    assert.match(missing.all, /DEFECTDOJO_TOKEN is required/);
    assert.match(missing.all, /sources\.dependencytrack\.url is required/);
    assert.match(missing.all, /DEPENDENCY_TRACK_API_KEY is required/);
    assert.equal(dt.calls.length + dd.calls.length, 0);
  });

  it('the bin bundle (dist/sync/cli) syncs, prints one JSON summary on stdout and exits 1 when a project failed', async () => {
    dt.projects.push(fpfProject(1, 2), fpfProject(2, 2));
    dd.faults.inject('reimport', { status: 400, body: { engagement_name: ['Ensure this field has no more than 255 characters.'] } });
    const result = await runToEnd(process.execPath, [join(REPO_ROOT, 'dist', 'sync', 'cli', 'index.js'), 'sync', '--json', '--concurrency', '1'], {
      env: { PATH: process.env.PATH, ...env },
    });
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout) as { ok: boolean; totals: { synced: number; failed: number } };
    assert.deepEqual({ ok: report.ok, synced: report.totals.synced, failed: report.totals.failed }, { ok: false, synced: 1, failed: 1 });
    assert.match(result.stderr, /\[dependencytrack\] project 1 of 2: acme\/service-001 1\.0\.0: FAILED: DefectDojo reimport-scan of acme\/service-001 answered 400/);
    assert.ok(!result.stdout.includes(dd.token) && !result.stderr.includes(dt.apiKey));
  });
});

describe('gatehouse-sync: a Dependency-Track or DefectDojo redirect is not followed (credentials and reports go to the configured URL only)', () => {
  let fakes: SyncFakes;
  let elsewhere: Listening;
  const reached: { method: string; url: string; apiKey?: string; bytes: number }[] = [];

  beforeEach(async () => {
    fakes = await startSyncFakes(1, 2);
    reached.length = 0;
    elsewhere = await listen(async (req, res) => {
      const body = await readBody(req);
      reached.push({ method: req.method ?? '', url: req.url ?? '', ...(typeof req.headers['x-api-key'] === 'string' ? { apiKey: req.headers['x-api-key'] } : {}), bytes: body.length });
      res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '0' }).end('[]');
    });
  });
  afterEach(async () => {
    await elsewhere.close();
    await fakes.close();
  });

  const env = () => ({ ...fakes.env, SYNC_DEFECTDOJO_PRODUCT_TYPE: 'Platform' });

  it("Dependency-Track's project list answered 307 to another host: the run fails naming the redirect, and the API key never leaves for it", async () => {
    fakes.dt.faults.inject('projects', { status: 307, headers: { location: `${elsewhere.url}/api/v1/project?pageNumber=1` }, body: {} });
    const run = await runSync(['sync', '--json'], env());
    assert.notEqual(run.code, 0, run.all);
    assert.match(run.all, /answered 307: a redirect to http:\/\/127\.0\.0\.1:\d+, not followed/);
    assert.deepEqual(reached, []);
    assert.ok(!run.all.includes(fakes.dt.apiKey));
  });

  it('a DefectDojo reimport answered 307 to another host: the report is not re-sent there, the item fails naming the redirect', async () => {
    fakes.dd.faults.inject('reimport', { status: 307, headers: { location: `${elsewhere.url}/api/v2/reimport-scan/` }, body: {} }, 5);
    const run = await runSync(['sync', '--json'], env());
    assert.notEqual(run.code, 0, run.all);
    assert.equal(run.report!.items[0]!.status, 'failed');
    assert.match(run.report!.items[0]!.reason!, /answered 307: a redirect to http:\/\/127\.0\.0\.1:\d+, not followed/);
    assert.deepEqual(reached, []);
    assert.equal(fakes.dd.calls.filter((c) => c.route === 'reimport').length, 1, 'a redirect is final: not retried');
  });
});
