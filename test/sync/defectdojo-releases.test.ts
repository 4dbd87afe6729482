import assert from 'node:assert/strict';
import { SCAN_TYPES } from '../../server/sync/defectdojo/scan-types.js';
import { reimportCounts } from '../../server/sync/defectdojo/statistics.js';
import { RELEASES, type Release } from '../support/defectdojo-releases.js';
import { readRecording } from '../support/fixtures.js';
import { fpfAdvisory, fpfExport, runSync, startSyncFakes, FPF_PROJECT as PROJECT, type SyncFakes } from './support.js';

// The sync on each DefectDojo release it supports, where those releases differ (docs/sync.md,
// "DefectDojo releases"), played against the fake started as that release. The fake's release
// behaviours are checked against answers recorded from the real DefectDojo 2.45.0.

/**
 * Two GHSA-only advisories of one component (no aliases: DefectDojo before 2.57.3 gives them no
 * ids, so one hash), a CVE and its GHSA of that component, and a GHSA and its CVE of another.
 */
function exportOf(): Record<string, any>[] {
  const pair = [{ cveId: 'CVE-2026-0001', ghsaId: 'GHSA-cccc-cccc-cccc' }];
  const pair2 = [{ ghsaId: 'GHSA-dddd-dddd-dddd', cveId: 'CVE-2026-0002' }];
  return [
    fpfAdvisory('lib-a', 'GHSA-aaaa-aaaa-aaaa', 'GITHUB', undefined, 1),
    fpfAdvisory('lib-a', 'GHSA-bbbb-bbbb-bbbb', 'GITHUB', undefined, 2),
    fpfAdvisory('lib-a', 'CVE-2026-0001', 'NVD', pair, 3),
    fpfAdvisory('lib-a', 'GHSA-cccc-cccc-cccc', 'GITHUB', pair, 4),
    fpfAdvisory('lib-bb', 'GHSA-dddd-dddd-dddd', 'GITHUB', pair2, 5),
    fpfAdvisory('lib-bb', 'CVE-2026-0002', 'NVD', pair2, 6),
  ];
}

const ALL: readonly Release[] = Object.values(RELEASES);

describe('the sync on every supported DefectDojo release', () => {
  let fakes: SyncFakes;
  afterEach(() => fakes?.close());

  for (const release of ALL) {
    it(`${release}: an unchanged re-send closes nothing, one fixed vulnerability closes exactly its finding, and every run has DefectDojo's own counts`, async () => {
      fakes = await startSyncFakes(0, 0, { release });
      const { dt, dd, env } = fakes;
      const findings = exportOf();
      dt.projects.push({ uuid: PROJECT, name: 'acme/web', version: '1.0', document: fpfExport(findings) });
      const active = () => dd.findings().filter((f) => f.finding.active);

      const first = await runSync(['sync', '--json'], env);
      assert.equal(first.code, 0, first.all);
      assert.deepEqual(first.report!.items[0]!.counts, { created: 4, closed: 0, reactivated: 0, untouched: 0 });

      // The same export again (its test touched by another importer, so it is sent).
      dd.testOf('acme/web', SCAN_TYPES.dependencyTrack)!.buildId = '';
      const again = await runSync(['sync', '--json'], env);
      assert.deepEqual(again.report!.items[0]!.counts, { created: 0, closed: 0, reactivated: 0, untouched: 4 }, `${release}: nothing closed, counted`);
      assert.equal(active().length, 4);

      // Dependency-Track no longer reports GHSA-bbbb: exactly its finding closes.
      dt.projects[0] = { ...dt.projects[0]!, document: fpfExport(findings.filter((f) => f.vulnerability.vulnId !== 'GHSA-bbbb-bbbb-bbbb')) };
      const fixed = await runSync(['sync', '--json'], env);
      assert.deepEqual(fixed.report!.items[0]!.counts, { created: 0, closed: 1, reactivated: 0, untouched: 3 });
      assert.deepEqual(
        dd.findings().filter((f) => !f.finding.active).map((f) => f.finding.vulnIdFromTool),
        ['00000000-0000-4000-8000-000000000002'],
        'the finding of GHSA-bbbb',
      );
      assert.equal(active().length, 3);
    });
  }

  it('an alias Dependency-Track drops closes nothing from 2.56.0 (the matrix unique id); before, the finding is re-created', async () => {
    const outcome: Record<string, unknown> = {};
    for (const release of ['2.45.0', '2.56.0', '3.2.0'] as const) {
      fakes = await startSyncFakes(0, 0, { release });
      const { dt, dd, env } = fakes;
      const findings = exportOf();
      dt.projects.push({ uuid: PROJECT, name: 'acme/web', version: '1.0', document: fpfExport(findings) });
      assert.equal((await runSync(['sync'], env)).code, 0);
      // The GHSA of lib-bb's pair is withdrawn: the CVE stays, without aliases.
      const dropped = findings.filter((f) => f.vulnerability.vulnId !== 'GHSA-dddd-dddd-dddd').map((f) => (f.component.name === 'lib-bb' ? { ...f, vulnerability: { ...f.vulnerability, aliases: [] } } : f));
      dt.projects[0] = { ...dt.projects[0]!, document: fpfExport(dropped) };
      const run = await runSync(['sync', '--json'], env);
      outcome[release] = { counts: run.report!.items[0]!.counts, active: dd.findings().filter((f) => f.finding.active).length };
      await fakes.close();
    }
    assert.deepEqual(outcome, {
      '2.45.0': { counts: { created: 1, closed: 1, reactivated: 0, untouched: 3 }, active: 4 },
      '2.56.0': { counts: { created: 0, closed: 0, reactivated: 0, untouched: 4 }, active: 4 },
      '3.2.0': { counts: { created: 0, closed: 0, reactivated: 0, untouched: 4 }, active: 4 },
    });
  });

  it("reads the counts of DefectDojo 2.45.0's answer, recorded from the real server (its key is `left untouched`)", () => {
    const answer = readRecording<{ statistics: { delta: Record<string, unknown> } }>('defectdojo-2.45.0', 'reimport-statistics.json');
    assert.deepEqual(Object.keys(answer.statistics.delta), ['created', 'closed', 'reactivated', 'left untouched']);
    // DefectDojo's npm sample, unfolded, reimported unchanged: 7 of 22 closed there too.
    assert.deepEqual(reimportCounts(answer), { created: 0, closed: 7, reactivated: 0, untouched: 15 });
  });
});

