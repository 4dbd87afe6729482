import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GateError } from '../../actions/gate/errors.js';
import { computed, readSarif, resultsOf } from '../../actions/gate/reports/sarif.js';

describe('SARIF reading', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-sarif-'));
    file = join(dir, 'report.sarif');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a byte-order mark before the JSON is accepted (some Windows tools write one)', () => {
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"ruleId":"r"}]}]}')]));
    assert.deepEqual(resultsOf(readSarif(file).runs[0]!), [{ ruleId: 'r' }]);
  });

  it('a run whose results are null or absent computed none; [] computed no finding', () => {
    writeFileSync(file, '{"runs":[{"tool":{"driver":{"name":"a"}},"results":null},{"tool":{"driver":{"name":"b"}}},{"tool":{"driver":{"name":"c"}},"results":[]}]}');
    const { runs } = readSarif(file);
    assert.deepEqual(runs.map(computed), [false, false, true]);
    assert.deepEqual(runs.map(resultsOf), [[], [], []]);
  });

  for (const [what, text, problem] of [
    ['an unexpected token', '{"runs":[{"secret":"hunter2" oops}]}', /\(invalid JSON at character \d+\)$/],
    ['a quoted token', '{"runs":[hunter2]}', /\(invalid JSON\)$/],
    ['text after the value', '{"runs":[]} hunter2', /\(invalid JSON at character 12\)$/],
    ['an empty file', '', /\(unexpected end of the JSON text\)$/],
  ] as const) {
    it(`not JSON (${what}): a tool error naming the file, never the text (a report may hold secrets)`, () => {
      writeFileSync(file, text);
      assert.throws(
        () => readSarif(file),
        (err: unknown) => err instanceof GateError && err.message.startsWith(`${file} is not JSON, so not a SARIF report (`) && problem.test(err.message) && !err.message.includes('hunter2'),
      );
    });
  }

  it('missing file, a folder: tool errors with the system code', () => {
    assert.throws(() => readSarif(join(dir, 'missing.sarif')), /cannot read the SARIF report .*ENOENT/);
    assert.throws(() => readSarif(dir), /cannot read the SARIF report .*EISDIR/);
  });

  it('JSON that is not a SARIF log: no runs array, or a run without tool.driver', () => {
    for (const text of ['[]', 'null', '{"runs":{}}', '{"version":"2.1.0"}']) {
      writeFileSync(file, text);
      assert.throws(() => readSarif(file), (err: unknown) => err instanceof GateError && err.message === `${file} is not a SARIF 2.1.0 report (no "runs" array)`);
    }
    for (const text of ['{"runs":[null]}', '{"runs":[{"tool":{}}]}', '{"runs":[{"tool":{"driver":"x"}}]}']) {
      writeFileSync(file, text);
      assert.throws(() => readSarif(file), (err: unknown) => err instanceof GateError && err.message === `${file} has a run without tool.driver`);
    }
  });
});
