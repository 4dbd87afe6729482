import assert from 'node:assert/strict';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { GateError } from '../../actions/gate/errors.js';
import { JsonReader, JsonSyntaxError } from '../../actions/gate/reports/json-reader.js';
import { openSarif } from '../../actions/gate/reports/sarif.js';
import { fixturesDir } from '../support/fixtures.js';

/** A report as the gate sees it: the runs without their `results` arrays, and each run's results. */
interface Seen {
  readonly log: unknown;
  readonly results: unknown[][];
}

/** Reads a report the way the gate does: the skeleton, then every run's results. */
function readBack(path: string, chunkBytes?: number): Seen {
  const report = openSarif(path, chunkBytes ? { chunkBytes } : {});
  return { log: report.log, results: report.log.runs.map((_, i) => [...report.results(i)].map((r) => r.result)) };
}

/** The same view made with JSON.parse. */
function seenByJsonParse(value: { runs: { results?: unknown }[] }): Seen {
  return {
    log: { ...value, runs: value.runs.map(({ results, ...run }) => (Array.isArray(results) ? run : { ...run, ...(results === undefined ? {} : { results }) })) },
    results: value.runs.map((run) => (Array.isArray(run.results) ? run.results : [])),
  };
}

/** JSON.parse's verdict on a SARIF text, with the gate's own checks of the shape. */
function expected(text: string): { ok: true; value: Seen } | { ok: false } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  const runs = (value as { runs?: unknown } | null)?.runs;
  if (!value || typeof value !== 'object' || !Array.isArray(runs)) return { ok: false };
  const sarif = runs.every((run) => {
    const driver = (run as { tool?: { driver?: unknown } } | null)?.tool?.driver;
    return driver && typeof driver === 'object';
  });
  return sarif ? { ok: true, value: seenByJsonParse(value as { runs: { results?: unknown }[] }) } : { ok: false };
}

function actual(path: string, chunkBytes: number): { ok: true; value: Seen } | { ok: false } {
  try {
    return { ok: true, value: readBack(path, chunkBytes) };
  } catch (err) {
    assert.ok(err instanceof GateError, `only tool errors, got ${String(err)}`);
    return { ok: false };
  }
}

