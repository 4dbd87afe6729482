import assert from 'node:assert/strict';
import { scanFactFields } from '../../server/sync/defectdojo/client.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { readFixture } from '../support/fixtures.js';
import { codeScanningAlert, dependabotAlert } from '../support/github-alert-objects.js';
import { fpfProject, runSync, startSyncFakes, type SyncFakes } from './support.js';

// Reimports that respect triage (do_not_reactivate) and carry what DefectDojo stores of the scan.

describe('reimports that respect triage (do_not_reactivate)', () => {
  let fakes: SyncFakes;
  beforeEach(async () => {
    fakes = await startSyncFakes();
  });
  afterEach(() => fakes.close());

  /** Syncs one project of three findings, then mitigates the first and marks the second a false positive in DefectDojo. */
  async function triaged(env: Record<string, string>) {
    const { dt, dd } = fakes;
    dt.projects.push(fpfProject(1, 3));
    assert.equal((await runSync(['sync'], env)).code, 0);
    const [mitigated, falsePositive] = dd.findings().map((f) => f.finding);
    dd.setStatus(mitigated!.id, { isMitigated: true, active: false });
    dd.setStatus(falsePositive!.id, { falseP: true });
    // A new finding: the report changed, so it is sent (an unchanged one would not be).
    dt.projects[0] = fpfProject(1, 4);
    const run = await runSync(['sync', '--json'], env);
    assert.equal(run.code, 0, run.all);
    return { mitigated: mitigated!, falsePositive: falsePositive!, counts: run.report!.items[0]!.counts };
  }

  it('off (the default): the next reimport re-opens a finding mitigated in DefectDojo that the report still holds', async () => {
    const { mitigated, falsePositive, counts } = await triaged(fakes.env);
    assert.equal(fakes.dd.uploads.at(-1)!.fields.do_not_reactivate, undefined);
    assert.equal(mitigated.active, true);
    assert.equal(mitigated.isMitigated, false);
    // A false positive is never re-opened by a reimport, with or without the option.
    assert.equal(falsePositive.active, false);
    assert.deepEqual(counts, { created: 1, closed: 0, reactivated: 1, untouched: 1 });
  });

  it('defectdojo.doNotReactivate (SYNC_DEFECTDOJO_DO_NOT_REACTIVATE): every reimport sends do_not_reactivate=true and the triage holds', async () => {
    const { mitigated, falsePositive, counts } = await triaged({ ...fakes.env, SYNC_DEFECTDOJO_DO_NOT_REACTIVATE: 'true' });
    assert.ok(fakes.dd.uploads.every((u) => u.fields.do_not_reactivate === 'true'));
    assert.equal(mitigated.active, false);
    assert.equal(mitigated.isMitigated, true);
    assert.equal(falsePositive.active, false);
    assert.deepEqual(counts, { created: 1, closed: 0, reactivated: 0, untouched: 1 });
  });

  it('the option is checked like every boolean setting', async () => {
    const run = await runSync(['sync'], { ...fakes.env, SYNC_DEFECTDOJO_DO_NOT_REACTIVATE: 'maybe' });
    assert.equal(run.code, 2);
    assert.match(run.all, /defectdojo\.doNotReactivate \(from SYNC_DEFECTDOJO_DO_NOT_REACTIVATE\) must be true or false/);
  });
});

