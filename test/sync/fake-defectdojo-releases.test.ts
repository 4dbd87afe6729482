import assert from 'node:assert/strict';
import { DefectDojoClient } from '../../server/sync/defectdojo/client.js';
import { SCAN_TYPES } from '../../server/sync/defectdojo/scan-types.js';
import { reimportCounts } from '../../server/sync/defectdojo/statistics.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { readRecording } from '../support/fixtures.js';
import { fpfAdvisory, fpfExport, type Aliases } from './support.js';

// The fake's behaviour per DefectDojo release (`test/support/defectdojo-releases.ts`), checked
// against answers recorded from the real DefectDojo 2.45.0 and against each release's code.

describe('the DefectDojo fake behaves as the release it is started as', () => {
  let dd: FakeDefectDojo;
  afterEach(() => dd?.close());

  const client = () => new DefectDojoClient({ url: dd.url, token: dd.token, productType: 'R&D', timeoutMs: 5000, uploadTimeoutMs: 5000 });
  async function upload(scanType: string, content: string, product = 'p'): Promise<Response> {
    const form = new FormData();
    for (const [k, v] of Object.entries({ scan_type: scanType, product_name: product, engagement_name: 'e', test_title: 't', product_type_name: 'R&D', auto_create_context: 'true' })) form.set(k, v);
    form.set('file', new Blob([content], { type: 'application/json' }), 'report.json');
    const encoded = new Response(form);
    const type = encoded.headers.get('content-type')!;
    const body = new Uint8Array(await encoded.arrayBuffer());
    return fetch(`${dd.url}/api/v2/reimport-scan/`, { method: 'POST', headers: { authorization: `Token ${dd.token}`, 'content-type': type, 'content-length': String(body.byteLength) }, body });
  }

  it("FPF vulnerability_ids and unique ids: as the real 2.45.0, 2.57.2 and 2.58.4 stored them; the finding's own id from 2.57.3; the matrix from 2.56.0", async () => {
    type Row = { case: string; vulnId: string; source: string; aliases: Aliases | null; vulnerability_ids: string[]; unique_id_from_tool: string | null };
    const recorded = readRecording<Row[]>('defectdojo-2.45.0', 'fpf-vulnerability-ids.json');
    const report = fpfExport(recorded.map((r, i) => fpfAdvisory(`comp-${i}`, r.vulnId, r.source, r.aliases ?? undefined, i)));
    const stored: Record<string, { ids: string[][]; uid: boolean[] }> = {};
    for (const release of ['2.45.0', '2.56.0', '2.57.2', '2.57.3', '3.2.0'] as const) {
      dd = await FakeDefectDojo.start(undefined, { release });
      assert.equal((await upload(SCAN_TYPES.dependencyTrack, report)).status, 201);
      const findings = dd.findings().sort((a, b) => a.finding.id - b.finding.id);
      stored[release] = { ids: findings.map((f) => [...(f.finding.vulnerabilityIds ?? [])].sort()), uid: findings.map((f) => f.finding.uniqueIdFromTool !== undefined) };
      await dd.close();
    }
    assert.deepEqual(stored['2.45.0']!.ids, recorded.map((r) => r.vulnerability_ids), 'as DefectDojo 2.45.0 stored them');
    const r2572 = readRecording<Row[]>('defectdojo-2.57.2', 'fpf-vulnerability-ids.json');
    assert.deepEqual(r2572.map((r) => r.vulnerability_ids), recorded.map((r) => r.vulnerability_ids), 'DefectDojo 2.57.2 stored what 2.45.0 did');
    assert.ok(r2572.every((r) => r.unique_id_from_tool !== null), '2.57.2: the matrix as unique id');
    assert.deepEqual(stored['2.57.2']!.ids, r2572.map((r) => r.vulnerability_ids), 'the same rule until 2.57.2');
    const own = readRecording<Row[]>('defectdojo-2.58.4', 'fpf-vulnerability-ids.json');
    assert.deepEqual(own.map((r) => r.vulnerability_ids), recorded.map((r) => [...new Set([r.vulnId, ...(r.aliases ?? []).flatMap((a) => Object.values(a))])].sort()), 'DefectDojo 2.58.4 stored the vulnId and every alias');
    assert.deepEqual(stored['2.57.3']!.ids, own.map((r) => r.vulnerability_ids), 'from 2.57.3: the vulnId and every alias, as 2.58.4 stored them');
    assert.deepEqual(stored['3.2.0']!.ids, own.map((r) => r.vulnerability_ids));
    assert.ok(own.every((r) => r.unique_id_from_tool !== null) && recorded.every((r) => r.unique_id_from_tool === null), 'the matrix as unique id on 2.58.4, none on 2.45.0');
    assert.deepEqual(
      Object.fromEntries(Object.entries(stored).map(([r, s]) => [r, s.uid.every(Boolean) ? 'matrix' : s.uid.some(Boolean) ? 'some' : 'none'])),
      { '2.45.0': 'none', '2.56.0': 'matrix', '2.57.2': 'matrix', '2.57.3': 'matrix', '3.2.0': 'matrix' },
    );
  });

  it('the statistics key of untouched findings: `left untouched` until 2.45.x, `untouched` from 2.46.0', async () => {
    const recorded = readRecording<{ statistics: { delta: Record<string, unknown> } }>('defectdojo-2.45.0', 'reimport-statistics.json');
    const keys: Record<string, string[]> = {};
    for (const release of ['2.45.0', '2.46.0', '3.2.0'] as const) {
      dd = await FakeDefectDojo.start(undefined, { release });
      const report = fpfExport([fpfAdvisory('lib', 'CVE-2026-1', 'NVD', undefined, 1)]);
      await upload(SCAN_TYPES.dependencyTrack, report);
      const body = (await (await upload(SCAN_TYPES.dependencyTrack, report)).json()) as { statistics: { delta: Record<string, unknown> } };
      keys[release] = Object.keys(body.statistics.delta);
      assert.deepEqual(reimportCounts(body), { created: 0, closed: 0, reactivated: 0, untouched: 1 }, release);
      await dd.close();
    }
    assert.deepEqual(keys['2.45.0'], Object.keys(recorded.statistics.delta), 'as the real 2.45.0 answers');
    assert.deepEqual(keys['2.46.0'], ['created', 'closed', 'reactivated', 'untouched']);
    assert.deepEqual(keys['3.2.0'], ['created', 'closed', 'reactivated', 'untouched']);
  });

  it('unknown scan types: 2.45.0 answers as the real server did; secret scanning from 2.51.0, code scanning from 2.52.0', async () => {
    const recorded = readRecording<unknown[]>('defectdojo-2.45.0', 'unknown-scan-types.json');
    dd = await FakeDefectDojo.start(undefined, { release: '2.45.0' });
    const answers = [];
    for (const scanType of [SCAN_TYPES.codeScanning, SCAN_TYPES.secretScanning]) {
      const res = await upload(scanType, '[]');
      assert.equal(res.status, 400);
      answers.push(await res.json());
    }
    assert.deepEqual(answers, recorded);
    await dd.close();
    const known: Record<string, boolean[]> = {};
    for (const release of ['2.50.4', '2.51.0', '2.52.0'] as const) {
      dd = await FakeDefectDojo.start(undefined, { release });
      known[release] = await Promise.all([SCAN_TYPES.secretScanning, SCAN_TYPES.codeScanning].map(async (t) => (await upload(t, '[]')).status === 201));
      await dd.close();
    }
    assert.deepEqual(known, { '2.50.4': [false, false], '2.51.0': [true, false], '2.52.0': [true, true] });
  });

  it('code scanning: the alert number is the unique id and matched from 2.57.0; before, a hash of rule, severity, file and line', async () => {
    const alert = (number: number, line: number) => ({ number, state: 'open', rule: { id: 'js/xss', description: 'XSS', security_severity_level: 'high' }, most_recent_instance: { location: { path: 'a.js', start_line: line } } });
    const moved: Record<string, unknown> = {};
    for (const release of ['2.56.0', '2.57.0'] as const) {
      dd = await FakeDefectDojo.start(undefined, { release });
      const c = client();
      const send = (line: number) => c.reimport({ scanType: SCAN_TYPES.codeScanning, productName: 'p', engagementName: 'GitHub', testTitle: 'Code scanning', filename: 'a.json', content: Buffer.from(JSON.stringify([alert(1, line)])) });
      await send(10);
      moved[release] = await send(11);
      await dd.close();
    }
    assert.deepEqual(moved, {
      '2.56.0': { created: 1, closed: 1, reactivated: 0, untouched: 0 },
      '2.57.0': { created: 0, closed: 0, reactivated: 0, untouched: 1 },
    });
  });
});
