import assert from 'node:assert/strict';
import type { Release } from '../support/defectdojo-releases.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { codeScanningAlert, dependabotAlert, secretScanningAlert } from '../support/github-alert-objects.js';
import { readFixture } from '../support/fixtures.js';
import { configFile, runSync } from './support.js';

// Each GitHub alert kind has its switch, and a DefectDojo release without a kind's parser costs
// one warning per run, not a failed run (docs/sync.md, "DefectDojo releases").

function dependabotAlerts(place: { owner: string; repo: string }): Record<string, unknown>[] {
  const [example] = readFixture<Record<string, any>[]>('sync', 'github__dependabot_alerts_rest_example.json');
  return [1, 2].map((number) => dependabotAlert(place, example!, { number, manifestPath: `svc-${number}/requirements.txt` }));
}

describe('GitHub alert kinds: a switch each, and a DefectDojo without a parser', () => {
  let github: FakeGitHubAlerts;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  async function start(release: Release, repositories = ['api', 'web', 'lib']): Promise<void> {
    github = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    dd = await FakeDefectDojo.start(undefined, { release });
    github.orgs.add('acme');
    for (const [i, name] of repositories.entries()) {
      const place = { owner: 'acme', repo: name };
      github.addRepo({
        owner: 'acme',
        name,
        codeScanning: [codeScanningAlert(place, { number: 1, rule: 'js/sql-injection', path: 'src/db.js', line: 10 + i })],
        dependabot: dependabotAlerts(place),
        secretScanning: [secretScanningAlert(place, { number: 1 })],
      });
    }
    env = { SYNC_DEFECTDOJO_URL: dd.url, DEFECTDOJO_TOKEN: dd.token, GITHUB_TARGETS: JSON.stringify([{ server: github.server, owners: ['acme'], token: github.token }]) };
  }
  afterEach(async () => {
    await github?.close();
    await dd?.close();
  });

  // The warning lines (each skipped item's own progress line gives its reason too).
  const refusals = (run: { err: string[] }) => run.err.filter((l) => l.includes('skipped for the rest of this run'));

  it('DefectDojo 2.45.0 (neither parser): each kind refused once, skipped for the rest of the run with one warning naming the release that has it; Dependabot syncs; exit 0', async () => {
    await start('2.45.0');
    for (const round of [1, 2]) {
      const reimports = dd.count('reimport');
      const lists = github.count('code_scanning');
      const run = await runSync(['sync-github', '--json', '--concurrency', '1'], env);
      assert.equal(run.code, 0, run.all);
      assert.equal(run.report!.ok, true);
      assert.deepEqual(refusals(run).map((l) => l.replace(dd.url, '<dd>')), [
        '[github] DefectDojo at <dd> does not know the scan type "Github SAST Scan": the server is too old for this source; it needs DefectDojo 2.52.0 or later; code-scanning alerts are skipped for the rest of this run (sources.github.codeScanning: false, or SYNC_GITHUB_CODE_SCANNING=false, turns them off)',
        '[github] DefectDojo at <dd> does not know the scan type "Github Secrets Detection Report Scan": the server is too old for this source; it needs DefectDojo 2.51.0 or later; secret-scanning alerts are skipped for the rest of this run (sources.github.secretScanning: false, or SYNC_GITHUB_SECRET_SCANNING=false, turns them off)',
      ]);
      const byKind = (kind: string) => run.report!.items.filter((i) => i.label.endsWith(kind));
      assert.deepEqual(byKind('code-scanning').map((i) => [i.status, /2\.52\.0 or later/.test(i.reason ?? '')]), [['skipped', true], ['skipped', true], ['skipped', true]]);
      assert.deepEqual(byKind('secret-scanning').map((i) => [i.status, /2\.51\.0 or later/.test(i.reason ?? '')]), [['skipped', true], ['skipped', true], ['skipped', true]]);
      assert.deepEqual(byKind('dependabot').map((i) => i.status), ['synced', 'synced', 'synced']);
      // Per run: one refused reimport per unknown kind, and the later repositories' lists not read.
      const dependabotSent = round === 1 ? 3 : 0;
      assert.equal(dd.count('reimport') - reimports, 2 + dependabotSent, `round ${round}`);
      assert.equal(github.count('code_scanning') - lists, 1, `round ${round}: code scanning read for the first repository only`);
    }
  });

  it('in flight together (concurrency 4): still one warning per kind, every item skipped, none failed', async () => {
    await start('2.45.0', ['a', 'b', 'c', 'd', 'e', 'f']);
    const run = await runSync(['sync-github', '--json', '--concurrency', '4'], env);
    assert.equal(run.code, 0, run.all);
    assert.equal(refusals(run).length, 2);
    assert.equal(run.report!.totals.failed, 0);
    assert.equal(run.report!.totals.skipped, 12);
    assert.equal(run.report!.totals.synced, 6);
  });

  it('DefectDojo 2.51.0: secret scanning syncs; only code scanning is skipped', async () => {
    await start('2.51.0', ['api']);
    const run = await runSync(['sync-github', '--json'], env);
    assert.equal(run.code, 0, run.all);
    assert.deepEqual(run.report!.items.map((i) => [i.label, i.status]), [
      ['acme/api code-scanning', 'skipped'],
      ['acme/api dependabot', 'synced'],
      ['acme/api secret-scanning', 'synced'],
    ]);
    assert.equal(refusals(run).length, 1);
  });

  it('a kind switched off (environment or file) is neither read from GitHub nor sent, and has no items', async () => {
    await start('3.2.0', ['api']);
    const off = await runSync(['sync-github', '--json'], { ...env, SYNC_GITHUB_CODE_SCANNING: 'false' });
    assert.equal(off.code, 0, off.all);
    assert.deepEqual(off.report!.items.map((i) => i.label), ['acme/api dependabot', 'acme/api secret-scanning']);
    assert.equal(github.count('code_scanning'), 0);
    assert.equal(dd.uploads.filter((u) => u.fields.scan_type === 'Github SAST Scan').length, 0);

    const file = configFile('sources:\n  github:\n    secretScanning: false\n    dependabot: false\n');
    const fromFile = await runSync(['sync-github', '--json', '--config', file], env);
    assert.deepEqual(fromFile.report!.items.map((i) => i.label), ['acme/api code-scanning']);
    assert.equal(github.count('secret_scanning'), 1, 'read by the first run only');

    const bad = await runSync(['sync-github'], { ...env, SYNC_GITHUB_DEPENDABOT: 'no' });
    assert.equal(bad.code, 2);
    assert.match(bad.all, /sources\.github\.dependabot \(from SYNC_GITHUB_DEPENDABOT\) must be true or false/);
  });
});
