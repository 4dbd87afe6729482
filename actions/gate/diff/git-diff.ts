import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { GateError } from '../errors.js';
import { git, gitText } from './git.js';
import { LineHasher } from './line-hash.js';
import { NumberList } from '../reports/number-list.js';

/** Added lines of one file of the diff, by its path at head; `all` for a new file. */
export type AddedLines = 'all' | ReadonlySet<number>;

export interface PullRequestDiff {
  readonly mergeBase: string;
  readonly head: string;
  /** Head path → what the pull request added there. Files absent from the map are unchanged. */
  readonly files: ReadonlyMap<string, AddedLines>;
  /**
   * Head path → added lines (of `files`) whose text, whitespace normalised, is a removed line
   * anywhere in the diff, deleted files included: code that moved, was re-indented or changed
   * line endings. Absent when no line of the file moved.
   */
  readonly moved: ReadonlyMap<string, ReadonlySet<number>>;
}

const RENAME_LIMIT = 20_000;
const FETCH_DEPTH = 'check out with full history (actions/checkout with fetch-depth: 0)';

async function commitOf(repo: string, ref: string, what: string): Promise<string> {
  const found = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (found.code !== 0) throw new GateError(`the ${what} ${ref} is not reachable in this clone; ${FETCH_DEPTH}`);
  return gitText(found);
}

/** Git's C-style quoting of unusual paths ("a\tb", octal escapes for non-ASCII bytes). */
function unquotePath(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1]!;
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The pull request's changes: `git diff -M --unified=0 <merge-base> <head>`. Refuses (exit 2) a
 * shallow clone, an unreachable base or head, and unrelated histories: it never guesses what is
 * new. `onRunning` is called once `git diff` works in its own process (or the checks have failed),
 * so the caller can do its own work meanwhile.
 */
export async function pullRequestDiff(repo: string, base: string, head: string, onRunning: () => void = () => {}): Promise<PullRequestDiff> {
  try {
    // The three checks run together; their failures are reported in this order.
    // The merge-base is asked for beside the checks, from the same names (one git process less
    // on the way to `git diff`); its answer counts only once they passed.
    const [shallow, baseCommit, headCommit, mergeBase] = await Promise.all([
      git(repo, ['rev-parse', '--is-shallow-repository']),
      commitOf(repo, base, 'base').catch((err: unknown) => err as GateError),
      commitOf(repo, head, 'head').catch((err: unknown) => err as GateError),
      git(repo, ['merge-base', `${base}^{commit}`, `${head}^{commit}`]),
    ]);
    if (shallow.code !== 0) throw new GateError(`${repo} is not a git repository: ${shallow.stderr.trim()}`);
    if (gitText(shallow) === 'true') {
      throw new GateError(`this is a shallow clone, so the merge-base cannot be found; ${FETCH_DEPTH}`);
    }
    if (typeof baseCommit !== 'string') throw baseCommit;
    if (typeof headCommit !== 'string') throw headCommit;
    const mergeBaseCommit = gitText(mergeBase);
    if (mergeBase.code !== 0 || !mergeBaseCommit) {
      // Not a shallow clone (checked above), so the two histories share no commit at all.
      throw new GateError(
        `${base} and ${head} share no commit (no merge-base): the base's history was rewritten (force-pushed) after the pull request branched, or the two branches are unrelated; ` +
          'rebase the pull request onto the current base, or give the commit it branched from as the base',
      );
    }
    const { files, moved } = await addedLines(repo, mergeBaseCommit, headCommit, onRunning);
    return { mergeBase: mergeBaseCommit, head: headCommit, files, moved };
  } finally {
    onRunning();
  }
}

/**
 * Runs `git diff` into a temporary file rather than a pipe: a pipe would stop git as soon as it
 * filled while this process is busy reading the report, and the two are meant to overlap. The
 * file is parsed as it grows (`parseAsWritten`).
 */
