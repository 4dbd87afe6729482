import assert from 'node:assert/strict';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { FakeSonarQube } from '../support/fake-sonarqube.js';
import { runSync, startSyncFakes, fpfProject, type SyncFakes } from './support.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('credentials are checked before anything is exported, and a refusal names the credential and the server', () => {
  let fakes: SyncFakes;

  beforeEach(async () => {
    fakes = await startSyncFakes(0);
    for (let i = 0; i < 3; i++) fakes.dt.projects.push(fpfProject(i, 2));
  });
  afterEach(() => fakes.close());

  it('a refused DefectDojo token: no export, no upload, DEFECTDOJO_TOKEN and DefectDojo’s address named, the token never printed', async () => {
    const token = 'dd-refused-token-0123456789abcdef';
    const run = await runSync(['sync', '--json'], { ...fakes.env, DEFECTDOJO_TOKEN: token });
    assert.equal(run.code, 1);
    assert.match(run.report!.error!, new RegExp(`nothing was exported: DefectDojo at ${escape(fakes.dd.url)} refused DEFECTDOJO_TOKEN: answered 403 \\(Invalid token\\.\\)`));
    assert.equal(fakes.dt.count('export'), 0, 'not one export');
    assert.equal(fakes.dt.count('projects'), 0, 'Dependency-Track is not even listed');
    assert.equal(fakes.dd.count('reimport'), 0);
    assert.deepEqual(fakes.dd.calls.map((c) => c.route), ['user_profile']);
    assert.ok(!run.all.includes(token));
  });

  it('a refused Dependency-Track key, or one whose team lacks a permission, is named with the server before any export', async () => {
    const key = 'odt_refusedKey0123456789abcdef';
    const refused = await runSync(['sync', '--json'], { ...fakes.env, DEPENDENCY_TRACK_API_KEY: key });
    assert.equal(refused.code, 1);
    assert.match(refused.report!.error!, new RegExp(`Dependency-Track at ${escape(fakes.dt.url)} refused DEPENDENCY_TRACK_API_KEY: answered 401`));
    assert.ok(!refused.all.includes(key));
    fakes.dt.permissions = ['VIEW_PORTFOLIO'];
    const lacking = await runSync(['sync', '--json'], fakes.env);
    assert.equal(lacking.code, 1);
    assert.match(lacking.report!.error!, /refused DEPENDENCY_TRACK_API_KEY: the key's team lacks the permission VIEW_VULNERABILITY/);
    assert.equal(fakes.dt.count('export') + fakes.dd.count('reimport'), 0);
  });

  it('a SonarQube token that api/authentication/validate calls invalid (200, valid: false) is named before anything is read', async () => {
    const sonar = await FakeSonarQube.start();
    const dd = await FakeDefectDojo.start();
    try {
      sonar.addProject('acme_api', 'acme/api', [FakeSonarQube.issue('acme_api', 1)]);
      const env = { SYNC_SONARQUBE_URL: sonar.url, SYNC_DEFECTDOJO_URL: dd.url, DEFECTDOJO_TOKEN: dd.token, SONARQUBE_TOKEN: 'squ_refused0123456789' };
      const run = await runSync(['sync-sonarqube', '--json'], env);
      assert.equal(run.code, 1);
      assert.match(run.report!.error!, new RegExp(`SonarQube at ${escape(sonar.url)} refused SONARQUBE_TOKEN: api/authentication/validate answered valid: false`));
      assert.deepEqual(sonar.calls.map((c) => c.route), ['validate']);
      assert.equal(dd.count('reimport'), 0);
      assert.ok(!run.all.includes('squ_refused0123456789'));
    } finally {
      await sonar.close();
      await dd.close();
    }
  });

  it('a GitHub target whose token is refused is named by its server; the other target still syncs', async () => {
    const good = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    const bad = await FakeGitHubAlerts.start({ prefix: '/api/v3', token: 'ghe_realToken0123456789abcdefXYZ' });
    try {
      good.orgs.add('acme');
      good.addRepo({ owner: 'acme', name: 'api', dependabot: [] });
      good.missingOwners.add('ghost');
      bad.orgs.add('corp');
      const env = {
        SYNC_DEFECTDOJO_URL: fakes.dd.url,
        DEFECTDOJO_TOKEN: fakes.dd.token,
        GITHUB_TARGETS: JSON.stringify([
          { server: good.server, owners: ['acme'], token: good.token },
          { server: good.server, owners: ['ghost'], token: good.token },
          { server: bad.server, owners: ['corp'], token: 'ghe_wrongToken0123456789abcdefXYZ' },
        ]),
      };
      const run = await runSync(['sync-github', '--json'], env);
      assert.equal(run.code, 1);
      const failed = run.report!.items.filter((i) => i.status === 'failed');
      assert.equal(failed.length, 2);
      assert.match(failed.find((i) => i.product === 'corp')!.reason!, new RegExp(`GitHub at ${escape(bad.server)} refused the token of its GITHUB_TARGETS entry: answered 401 \\(Bad credentials\\)`));
      // An owner the token cannot see (or that does not exist) is named with its server too.
      assert.match(failed.find((i) => i.product === 'ghost')!.reason!, new RegExp(`GitHub at ${escape(good.server)}: owner ghost does not exist, or the token of its GITHUB_TARGETS entry cannot see it`));
      assert.ok(run.report!.items.some((i) => i.product === 'acme/api' && i.status !== 'failed'));
      assert.ok(!run.all.includes('ghe_wrongToken0123456789abcdefXYZ'));
    } finally {
      await good.close();
      await bad.close();
    }
  });
});
