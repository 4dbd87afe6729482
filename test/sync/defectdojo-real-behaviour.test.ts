import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DefectDojoClient } from '../../server/sync/defectdojo/client.js';
import { reimportCounts } from '../../server/sync/defectdojo/statistics.js';
import { SCAN_TYPES } from '../../server/sync/defectdojo/scan-types.js';
import { foldAliases } from '../../server/sync/dependency-track/fold-aliases.js';
import { fixturePath, readRecording } from '../support/fixtures.js';
import { titlecase } from '../support/titlecase.js';
import { runSync, startSyncFakes, type SyncFakes } from './support.js';

// The scenarios DefectDojo 3.2.0 got wrong for the sync (reproduced on the real server, see
// docs/sync.md "Tested against"), played against the fake, which follows the real server in each.

const NPM_SAMPLE = 'dd__deptrack_npm_4.14.1.json';
type Fpf = { findings: { vulnerability: { vulnId: string; aliases?: Record<string, string>[] }; component: { name: string } }[] } & Record<string, unknown>;
const sample = (): Fpf => JSON.parse(readFileSync(fixturePath('sync', NPM_SAMPLE), 'utf8')) as Fpf;

describe("DefectDojo as the real server behaves: aliases, first-import counts, title casing", () => {
  let fakes: SyncFakes;
  beforeEach(async () => {
    fakes = await startSyncFakes();
  });
  afterEach(() => fakes.close());

  it('the fake reproduces the collision: the unfolded npm sample reimported twice unchanged closes 7 of its 22 findings, as DefectDojo 3.2.0 does', async () => {
    const client = new DefectDojoClient({ url: fakes.dd.url, token: fakes.dd.token, productType: 'R&D', timeoutMs: 5000, uploadTimeoutMs: 5000 });
    const send = () => client.reimport({ scanType: SCAN_TYPES.dependencyTrack, productName: 'p', engagementName: 'Dependency-Track', testTitle: '1', filename: 'f.json', content: readFileSync(fixturePath('sync', NPM_SAMPLE)) });
    assert.deepEqual(await send(), { created: 22, closed: 0, reactivated: 0, untouched: 0 });
    assert.deepEqual(await send(), { created: 0, closed: 7, reactivated: 0, untouched: 15 });
  });

  it('through the sync: the first run counts 15 created; an unchanged run sends nothing; a resend closes nothing; a vulnerability Dependency-Track drops closes exactly its finding', async () => {
    const { dt, dd, env } = fakes;
    const document = sample();
    dt.projects.push({ uuid: 'ca4f2da9-0fad-4a13-92d7-f627f3168a56', name: 'acme/web', version: '4.14.1', document: JSON.stringify(document) });
    const first = await runSync(['sync', '--json'], env);
    assert.equal(first.code, 0, first.all);
    assert.deepEqual(first.report!.items[0]!.counts, { created: 15, closed: 0, reactivated: 0, untouched: 0 }, 'counted from statistics.after');
    assert.deepEqual([first.report!.totals.created, first.report!.totals.findings], [15, 15]);
    const human = await runSync(['sync'], { ...env });
    assert.match(human.all, /unchanged since the last import/);
    assert.equal(dd.uploads.length, 1, 'an unchanged export is not sent again');

    // A test another importer touched: the same report goes again, and nothing closes.
    dd.testOf('acme/web', SCAN_TYPES.dependencyTrack)!.buildId = '';
    const resent = await runSync(['sync', '--json'], env);
    assert.deepEqual(resent.report!.items[0]!.counts, { created: 0, closed: 0, reactivated: 0, untouched: 15 });
    const active = () => dd.findings().filter((f) => f.finding.active);
    assert.equal(active().length, 15);

    // Dependency-Track drops the GHSA id of one pair: its finding stays (the CVE still names it).
    const dropGhsa = { ...document, findings: document.findings.filter((f) => f.vulnerability.vulnId !== 'GHSA-v9jr-rg53-9pgp') };
    dt.projects[0] = { ...dt.projects[0]!, document: JSON.stringify(dropGhsa) };
    const partial = await runSync(['sync', '--json'], env);
    assert.equal(partial.report!.items[0]!.counts!.closed, 0);
    assert.equal(active().length, 15);

    // Dependency-Track drops a vulnerability (both of its ids): exactly that finding closes.
    const fixed = { ...document, findings: document.findings.filter((f) => !['GHSA-v9jr-rg53-9pgp', 'CVE-2026-41238'].includes(f.vulnerability.vulnId)) };
    dt.projects[0] = { ...dt.projects[0]!, document: JSON.stringify(fixed) };
    const dropped = await runSync(['sync', '--json'], env);
    assert.deepEqual(dropped.report!.items[0]!.counts, { created: 0, closed: 1, reactivated: 0, untouched: 14 });
    const closed = dd.findings().filter((f) => !f.finding.active);
    assert.deepEqual(
      closed.map((f) => f.finding.vulnerabilityIds?.slice().sort()),
      [['CVE-2026-41238', 'GHSA-v9jr-rg53-9pgp']],
    );
    assert.equal(active().length, 14);
  });

  it('folds by what DefectDojo hashes: component name and version, and overlapping ids; every id kept, the worst severity, the CVE finding kept', () => {
    const finding = (vulnId: string, source: string, aliases: Record<string, string>[], severity: string, component = 'c-1', version: string | null = '1.0') => ({
      component: { name: 'lib', version, uuid: component },
      vulnerability: { vulnId, source, severity, aliases, uuid: `v-${vulnId}` },
      matrix: `p:${component}:v-${vulnId}`,
    });
    const folded = foldAliases({
      version: '1.2',
      findings: [
        finding('GHSA-aaaa-bbbb-cccc', 'GITHUB', [{ cveId: 'CVE-2026-1', ghsaId: 'GHSA-aaaa-bbbb-cccc' }], 'HIGH'),
        finding('CVE-2026-1', 'NVD', [{ ghsaId: 'GHSA-aaaa-bbbb-cccc' }], 'MEDIUM'),
        finding('OSV-1', 'OSV', [{ ghsaId: 'GHSA-aaaa-bbbb-cccc' }], 'LOW'),
        finding('CVE-2026-1', 'NVD', [], 'MEDIUM', 'c-2'),
        finding('CVE-2026-1', 'NVD', [], 'MEDIUM', 'c-3', '2.0'),
        finding('CVE-2026-9', 'NVD', [], 'LOW'),
      ],
    });
    const out = folded.document.findings as ReturnType<typeof finding>[];
    assert.deepEqual([folded.exported, folded.findings], [6, 3]);
    assert.deepEqual(out.map((f) => [f.vulnerability.vulnId, f.component.version, f.vulnerability.severity]), [
      ['CVE-2026-1', '1.0', 'HIGH'],
      ['CVE-2026-1', '2.0', 'MEDIUM'],
      ['CVE-2026-9', '1.0', 'LOW'],
    ]);
    // Every id, the kept finding's own too (DefectDojo before 2.57.3 reads the aliases alone).
    assert.deepEqual(out[0]!.vulnerability.aliases, [{ cveId: 'CVE-2026-1' }, { ghsaId: 'GHSA-aaaa-bbbb-cccc' }, { osvId: 'OSV-1' }]);
    assert.deepEqual(out[2]!.vulnerability.aliases, [{ cveId: 'CVE-2026-9' }], 'a single finding names its own id too');
    assert.deepEqual([...folded.foldedInto], [['p:c-1:v-CVE-2026-1', ['p:c-1:v-GHSA-aaaa-bbbb-cccc', 'p:c-1:v-OSV-1', 'p:c-2:v-CVE-2026-1']]]);
  });

  it("every finding sent names its own id among its aliases; one whose aliases already do is sent as exported", () => {
    const finding = (vulnId: string, source: string, aliases: unknown, component: string) => ({ component: { name: component, version: '1' }, vulnerability: { vulnId, source, severity: 'HIGH', ...(aliases === undefined ? {} : { aliases }) } });
    const exported = [
      finding('GHSA-aaaa-aaaa-aaaa', 'GITHUB', undefined, 'a'),
      finding('GHSA-bbbb-bbbb-bbbb', 'GITHUB', null, 'a'),
      finding('PYSEC-2026-1', 'OSV', [], 'b'),
      finding('CVE-2026-2', 'NVD', [{ ghsaId: 'GHSA-cccc-cccc-cccc' }], 'c'),
      finding('GHSA-dddd-dddd-dddd', 'GITHUB', [{ cveId: 'CVE-2026-4', ghsaId: 'GHSA-dddd-dddd-dddd' }], 'd'),
    ];
    const sent = foldAliases({ findings: exported }).document.findings as ReturnType<typeof finding>[];
    assert.deepEqual(
      sent.map((f) => f.vulnerability.aliases),
      [[{ ghsaId: 'GHSA-aaaa-aaaa-aaaa' }], [{ ghsaId: 'GHSA-bbbb-bbbb-bbbb' }], [{ osvId: 'PYSEC-2026-1' }], [{ ghsaId: 'GHSA-cccc-cccc-cccc' }, { cveId: 'CVE-2026-2' }], [{ cveId: 'CVE-2026-4', ghsaId: 'GHSA-dddd-dddd-dddd' }]],
    );
    assert.equal(sent[4], exported[4], 'already named: the same object, sent as exported');
  });

  it('a reimport that created its test answers statistics.after alone: every finding in it was created', () => {
    const bucket = (total: number) => ({ total: { total, active: total } });
    assert.deepEqual(reimportCounts({ statistics: { after: bucket(13) } }), { created: 13, closed: 0, reactivated: 0, untouched: 0 });
    assert.equal(reimportCounts({ statistics: { before: bucket(3), after: bucket(13) } }), undefined, 'before without delta says nothing');
    assert.equal(reimportCounts({}), undefined);
  });

  it("the fake title-cases titles on save exactly as DefectDojo 3.2.0 did (30 titles recorded from the real server)", () => {
    const pairs = readRecording<[string, string][]>('defectdojo-3.2.0', 'titlecase.json');
    assert.equal(pairs.length, 30);
    for (const [sent, stored] of pairs) assert.equal(titlecase(sent), stored, sent);
  });
});