async function addedLines(repo: string, from: string, to: string, onRunning: () => void): Promise<Pick<PullRequestDiff, 'files' | 'moved'>> {
  // Made and removed synchronously: a thread-pool round trip each way sat between the checks and
  // git diff, and between git diff and the results.
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-gate-diff-'));
  try {
    const output = join(dir, 'diff');
    const child = spawn(
      'git',
      // A rename limit far above git's default of 1000: past the limit git silently treats renames
      // as new files, which would make every finding in them net-new. Deleted files are read
      // too: their removed lines are code that may have moved elsewhere.
      ['-C', repo, '-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--find-renames', `-l${RENAME_LIMIT}`, '--unified=0', '--diff-filter=ACDMRT', `--output=${output}`, from, to],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number>((resolve, reject) => {
      child.on('error', (err) => reject(new GateError(`cannot run git: ${err.message}`)));
      child.on('close', (c) => resolve(c ?? 1));
    });
    onRunning();
    const parser = new DiffParser();
    const code = await parseAsWritten(output, exited, parser);
    if (code !== 0) throw new GateError(`git diff failed: ${stderr.trim()}`);
    if (/rename detection was skipped/i.test(stderr)) {
      throw new GateError(`the pull request renames more files than rename detection can pair (limit ${RENAME_LIMIT}); renamed files cannot be told from new ones`);
    }
    parser.end();
    return { files: parser.files, moved: parser.moved };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How often git diff's output is looked at while git runs and this process waits. */
const POLL_MS = 2;

/**
 * Parses git diff's output file as git writes it, whenever this process waits (the caller reads
 * the report meanwhile, then waits for the diff), and the rest once git has exited: the parse is
 * then mostly done by the time git ends, instead of starting only then. Resolves to git's exit
 * code; on a failure, what was parsed is the caller's to drop.
 */
export async function parseAsWritten(path: string, exited: Promise<number>, parser: DiffParser): Promise<number> {
  let code: number | undefined;
  exited.then(
    (c) => (code = c),
    () => {},
  );
  const chunk = Buffer.allocUnsafe(1 << 16);
  let fd: number | undefined;
  let position = 0;
  try {
    for (;;) {
      // Read after git has exited, this pass sees all it wrote.
      const ended = code !== undefined;
      if (fd === undefined) {
        try {
          fd = openSync(path, 'r');
        } catch (err) {
          // Not made yet: git opens it once it starts.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      if (fd !== undefined) {
        for (let read; (read = readSync(fd, chunk, 0, chunk.length, position)) > 0; position += read) parser.push(chunk.subarray(0, read));
      }
      if (ended) return code!;
      await Promise.race([exited, delay(POLL_MS)]);
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const NEWLINE = 0x0a;
const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

function startsWith(buf: Buffer, start: number, end: number, prefix: string): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[start + i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/**
 * `git diff --unified=0` output, read as bytes: only file headers and hunk headers are decoded.
 * The added and removed lines' text (most of the output) never becomes strings: each line is
 * hashed after whitespace normalisation (see `LineHasher`), removed lines into one list, added
 * lines beside their line number, so that `end()` can tell which added lines only moved.
 */
export class DiffParser {
  readonly files = new Map<string, AddedLines>();
  /** Filled by `end()`: head path → added lines whose text was removed somewhere in the diff. */
  readonly moved = new Map<string, Set<number>>();
  private current: Set<number> | undefined;
  private newFile = false;
  /** Between "diff --git" and the first hunk: header lines. After it, "+++ x" is an added line. */
  private inHeader = false;
  /** The start of a line that a chunk cut, when it may matter. */
  private partial: Buffer | undefined;
  /** A hunk line that a chunk cut: its hash goes on in the next chunk. */
  private open = false;
  private readonly hasher = new LineHasher();
  /** The kind of hunk line being hashed: 0x2b "+", 0x2d "-", else nothing to record. */
  private kind = 0;
  /** The head line number the next added line of this hunk will have. */
  private nextLine = 0;
  /** Normalised hashes of every meaningful removed line, from every file (deleted ones too). */
  private removed = new NumberList();
  /** Head paths of the diff, in order; `pending` refers to them by index. */
  private readonly paths: string[] = [];
  /** The index in `paths` of the current file, -1 for a deleted one. */
  private path = -1;
  /** Every meaningful added line as a triple (path index, line, hash), until `end()`: one list, not one per file. */
  private pending = new NumberList();

  push(chunk: Buffer): void {
    let start = 0;
    if (this.open || this.partial) {
      const newline = chunk.indexOf(NEWLINE);
      if (newline < 0) {
        if (this.open) this.hasher.feed(chunk, 0, chunk.length);
        else this.partial = Buffer.concat([this.partial!, chunk]);
        return;
      }
      if (this.open) {
        this.hasher.feed(chunk, 0, newline);
        this.endContent();
      } else {
        const line = Buffer.concat([this.partial!, chunk.subarray(0, newline)]);
        this.partial = undefined;
        this.line(line, 0, line.length);
      }
      start = newline + 1;
    }
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline < 0) break;
      this.line(chunk, start, newline);
      start = newline + 1;
    }
    if (start < chunk.length) {
      if (this.isContent(chunk[start]!)) {
        this.beginContent(chunk, start, chunk.length);
        this.open = true;
      } else {
        this.partial = Buffer.from(chunk.subarray(start));
      }
    }
  }

  end(): void {
    if (this.open) this.endContent();
    if (this.partial) this.line(this.partial, 0, this.partial.length);
    this.partial = undefined;
    const { pending } = this;
    const removed = this.removed.sorted();
    for (let i = 0; i < pending.length; i += 3) {
      if (!removed.includes(pending.at(i + 2))) continue;
      const path = this.paths[pending.at(i)]!;
      let moved = this.moved.get(path);
      if (!moved) this.moved.set(path, (moved = new Set()));
      moved.add(pending.at(i + 1));
    }
    this.pending = new NumberList();
    this.paths.length = 0;
    this.removed = new NumberList();
  }

  /** A hunk's added or removed line, or git's "\ No newline" marker. */
  private isContent(first: number): boolean {
    return !this.inHeader && first !== 0x40 /* @ */ && first !== 0x64 /* d */;
  }

  private beginContent(buf: Buffer, start: number, end: number): void {
    this.kind = buf[start]!;
    this.hasher.reset();
    if (this.kind === 0x2b || this.kind === 0x2d) this.hasher.feed(buf, start + 1, end);
  }

  private endContent(): void {
    this.open = false;
    if (this.kind === 0x2d) {
      if (this.hasher.meaningful) this.removed.push(this.hasher.digest());
    } else if (this.kind === 0x2b) {
      const line = this.nextLine++;
      if (this.hasher.meaningful && this.path >= 0) {
        this.pending.push(this.path);
        this.pending.push(line);
        this.pending.push(this.hasher.digest());
      }
    }
  }

  private line(buf: Buffer, start: number, end: number): void {
    if (startsWith(buf, start, end, 'diff --git ')) {
      this.current = undefined;
      this.path = -1;
      this.newFile = false;
      this.inHeader = true;
    } else if (this.isContent(buf[start]!)) {
      this.beginContent(buf, start, end);
      this.endContent();
    } else if (startsWith(buf, start, end, 'new file mode')) {
      if (this.inHeader) this.newFile = true;
    } else if (startsWith(buf, start, end, '+++ ')) {
      if (!this.inHeader) return;
      // git ends the name with a tab when it holds a space; a real tab in a name is quoted.
      const target = buf.toString('utf8', start + 4, buf[end - 1] === 0x09 ? end - 1 : end);
      if (target === '/dev/null') return;
      const path = unquotePath(target).replace(/^b\//, '');
      if (this.newFile) {
        this.files.set(path, 'all');
      } else {
        this.current = new Set();
        this.files.set(path, this.current);
      }
      this.path = this.paths.push(path) - 1;
    } else if (startsWith(buf, start, end, '@@')) {
      this.inHeader = false;
      const match = HUNK.exec(buf.toString('latin1', start, Math.min(end, start + 100)));
      if (!match) return;
      const first = Number(match[1]);
      const count = match[2] === undefined ? 1 : Number(match[2]);
      this.nextLine = first;
      if (!this.current) return;
      for (let n = first; n < first + count; n++) this.current.add(n);
    }
  }
}