describe('reimports carry what DefectDojo can store about the scan', () => {
  it('Dependency-Track: the project version, and its vcs external reference as the repository', async () => {
    const fakes = await startSyncFakes();
    try {
      const { dt, dd } = fakes;
      dt.projects.push({ ...fpfProject(1, 2, { version: '2.4.1' }), externalReferences: [{ type: 'vcs', url: 'https://git.example.com/acme/service-001' }] });
      dt.projects.push(fpfProject(2, 1, { version: '1.0.0' }));
      assert.equal((await runSync(['sync', '--concurrency', '1'], fakes.env)).code, 0);
      const [first, second] = dd.uploads;
      assert.equal(first!.fields.version, '2.4.1');
      assert.equal(first!.fields.source_code_management_uri, 'https://git.example.com/acme/service-001');
      assert.equal(second!.fields.source_code_management_uri, undefined);
      assert.equal(dd.testOf('acme/service-001', 'Dependency Track Finding Packaging Format (FPF) Export')!.version, '2.4.1');
      assert.equal([...dd.engagements.values()][0]!.sourceCodeManagementUri, 'https://git.example.com/acme/service-001');
      for (const upload of dd.uploads) for (const field of ['commit_hash', 'branch_tag']) assert.equal(upload.fields[field], undefined, `${field}: Dependency-Track knows none`);
    } finally {
      await fakes.close();
    }
  });

  it('GitHub: the repository address on every kind, the analysed commit and branch for code scanning, the default branch for Dependabot', async () => {
    const github = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    const dd = await FakeDefectDojo.start();
    try {
      const place = { owner: 'acme', repo: 'api' };
      const commit = 'a'.repeat(40);
      const onBranch = (ref: string, sha: string, number: number) => codeScanningAlert(place, { number, rule: 'py/path-injection', path: 'src/file2.py', line: 78, ref, commitSha: sha });
      const [dependabot] = readFixture<Record<string, any>[]>('sync', 'github__dependabot_alerts_rest_example.json');
      github.addRepo({
        owner: 'acme',
        name: 'api',
        defaultBranch: 'trunk',
        // A pull request's analysis first in the list: the default branch's is taken.
        codeScanning: [onBranch('refs/pull/7/merge', 'b'.repeat(40), 1), onBranch('refs/heads/trunk', commit, 2)],
        dependabot: [dependabotAlert(place, dependabot!, { number: 1 })],
        secretScanning: [],
      });
      const env = { SYNC_DEFECTDOJO_URL: dd.url, DEFECTDOJO_TOKEN: dd.token, GITHUB_TARGETS: JSON.stringify([{ server: github.server, owners: ['acme'], token: github.token }]) };
      const run = await runSync(['sync-github', '--json'], env);
      assert.equal(run.code, 0, run.all);
      const byTest = new Map(dd.uploads.map((u) => [u.fields.test_title, u.fields]));
      const repo = `${github.server}/acme/api`;
      assert.deepEqual(
        [byTest.get('Code scanning')!.commit_hash, byTest.get('Code scanning')!.branch_tag, byTest.get('Code scanning')!.source_code_management_uri],
        [commit, 'trunk', repo],
      );
      assert.deepEqual([byTest.get('Dependabot alerts')!.branch_tag, byTest.get('Dependabot alerts')!.commit_hash], ['trunk', undefined]);
      assert.equal(byTest.get('Dependabot alerts')!.source_code_management_uri, repo);
      assert.equal(dd.testOf('acme/api', 'Github SAST Scan')!.commitHash, commit);
      assert.equal(dd.testOf('acme/api', 'Github SAST Scan')!.branchTag, 'trunk');
    } finally {
      await github.close();
      await dd.close();
    }
  });

  it('a value DefectDojo cannot store is left out with a note instead of failing the reimport', () => {
    const notes: string[] = [];
    const fields = scanFactFields(
      { version: 'v'.repeat(101), commitHash: ` ${'c'.repeat(40)} `, branchTag: '', buildId: 'b'.repeat(150), sourceCodeManagementUri: 'git@github.com:acme/api.git' },
      (text) => notes.push(text),
    );
    assert.deepEqual(fields, { commit_hash: 'c'.repeat(40), build_id: 'b'.repeat(150) });
    assert.deepEqual(notes, ['version is longer than DefectDojo stores (100 characters); not sent', 'source_code_management_uri is not an http(s) address; not sent']);
  });

  it("the DefectDojo fake refuses what DefectDojo's serializer and database refuse", async () => {
    const dd = await FakeDefectDojo.start();
    try {
      const post = async (extra: Record<string, string>) => {
        const form = new FormData();
        for (const [k, v] of Object.entries({ scan_type: 'Github SAST Scan', product_name: 'p', engagement_name: 'e', product_type_name: 't', auto_create_context: 'true', test_title: 't', ...extra })) form.append(k, v);
        form.append('file', new Blob(['[]'], { type: 'application/json' }), 'r.json');
        const encoded = new Response(form);
        const contentType = encoded.headers.get('content-type')!;
        const body = Buffer.from(await encoded.arrayBuffer());
        const res = await fetch(`${dd.url}/api/v2/reimport-scan/`, { method: 'POST', headers: { authorization: `Token ${dd.token}`, 'content-type': contentType, 'content-length': String(body.length) }, body });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      assert.deepEqual((await post({ do_not_reactivate: 'sometimes' })).body.do_not_reactivate, ['Must be a valid boolean.']);
      assert.deepEqual((await post({ source_code_management_uri: 'not a url' })).body.source_code_management_uri, ['Enter a valid URL.']);
      assert.equal((await post({ version: 'v'.repeat(101) })).status, 500);
      assert.equal((await post({ commit_hash: 'c'.repeat(151) })).status, 500);
      assert.equal((await post({ do_not_reactivate: 'True', version: '1.0', build_id: 'b1' })).status, 201);
      assert.deepEqual([dd.tests[0]!.version, dd.tests[0]!.buildId], ['1.0', 'b1']);
      // update_test_meta: a reimport that leaves a field out writes it empty.
      assert.equal((await post({ version: '1.1' })).status, 201);
      assert.deepEqual([dd.tests[0]!.version, dd.tests[0]!.buildId], ['1.1', '']);
    } finally {
      await dd.close();
    }
  });
});
