import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GateError } from '../errors.js';
import { git, gitText } from './git.js';

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
 * filled while this process is busy reading the report, and the two are meant to overlap.
 */
async function addedLines(repo: string, from: string, to: string, onRunning: () => void): Promise<Pick<PullRequestDiff, 'files' | 'moved'>> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-gate-diff-'));
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
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', (err) => reject(new GateError(`cannot run git: ${err.message}`)));
      child.on('close', (c) => resolve(c ?? 1));
      onRunning();
    });
    if (code !== 0) throw new GateError(`git diff failed: ${stderr.trim()}`);
    if (/rename detection was skipped/i.test(stderr)) {
      throw new GateError(`the pull request renames more files than rename detection can pair (limit ${RENAME_LIMIT}); renamed files cannot be told from new ones`);
    }
    // Past V8's longest string (about 512 MiB) the diff cannot be read: no answer, never a guess.
    const text = await readFile(output, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new GateError(`cannot read the output of git diff: ${err.code ?? err.message}`);
    });
    return parseDiff(text);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/**
 * A diff line's text as moved code is recognised by: leading and trailing whitespace (CR included)
 * dropped, inner runs counted as one space. So `\tfoo(a,  b)\r` and `foo(a, b)` match, and
 * `foo(a,b)` does not. Undefined for a line without a letter, a digit or a non-ASCII character:
 * blank lines and lone brackets say nothing about where code came from.
 */
function movableText(line: string): string | undefined {
  if (!/[A-Za-z0-9\u0080-\uffff]/.test(line)) return undefined;
  return normalisedLine(line.slice(1));
}

/** A line's text with leading and trailing whitespace dropped and inner runs counted as one space. */
export function normalisedLine(text: string): string {
  return text.replace(/[ \t\r\v\f]+/g, ' ').replace(/^ | $/g, '');
}

/**
 * `git diff --unified=0` output: the added lines of each file by its head path, and which of them
 * only moved (their text, as `movableText`, is a removed line anywhere in the diff).
 */
export function parseDiff(output: string): Pick<PullRequestDiff, 'files' | 'moved'> {
  const files = new Map<string, AddedLines>();
  const removed = new Set<string>();
  /** Every meaningful added line: its path, line number and text, until every removed line is known. */
  const added: { path: string; line: number; text: string }[] = [];
  let current: Set<number> | undefined;
  let path: string | undefined;
  let newFile = false;
  /** Between "diff --git" and the first hunk: header lines. After it, "+++ x" is an added line. */
  let inHeader = false;
  let nextLine = 0;
  for (const line of output.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = path = undefined;
      newFile = false;
      inHeader = true;
    } else if (!inHeader && line !== '' && line[0] !== '@') {
      // A hunk's added or removed line, or git's "\ No newline" marker.
      const text = line[0] === '+' || line[0] === '-' ? movableText(line) : undefined;
      if (line[0] === '+') {
        const at = nextLine++;
        if (text !== undefined && path !== undefined) added.push({ path, line: at, text });
      } else if (text !== undefined && line[0] === '-') {
        removed.add(text);
      }
    } else if (line.startsWith('new file mode')) {
      newFile = inHeader;
    } else if (line.startsWith('+++ ') && inHeader) {
      // git ends the name with a tab when it holds a space; a real tab in a name is quoted.
      const target = line.slice(4).replace(/\t$/, '');
      if (target === '/dev/null') continue;
      path = unquotePath(target).replace(/^b\//, '');
      current = newFile ? undefined : new Set();
      files.set(path, current ?? 'all');
    } else if (line.startsWith('@@')) {
      inHeader = false;
      const match = HUNK.exec(line);
      if (!match) continue;
      const first = Number(match[1]);
      const count = match[2] === undefined ? 1 : Number(match[2]);
      nextLine = first;
      for (let n = first; current && n < first + count; n++) current.add(n);
    }
  }
  const moved = new Map<string, Set<number>>();
  for (const { path, line, text } of added) {
    if (!removed.has(text)) continue;
    let lines = moved.get(path);
    if (!lines) moved.set(path, (lines = new Set()));
    lines.add(line);
  }
  return { files, moved };
}
