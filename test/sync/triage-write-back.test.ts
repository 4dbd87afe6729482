import assert from 'node:assert/strict';
import { findingRefOf } from '../../server/sync/dependency-track/triage.js';
import { runSync, startSyncFakes, type SyncFakes } from './support.js';

// DefectDojo's false positives and accepted risks written back to Dependency-Track as analyses.

const PROJECT = '6fb1820f-5280-4577-ac51-40124aabe307';
const uuid = (n: number, kind: 'c' | 'v') => `${kind === 'c' ? '4d5cd8df' : '941a93f5'}-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A project whose findings carry real UUIDs, as Dependency-Track exports them (the `matrix` is project:component:vulnerability). */
function project() {
  return {
    uuid: PROJECT,
    name: 'acme/api',
    version: '1.0.0',
    findings: [1, 2, 3].map((n) => ({
      component: { uuid: uuid(n, 'c'), name: `lib-${n}`, version: '1.0.0' },
      vulnerability: { uuid: uuid(n, 'v'), vulnId: `CVE-2026-000${n}`, source: 'NVD', severity: 'HIGH' },
      analysis: { isSuppressed: false },
      matrix: `${PROJECT}:${uuid(n, 'c')}:${uuid(n, 'v')}`,
    })),
  };
}

describe('two-way triage: DefectDojo → Dependency-Track analyses (sources.dependencytrack.writeBackTriage)', () => {
  let fakes: SyncFakes;
  beforeEach(async () => {
    fakes = await startSyncFakes();
    fakes.dt.projects.push(project());
    fakes.dt.permissions.push('VULNERABILITY_ANALYSIS');
  });
  afterEach(() => fakes.close());

  const findingOf = (n: number) => fakes.dd.findings().find((f) => f.finding.vulnerabilityIds?.includes(`CVE-2026-000${n}`))!.finding;
  const key = (n: number) => `${PROJECT}:${uuid(n, 'c')}:${uuid(n, 'v')}`;
  const analysisCalls = () => fakes.dt.calls.filter((c) => c.route === 'analysis');

  it('off by default: nothing is written to Dependency-Track', async () => {
    assert.equal((await runSync(['sync'], fakes.env)).code, 0);
    fakes.dd.setStatus(findingOf(1).id, { falseP: true });
    assert.equal((await runSync(['sync'], fakes.env)).code, 0);
    assert.equal(analysisCalls().length, 0);
    assert.equal(fakes.dt.analyses.size, 0);
  });

  it('a false positive becomes FALSE_POSITIVE, an accepted risk NOT_AFFECTED, each with a comment naming DefectDojo; a decision made in Dependency-Track stays; a second run writes nothing', async () => {
    const env = { ...fakes.env, SYNC_DEPENDENCYTRACK_WRITE_BACK_TRIAGE: 'true' };
    assert.equal((await runSync(['sync'], env)).code, 0);
    fakes.dd.setStatus(findingOf(1).id, { falseP: true });
    fakes.dd.setStatus(findingOf(2).id, { riskAccepted: true, active: false });
    fakes.dd.setStatus(findingOf(3).id, { falseP: true });
    // Finding 3 was already decided in Dependency-Track.
    fakes.dt.analyses.set(key(3), { analysisState: 'EXPLOITABLE', isSuppressed: false, comments: ['confirmed by the red team'] });
    const run = await runSync(['sync', '--json'], env);
    assert.equal(run.code, 0, run.all);
    assert.deepEqual(run.report!.triage, { written: 2, unchanged: 0, kept: 1, failed: 0, out_of_scope: 0 });
    const fp = fakes.dt.analyses.get(key(1))!;
    assert.equal(fp.analysisState, 'FALSE_POSITIVE');
    assert.equal(fp.isSuppressed, false, 'suppression is left as it is');
    assert.match(fp.comments[0]!, new RegExp(`^Gatehouse: marked as a false positive in DefectDojo \\(finding ${findingOf(1).id}: ${fakes.dd.url}/finding/${findingOf(1).id}\\)`));
    assert.equal(fakes.dt.analyses.get(key(2))!.analysisState, 'NOT_AFFECTED');
    assert.match(fakes.dt.analyses.get(key(2))!.comments[0]!, /had its risk accepted in DefectDojo/);
    assert.deepEqual(fakes.dt.analyses.get(key(3)), { analysisState: 'EXPLOITABLE', isSuppressed: false, comments: ['confirmed by the red team'] });
    const puts = () => fakes.dt.calls.filter((c) => c.route === 'analysis' && !c.url.includes('?')).length;
    assert.equal(puts(), 2);
    const again = await runSync(['sync', '--json'], env);
    assert.deepEqual(again.report!.triage, { written: 0, unchanged: 2, kept: 1, failed: 0, out_of_scope: 0 });
    assert.equal(puts(), 2, 'nothing written twice');
    assert.match(again.out.join('\n'), /"triage"/);
  });

  it('needs VULNERABILITY_ANALYSIS on the key: refused before anything is exported, naming the permission', async () => {
    fakes.dt.permissions.pop();
    const run = await runSync(['sync', '--json'], { ...fakes.env, SYNC_DEPENDENCYTRACK_WRITE_BACK_TRIAGE: 'true' });
    assert.equal(run.code, 1);
    assert.match(run.report!.error!, /lacks the permission VULNERABILITY_ANALYSIS/);
    assert.equal(fakes.dt.count('export'), 0);
  });

  it("never writes to a project other than the finding's own product's: keys naming another team's project, or an inactive excluded one, are skipped, counted and warned by finding id", async () => {
    // beta/app is another team's project, synced by the same run into its own product; acme/old is
    // inactive, so excluded. A finding imported into acme/api carries keys that name both.
    const BETA = '22222222-2222-4222-8222-222222222222';
    const OLD = '33333333-3333-4333-8333-333333333333';
    const crafted = (n: number, projectUuid: string) => ({
      component: { uuid: uuid(n, 'c'), name: `lib-${n}`, version: '1.0.0' },
      vulnerability: { uuid: uuid(n, 'v'), vulnId: `CVE-2026-000${n}`, source: 'NVD', severity: 'HIGH' },
      analysis: { isSuppressed: false },
      matrix: `${projectUuid}:${uuid(n, 'c')}:${uuid(n, 'v')}`,
    });
    fakes.dt.projects[0] = { ...fakes.dt.projects[0]!, findings: [...(fakes.dt.projects[0]!.findings ?? []), crafted(4, BETA), crafted(5, OLD)] };
    // Each key names a finding its project really has, so Dependency-Track would accept the write.
    fakes.dt.projects.push({ uuid: BETA, name: 'beta/app', version: '2.0.0', findings: [crafted(4, BETA)] });
    fakes.dt.projects.push({ uuid: OLD, name: 'acme/old', version: '0.1.0', active: false, findings: [crafted(5, OLD)] });
    const ours = (n: number) => fakes.dd.findings().find((f) => f.test.product === 'acme/api' && f.finding.vulnerabilityIds?.includes(`CVE-2026-000${n}`))!.finding;
    const env = { ...fakes.env, SYNC_DEPENDENCYTRACK_WRITE_BACK_TRIAGE: 'true', SYNC_DEPENDENCYTRACK_EXCLUDE_INACTIVE: 'true' };
    assert.equal((await runSync(['sync'], env)).code, 0);
    fakes.dd.setStatus(findingOf(1).id, { falseP: true });
    fakes.dd.setStatus(ours(4).id, { falseP: true });
    fakes.dd.setStatus(ours(5).id, { riskAccepted: true, active: false });
    const run = await runSync(['sync', '--json'], env);
    assert.equal(run.code, 0, run.all);
    assert.deepEqual(run.report!.triage, { written: 1, unchanged: 0, kept: 0, failed: 0, out_of_scope: 2 });
    assert.equal(fakes.dt.analyses.get(key(1))!.analysisState, 'FALSE_POSITIVE');
    assert.deepEqual([...fakes.dt.analyses.keys()], [key(1)], "only the product's own project is written to");
    for (const n of [4, 5]) assert.match(run.all, new RegExp(`DefectDojo finding ${ours(n).id} of acme/api names a Dependency-Track project this run did not sync into acme/api; skipped`));
    assert.ok(!run.err.some((l) => /skipped \(out of scope\)/.test(l) && (l.includes(BETA) || l.includes(OLD))), 'the warning names the finding, not the key');
  });

  it('a false positive of a finding the export folded (a GHSA and its CVE) is written to both of Dependency-Track\'s findings', async () => {
    const component = { uuid: uuid(9, 'c'), name: 'axios', version: '1.13.6' };
    const ghsa = '2e7ae170-4d94-43c4-bb2b-b7baf24c2148';
    const cve = '7a287e6d-2df0-47a7-974d-81d49e533223';
    const alias = { ghsaId: 'GHSA-3p68-rc4w-qgx5', cveId: 'CVE-2025-62718' };
    fakes.dt.projects[0] = {
      ...fakes.dt.projects[0]!,
      findings: [
        { component, vulnerability: { uuid: ghsa, vulnId: 'GHSA-3p68-rc4w-qgx5', source: 'GITHUB', severity: 'MEDIUM', aliases: [alias] }, analysis: { isSuppressed: false }, matrix: `${PROJECT}:${component.uuid}:${ghsa}` },
        { component, vulnerability: { uuid: cve, vulnId: 'CVE-2025-62718', source: 'NVD', severity: 'MEDIUM', aliases: [alias] }, analysis: { isSuppressed: false }, matrix: `${PROJECT}:${component.uuid}:${cve}` },
      ],
    };
    const env = { ...fakes.env, SYNC_DEPENDENCYTRACK_WRITE_BACK_TRIAGE: 'true' };
    assert.equal((await runSync(['sync'], env)).code, 0);
    assert.equal(fakes.dd.findings().length, 1, 'one finding in DefectDojo');
    fakes.dd.setStatus(fakes.dd.findings()[0]!.finding.id, { falseP: true });
    const run = await runSync(['sync', '--json'], env);
    assert.deepEqual(run.report!.triage, { written: 2, unchanged: 0, kept: 0, failed: 0, out_of_scope: 0 });
    assert.deepEqual(
      [fakes.dt.analyses.get(`${PROJECT}:${component.uuid}:${ghsa}`)?.analysisState, fakes.dt.analyses.get(`${PROJECT}:${component.uuid}:${cve}`)?.analysisState],
      ['FALSE_POSITIVE', 'FALSE_POSITIVE'],
    );
  });

  it('reads the three UUIDs from the FPF matrix DefectDojo keeps, and nothing else', () => {
    assert.deepEqual(findingRefOf(key(1)), { project: PROJECT, component: uuid(1, 'c'), vulnerability: uuid(1, 'v') });
    assert.equal(findingRefOf('dependabot/3'), undefined);
    assert.equal(findingRefOf(`${PROJECT}:c-1:v-1`), undefined);
  });
});
