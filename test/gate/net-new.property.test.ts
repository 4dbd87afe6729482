import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classify } from '../../actions/gate/rules/classify.js';
import type { AddedLines, PullRequestDiff } from '../../actions/gate/diff/git-diff.js';
import { readSarif, type SarifLog } from '../../actions/gate/reports/sarif.js';
import { SopsDetector } from '../../actions/gate/rules/secrets.js';
import { FAIL_ON, type FailOn } from '../../actions/gate/rules/severity.js';
import { PROPERTY_SUITE_TIMEOUT_MS } from '../support/properties.js';

const LEVEL_SEVERITY: Record<string, number> = { error: 3, warning: 2, note: 1, none: 0 };
const THRESHOLD: Record<FailOn, number> = { critical: 4, high: 3, medium: 2, low: 1, any: 0, none: Infinity };

const files = ['a.js', 'src/b.ts', 'docs/c.md', 'd e.py'];
const diffArb = fc.record(
  Object.fromEntries(
    files.map((f) => [f, fc.oneof(fc.constant<'unchanged'>('unchanged'), fc.constant<'all'>('all'), fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 20 }))]),
  ) as Record<string, fc.Arbitrary<'unchanged' | 'all' | number[]>>,
);
const resultArb = fc.record({
  file: fc.constantFrom(...files),
  line: fc.integer({ min: 1, max: 60 }),
  level: fc.constantFrom('error', 'warning', 'note', 'none'),
});

describe('net-new classification (property)', function () {
  this.timeout(PROPERTY_SUITE_TIMEOUT_MS);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'gatehouse-net-new-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a finding on an unchanged or moved line is never net-new; one on an added line at or above --fail-on always blocks', () => {
    fc.assert(
      fc.property(diffArb, fc.array(resultArb, { maxLength: 40 }), fc.constantFrom(...FAIL_ON), fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 20 }), (changes, results, failOn, movedLines) => {
        const map = new Map<string, AddedLines>();
        for (const [file, change] of Object.entries(changes)) {
          if (change === 'all') map.set(file, 'all');
          else if (change !== 'unchanged') map.set(file, new Set(change));
        }
        // Some lines of every changed file only moved.
        const moved = new Map([...map.keys()].map((file) => [file, new Map(movedLines.map((line) => [line, { path: 'old.js', line }]))]));
        const diff: PullRequestDiff = { mergeBase: 'm', head: 'h', files: map, moved };
        const log: SarifLog = {
          version: '2.1.0',
          runs: [
            {
              tool: { driver: { name: 'tool' } },
              results: results.map((r) => ({
                ruleId: 'r',
                level: r.level,
                locations: [{ physicalLocation: { artifactLocation: { uri: r.file }, region: { startLine: r.line } } }],
              })),
            },
          ],
        };
        // Through the real reader: the report is a file.
        const path = join(dir, 'report.sarif');
        writeFileSync(path, JSON.stringify(log, null, 1));
        const report = readSarif(path);
        const checkout = { topLevel: '/nonexistent', directory: '/nonexistent', prefix: '', files: new Set(files) };
        const outcome = classify(report, diff, { failOn, checkout, sops: new SopsDetector('/nonexistent'), skippedLinters: new Set() });
        const netNew = new Set(outcome.netNew.map((f) => f.index));
        log.runs[0]!.results!.forEach((_, i) => {
          const r = results[i]!;
          const added = map.get(r.file);
          const onAddedLine = (added === 'all' || (added !== undefined && added.has(r.line))) && !movedLines.includes(r.line);
          if (!onAddedLine) {
            assert.ok(!netNew.has(i), `${r.file}:${r.line} is unchanged or moved but was net-new`);
          } else {
            const finding = outcome.netNew.find((f) => f.index === i);
            assert.ok(finding, `${r.file}:${r.line} was added but not net-new`);
            if (LEVEL_SEVERITY[r.level]! >= THRESHOLD[failOn]) assert.ok(finding.blocking, `${r.level} at ${failOn} must block`);
          }
        });
        assert.equal(outcome.total, results.length);
      }),
      { numRuns: 300 },
    );
  });
});
