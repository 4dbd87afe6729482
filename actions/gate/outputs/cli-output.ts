import type { CliIo } from '../command.js';

/** Where the lines go: `process.stdout` and `process.stderr`, or any stream-like sink in tests. */
interface Sink {
  write(text: string): unknown;
}

/** Bytes of standard output held before they are written. */
const FLUSH_AT = 1 << 16;

/**
 * The command line's output, as `console.log`/`console.error` would print it (each line followed by
 * a newline), with standard output collected into large writes: `gate ci` prints a line per
 * net-new finding, thousands on a large report, and one console call per line cost more than the
 * rest of the output phase. A line on standard error writes out what standard output holds first,
 * so the two keep their order on a shared terminal; `flush` writes the rest at the end.
 */
export class CliOutput implements CliIo {
  private held: string[] = [];
  private size = 0;

  constructor(
    private readonly stdout: Sink,
    private readonly stderr: Sink,
  ) {}

  readonly out = (line: string): void => {
    this.held.push(line, '\n');
    this.size += line.length + 1;
    if (this.size >= FLUSH_AT) this.flush();
  };

  readonly err = (line: string): void => {
    this.flush();
    this.stderr.write(`${line}\n`);
  };

  flush(): void {
    if (this.held.length === 0) return;
    const text = this.held.join('');
    this.held = [];
    this.size = 0;
    this.stdout.write(text);
  }
}