describe('SARIF reader (two passes through a small buffer)', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-sarif-reader-'));
    file = join(dir, 'report.sarif');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('every SARIF file of test/fixtures/gate reads back as JSON.parse reads it', () => {
    const fixtures = existsSync(fixturesDir('gate')) ? readdirSync(fixturesDir('gate')).filter((f) => f.endsWith('.sarif')) : [];
    it('the fixtures folder is present', function () {
      assert.ok(fixtures.length > 0, 'the fixtures are in the project');
    });
    for (const name of fixtures) {
      it(name, () => {
        const path = join(fixturesDir('gate'), name);
        const parsed = seenByJsonParse(JSON.parse(readFileSync(path, 'utf8')) as { runs: { results?: unknown }[] });
        assert.deepEqual(readBack(path), parsed);
        assert.deepEqual(readBack(path, 7), parsed, 'with 7-byte chunks, crossing every kind of boundary');
      });
    }
  });

  const sarifRun = fc.record(
    { tool: fc.record({ driver: fc.record({ name: fc.string() }) }), results: fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 8 }), properties: fc.jsonValue({ maxDepth: 3 }) },
    { requiredKeys: ['tool'] },
  );
  const sarifDoc = fc.record({ $schema: fc.string(), version: fc.constant('2.1.0'), runs: fc.array(sarifRun, { maxLength: 4 }), properties: fc.jsonValue({ maxDepth: 3 }) }, { requiredKeys: ['runs'] });
  // Results before the tool, as some writers order them: the reader must not depend on order.
  const sarifText = fc.tuple(sarifDoc, fc.constantFrom(undefined, 1, 2, '\t'), fc.boolean()).map(([log, indent, resultsFirst]) =>
    JSON.stringify(resultsFirst ? { ...log, runs: log.runs.map(({ results, ...rest }) => ({ ...(results ? { results } : {}), ...rest })) } : log, null, indent),
  );

  it('property: any SARIF-shaped document, in any layout and member order, at any chunk size, reads back equal', () => {
    fc.assert(
      fc.property(sarifText, fc.integer({ min: 1, max: 64 }), (text, chunk) => {
        writeFileSync(file, text);
        assert.deepEqual(actual(file, chunk), expected(text));
      }),
      { numRuns: 300 },
    );
  });

  it('property: each result\'s byte range is exactly its JSON text, white space and commas left out', () => {
    fc.assert(
      fc.property(sarifText, fc.integer({ min: 1, max: 64 }), (text, chunk) => {
        writeFileSync(file, text);
        const bytes = Buffer.from(text);
        const report = openSarif(file, { chunkBytes: chunk });
        report.log.runs.forEach((_, i) => {
          for (const { result, source } of report.results(i)) {
            const own = bytes.toString('utf8', source.start, source.end);
            assert.equal(own.trim(), own);
            assert.ok(!own.endsWith(','));
            assert.deepEqual(JSON.parse(own), result);
          }
        });
      }),
      { numRuns: 200 },
    );
  });

  it('property: a damaged document is refused exactly when JSON.parse (or the SARIF shape check) refuses it', () => {
    const written = JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x', rules: [{ id: 'a\\"b' }] } }, results: [{ ruleId: 'r', message: { text: 'tab\t"q" \\ ü' }, locations: [{}] }, 1, 'two', null, [true]] }] }, null, 1);
    const damage = fc.oneof(
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', ' ', '0', '-', 'x', '\u0001', '\n') }),
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.constant(written), sarifText), fc.array(damage, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 32 }), (original, damages, chunk) => {
        let text = original;
        for (const d of damages) {
          const at = d.at % (text.length + 1);
          text = d.kind === 'delete' ? text.slice(0, at) + text.slice(at + 1) : d.kind === 'insert' ? text.slice(0, at) + d.text + text.slice(at) : text.slice(0, at);
        }
        writeFileSync(file, text);
        const want = expected(text);
        const got = actual(file, chunk);
        assert.equal(got.ok, want.ok, `reader ${got.ok ? 'accepted' : 'refused'} what JSON.parse ${want.ok ? 'accepts' : 'refuses'}: ${JSON.stringify(text)}`);
        if (want.ok && got.ok) assert.deepEqual(got.value, want.value);
      }),
      { numRuns: 1000 },
    );
  });

  it('a byte-order mark before the JSON is accepted (some Windows tools write one)', () => {
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"ruleId":"r"}]}]}')]));
    const report = openSarif(file);
    assert.deepEqual([...report.results(0)].map((r) => r.result), [{ ruleId: 'r' }]);
  });

  it('a member named __proto__ is an own property, as JSON.parse makes it, not a prototype', () => {
    writeFileSync(file, '{"__proto__":{"polluted":true},"runs":[{"__proto__":{"x":1},"tool":{"driver":{"name":"t"}},"results":[]}]}');
    const report = openSarif(file);
    assert.equal(Object.getPrototypeOf(report.log), Object.prototype);
    assert.equal((report.log as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.getOwnPropertyDescriptor(report.log, '__proto__')?.value, { polluted: true });
    assert.equal(Object.getPrototypeOf(report.log.runs[0]), Object.prototype);
  });

  it('a later duplicate "results" wins, as with JSON.parse', () => {
    writeFileSync(file, '{"runs":[{"tool":{"driver":{"name":"t"}},"results":[1,2],"results":[3]}]}');
    assert.deepEqual(readBack(file).results, [[3]]);
    writeFileSync(file, '{"runs":[{"tool":{"driver":{"name":"t"}},"results":[1,2],"results":null}]}');
    const report = openSarif(file);
    assert.deepEqual([...report.results(0)], []);
    assert.equal(report.log.runs[0]!.results, null);
  });

  it('errors name the file and a byte offset, never the text (a report may hold secrets)', () => {
    writeFileSync(file, '{"runs":[{"tool":{"driver":{"name":"t"}},"results":[{"secret":"hunter2" oops}]}]}');
    const report = openSarif(file);
    assert.throws(
      () => [...report.results(0)],
      (err: unknown) => err instanceof GateError && err.message.includes(file) && /is not JSON, so not a SARIF report \(.* at byte \d+\)/.test(err.message) && !err.message.includes('hunter2'),
    );
  });

  it('missing file, a folder, an empty file: tool errors', () => {
    assert.throws(() => openSarif(join(dir, 'missing.sarif')), /cannot read the SARIF report .*ENOENT/);
    assert.throws(() => openSarif(dir), /cannot read the SARIF report .*EISDIR/);
    writeFileSync(file, '');
    assert.throws(() => openSarif(file), /is not JSON, so not a SARIF report \(unexpected end of the JSON text at byte 0\)/);
  });

  it('a report that changes after its first pass is refused, not half read', () => {
    const text = JSON.stringify({ runs: [{ tool: { driver: { name: 't' } }, results: [{ ruleId: 'a' }, { ruleId: 'b' }] }] });
    writeFileSync(file, text);
    const report = openSarif(file);
    const first = [...report.results(0)];
    writeFileSync(file, text.slice(0, text.length - 20));
    assert.throws(() => [...report.results(0)], GateError);
    assert.throws(() => [...report.readAgain(first.map((r) => r.source))], GateError);
  });

  it('a report whose separators moved after its first pass is refused, not misread', () => {
    const text = JSON.stringify({ runs: [{ tool: { driver: { name: 't' } }, results: [{ ruleId: 'a' }, { ruleId: 'b' }] }] });
    writeFileSync(file, text);
    const report = openSarif(file);
    // Same length, the comma between the two results moved into the first one's text.
    writeFileSync(file, text.replace('{"ruleId":"a"},{', '{"ruleId":"a",}{'));
    assert.throws(() => [...report.results(0)], (err: unknown) => err instanceof GateError && /changed at byte \d+ since it was first read/.test(err.message));
  });

  it('results read in batches: an invalid one among valid ones is named by its own offset, after the valid ones before it', () => {
    const results = Array.from({ length: 40 }, (_, n) => JSON.stringify({ n }));
    results[21] = '{"n":21,"x":tru}';
    const text = `{"runs":[{"tool":{"driver":{"name":"t"}},"results":[${results.join(', ')}]}]}`;
    writeFileSync(file, text);
    const seen: unknown[] = [];
    assert.throws(
      () => {
        for (const { result } of openSarif(file).results(0)) seen.push(result);
      },
      (err: unknown) => err instanceof GateError && err.message.includes(`invalid JSON value at byte ${Buffer.byteLength(text.slice(0, text.indexOf('{"n":21')))}`),
    );
    assert.deepEqual(seen, Array.from({ length: 21 }, (_, n) => ({ n })));
  });

  it('readAgain returns each result from its byte range, in the order asked', () => {
    writeFileSync(file, JSON.stringify({ runs: [{ tool: { driver: { name: 't' } }, results: [{ n: 1 }, { n: 2, s: 'é' }, { n: 3 }] }] }, null, 2));
    const report = openSarif(file);
    const sourced = [...report.results(0)];
    assert.deepEqual([...report.readAgain([sourced[2]!.source, sourced[1]!.source])], [{ n: 3 }, { n: 2, s: 'é' }]);
  });

  describe('JsonReader', () => {
    const withReader = <T>(text: string, chunkBytes: number, use: (reader: JsonReader) => T): T => {
      writeFileSync(file, text);
      const fd = openSync(file, 'r');
      try {
        return use(new JsonReader(fd, { chunkBytes }));
      } finally {
        closeSync(fd);
      }
    };

    it('property: skipArray finds the element starts and the end that elements() and skipValue() find, and refuses what they refuse', () => {
      /** The element-by-element walk skipArray replaces: starts and end, or the error's message. */
      const byElements = (reader: JsonReader): { starts: number[]; end: number } | string => {
        const starts: number[] = [];
        try {
          for (const _ of reader.elements()) {
            reader.peek();
            starts.push(reader.offset);
            reader.skipValue();
          }
          return { starts, end: reader.offset };
        } catch (err) {
          return (err as Error).constructor.name;
        }
      };
      const bySkipArray = (reader: JsonReader): { starts: number[]; end: number } | string => {
        const starts: number[] = [];
        try {
          reader.skipArray((offset) => starts.push(offset));
          return { starts, end: reader.offset };
        } catch (err) {
          return (err as Error).constructor.name;
        }
      };
      const arrayText = fc
        .tuple(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }), fc.constantFrom(undefined, 1, '\t'))
        .map(([values, indent]) => JSON.stringify(values, null, indent));
      const damage = fc.record({ at: fc.nat(), text: fc.constantFrom('', '{', '}', '[', ']', ',', ':', '"', '\\', ' ', '0', 'x', '\n') });
      fc.assert(
        fc.property(arrayText, fc.array(damage, { maxLength: 3 }), fc.integer({ min: 1, max: 16 }), (original, damages, chunk) => {
          let text = original;
          // An empty text deletes the byte at `at`; any other is inserted there.
          for (const d of damages) {
            const at = d.at % (text.length + 1);
            text = d.text === '' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + d.text + text.slice(at);
          }
          const want = withReader(`${text} `, chunk, byElements);
          const got = withReader(`${text} `, chunk, bySkipArray);
          assert.deepEqual(got, want, JSON.stringify(text));
        }),
        { numRuns: 2000 },
      );
    });

    it('a value longer than the buffer grows it; a skipped one is matched without being parsed', () => {
      const long = JSON.stringify({ a: 'x'.repeat(10_000), b: [[['"]']]] });
      withReader(`[${long}, ${long}]`, 16, (reader) => {
        const seen: unknown[] = [];
        let i = 0;
        for (const _ of reader.elements()) {
          if (i++ === 0) reader.skipValue();
          else seen.push(reader.readValue());
        }
        reader.expectEnd();
        assert.deepEqual(seen, [JSON.parse(long)]);
      });
    });

    it('strings with escaped quotes and backslashes end where JSON says', () => {
      const text = JSON.stringify({ 'k\\"': 'a\\', 'q"': '\\"\\\\"', n: -1.5e3, t: true, z: null });
      for (const chunk of [1, 2, 3, 5, 64]) {
        const members = withReader(text, chunk, (reader) => {
          const out: Record<string, unknown> = {};
          for (const key of reader.members()) out[key] = reader.readValue();
          reader.expectEnd();
          return out;
        });
        assert.deepEqual(members, JSON.parse(text));
      }
    });

    it('refuses data after the value, and a missing separator', () => {
      assert.throws(() => withReader('{} {}', 4, (reader) => (reader.readValue(), reader.expectEnd())), JsonSyntaxError);
      assert.throws(
        () =>
          withReader('[1 2]', 4, (reader) => {
            for (const _ of reader.elements()) reader.readValue();
          }),
        /expected ',' or '\]' at byte 3/,
      );
    });
  });
});
