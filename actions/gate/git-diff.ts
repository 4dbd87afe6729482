import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { GateError } from './errors.js';

/** Added lines of one file of the diff, by its path at head; `all` for a new file. */
export type AddedLines = 'all' | ReadonlySet<number>;

export interface PullRequestDiff {
  readonly mergeBase: string;
  readonly head: string;
  /** Head path → what the pull request added there. Files absent from the map are unchanged. */
  readonly files: ReadonlyMap<string, AddedLines>;
}

const RENAME_LIMIT = 20_000;
const FETCH_DEPTH = 'check out with full history (actions/checkout with fetch-depth: 0)';

async function git(repo: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', repo, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => reject(new GateError(`cannot run git: ${err.message}`)));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

async function commitOf(repo: string, ref: string, what: string): Promise<string> {
  const { code, stdout } = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (code !== 0) throw new GateError(`the ${what} ${ref} is not reachable in this clone; ${FETCH_DEPTH}`);
  return stdout.trim();
}

/** Git's C-style quoting of unusual paths ("a\tb", octal escapes for non-ASCII bytes). */
export function unquotePath(raw: string): string {
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
 * The pull request's changes: `git diff -M --unified=0 <merge-base> <head>`, read as a stream.
 * Refuses (exit 2) a shallow clone, an unreachable base or head, and unrelated histories: it
 * never guesses what is new.
 */
export async function pullRequestDiff(repo: string, base: string, head: string): Promise<PullRequestDiff> {
  const shallow = await git(repo, ['rev-parse', '--is-shallow-repository']);
  if (shallow.code !== 0) throw new GateError(`${repo} is not a git repository: ${shallow.stderr.trim()}`);
  if (shallow.stdout.trim() === 'true') {
    throw new GateError(`this is a shallow clone, so the merge-base cannot be found; ${FETCH_DEPTH}`);
  }
  const baseCommit = await commitOf(repo, base, 'base');
  const headCommit = await commitOf(repo, head, 'head');
  const mergeBase = await git(repo, ['merge-base', baseCommit, headCommit]);
  if (mergeBase.code !== 0 || !mergeBase.stdout.trim()) {
    throw new GateError(`${base} and ${head} have no merge-base in this clone; ${FETCH_DEPTH}`);
  }
  const files = await addedLines(repo, mergeBase.stdout.trim(), headCommit);
  return { mergeBase: mergeBase.stdout.trim(), head: headCommit, files };
}

async function addedLines(repo: string, from: string, to: string): Promise<Map<string, AddedLines>> {
  const child = spawn(
    'git',
    // A rename limit far above git's default of 1000: past the limit git silently treats renames as
    // new files, which would make every finding in them net-new.
    ['-C', repo, '-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--find-renames', `-l${RENAME_LIMIT}`, '--unified=0', '--diff-filter=ACMRT', from, to],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const files = new Map<string, AddedLines>();
  let current: Set<number> | undefined;
  let newFile = false;
  // Between "diff --git" and the first hunk: header lines. After it, "+++ x" is an added line.
  let inHeader = false;
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    if (line.startsWith('diff --git ')) {
      current = undefined;
      newFile = false;
      inHeader = true;
    } else if (!inHeader && !line.startsWith('@@')) {
      continue;
    } else if (line.startsWith('new file mode')) {
      newFile = true;
    } else if (line.startsWith('+++ ')) {
      const target = line.slice(4);
      if (target === '/dev/null') continue;
      const path = unquotePath(target).replace(/^b\//, '');
      if (newFile) {
        files.set(path, 'all');
      } else {
        current = new Set();
        files.set(path, current);
      }
    } else if (line.startsWith('@@')) {
      inHeader = false;
      if (!current) continue;
      const match = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!match) continue;
      const start = Number(match[1]);
      const count = match[2] === undefined ? 1 : Number(match[2]);
      for (let n = start; n < start + count; n++) current.add(n);
    }
  }
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  if (code !== 0) throw new GateError(`git diff failed: ${stderr.trim()}`);
  if (/rename detection was skipped/i.test(stderr)) {
    throw new GateError(`the pull request renames more files than rename detection can pair (limit ${RENAME_LIMIT}); renamed files cannot be told from new ones`);
  }
  return files;
}
