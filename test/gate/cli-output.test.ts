import assert from 'node:assert/strict';
import { CliOutput } from '../../actions/gate/outputs/cli-output.js';

/** Two sinks writing to one terminal, in the order the writes reach them. */
function terminal() {
  const screen: string[] = [];
  const writes = { stdout: 0, stderr: 0 };
  return {
    screen,
    writes,
    stdout: { write: (text: string) => (writes.stdout++, screen.push(text)) },
    stderr: { write: (text: string) => (writes.stderr++, screen.push(text)) },
  };
}

describe('gate CLI output', () => {
  it('prints what console.log and console.error would, in the order they were called', () => {
    const t = terminal();
    const io = new CliOutput(t.stdout, t.stderr);
    const calls: [('out' | 'err'), string][] = [
      ['out', 'BLOCKING high     src/a.js:3 eslint no-eval'],
      ['out', ''],
      ['err', 'warning: the report is stale'],
      ['out', 'gate: 1 net-new (1 blocking)'],
      ['err', 'gate: blocked by 1 net-new finding at or above high (exit 1)'],
      ['out', 'a line with 100% of %s and %d left as written'],
    ];
    for (const [stream, line] of calls) io[stream](line);
    io.flush();
    assert.equal(t.screen.join(''), calls.map(([, line]) => `${line}\n`).join(''));
  });

  it('writes standard output in large pieces, not one write per line', () => {
    const t = terminal();
    const io = new CliOutput(t.stdout, t.stderr);
    const lines = Array.from({ length: 10_000 }, (_, i) => `net-new  medium   src/m${i % 50}/f${i}.js:${i % 80} bench-linter rule-${i % 40}`);
    for (const line of lines) io.out(line);
    io.flush();
    assert.equal(t.screen.join(''), lines.map((l) => `${l}\n`).join(''));
    const bytes = t.screen.join('').length;
    // At most one write per 64 KiB held, plus the last one.
    assert.ok(t.writes.stdout <= Math.ceil(bytes / (1 << 16)) + 1, `${t.writes.stdout} writes for ${bytes} characters`);
    assert.ok(t.writes.stdout > 1, 'held output is written as it grows, not kept whole to the end');
    assert.equal(t.writes.stderr, 0);
  });

  it('flush with nothing held writes nothing', () => {
    const t = terminal();
    const io = new CliOutput(t.stdout, t.stderr);
    io.flush();
    io.err('only an error');
    io.flush();
    assert.deepEqual(t.screen, ['only an error\n']);
    assert.equal(t.writes.stdout, 0);
  });
});
