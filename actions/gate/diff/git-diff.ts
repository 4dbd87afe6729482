import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GateError } from '../errors.js';
import { git, gitText } from './git.js';
import { parseDiff, type AddedLines, type BaseLine, type ParsedDiff } from './parse-diff.js';

export { normalisedLine, type AddedLines, type BaseLine } from './parse-diff.js';

export interface PullRequestDiff {
  readonly mergeBase: string;
  readonly head: string;
  /** Head path → what the pull request added there. Files absent from the map are unchanged. */
  readonly files: ReadonlyMap<string, AddedLines>;
  /**
   * Head path → added line (of `files`) → the merge-base line whose text, whitespace normalised,
   * it repeats (removed anywhere in the diff, deleted files included): code that moved, was
   * re-indented or changed line endings. Absent when no line of the file moved.
   */
  readonly moved: ReadonlyMap<string, ReadonlyMap<number, BaseLine>>;
}

const RENAME_LIMIT = 20_000;
const FETCH_DEPTH = 'check out with full history (actions/checkout with fetch-depth: 0)';

async function commitOf(repo: string, ref: string, what: string): Promise<string> {
  const found = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (found.code !== 0) throw new GateError(`the ${what} ${ref} is not reachable in this clone; ${FETCH_DEPTH}`);
  return gitText(found);
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
 * The diff's options, every one explicit so that no configuration of the user's (or the runner's)
 * changes which lines count as added: prefixes `a/` and `b/` whatever `diff.noprefix`,
 * `diff.mnemonicPrefix` or `diff.srcPrefix` say; paths from the top level whatever
 * `diff.relative`; no external diff program, text conversion or colour; git's default algorithm,
 * no context lines and no hunks merged over unchanged lines (`diff.algorithm`,
 * `diff.interHunkContext`); submodules as one line. A rename limit far above git's default of 1000:
 * past the limit git silently treats renames as new files, which would make every finding in them
 * net-new. Deleted files are read too: their removed lines are code that may have moved elsewhere.
 */
export const DIFF_OPTIONS: readonly string[] = [
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--no-relative',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--diff-algorithm=myers',
  '--indent-heuristic',
  '--unified=0',
  '--inter-hunk-context=0',
  '--submodule=short',
  '--find-renames',
  `-l${RENAME_LIMIT}`,
  '--diff-filter=ACDMRT',
];

/** The environment git runs in, without the variables that change a diff behind its options (`GIT_DIFF_OPTS` overrides `--unified`). */
function diffEnvironment(): NodeJS.ProcessEnv {
  const { GIT_DIFF_OPTS: _opts, GIT_EXTERNAL_DIFF: _external, ...env } = process.env;
  return env;
}

/** Runs `git diff` with the gate's options into `output`; its standard error when it worked. */
async function runDiff(repo: string, args: readonly string[], output: string, onRunning: () => void): Promise<string> {
  const child = spawn('git', ['-C', repo, '-c', 'core.quotePath=false', 'diff', ...DIFF_OPTIONS, `--output=${output}`, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: diffEnvironment(),
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', (err) => reject(new GateError(`cannot run git: ${err.message}`)));
    child.on('close', (c) => resolve(c ?? 1));
    onRunning();
  });
  if (code !== 0) throw new GateError(`git diff failed: ${stderr.trim()}`);
  return stderr;
}

/** Reads a diff git wrote; past V8's longest string (about 512 MiB) it cannot be read: no answer, never a guess. */
async function readDiff(output: string): Promise<ParsedDiff> {
  const text = await readFile(output, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new GateError(`cannot read the output of git diff: ${err.code ?? err.message}`);
  });
  return parseDiff(text);
}

/**
 * Of the changed files git called binary, those it called so only because `.gitattributes` says
 * `-diff` (or `binary`), as repositories often mark lockfiles: their text can be read line by
 * line. A file binary by its content (a NUL byte, git's own test) stays binary.
 */
async function binaryByAttribute(repo: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const found = await git(repo, ['check-attr', '-z', 'diff', '--', ...paths]);
  const fields = found.stdout.toString('utf8').split('\0');
  const unset = new Set<string>();
  // -z: path, attribute, value, for each path.
  for (let i = 0; i + 2 < fields.length; i += 3) if (fields[i + 2] === 'unset') unset.add(fields[i]!);
  return unset;
}

/**
 * Runs `git diff` into a temporary file rather than a pipe: a pipe would stop git as soon as it
 * filled while this process is busy reading the report, and the two are meant to overlap. A
 * changed file git calls binary has unknown lines, so all of it counts as changed; one that is
 * binary only by `.gitattributes` is read again as text (`--text`), lines and all.
 */
async function addedLines(repo: string, from: string, to: string, onRunning: () => void): Promise<Pick<PullRequestDiff, 'files' | 'moved'>> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-gate-diff-'));
  try {
    const output = join(dir, 'diff');
    const stderr = await runDiff(repo, [from, to], output, onRunning);
    if (/rename detection was skipped/i.test(stderr)) {
      throw new GateError(`the pull request renames more files than rename detection can pair (limit ${RENAME_LIMIT}); renamed files cannot be told from new ones`);
    }
    const parsed = await readDiff(output);
    if (parsed.binary.length === 0) return { files: parsed.files, moved: parsed.moved };
    // The diff's paths are the top level's: attributes are asked, and the diff run again, there.
    const top = gitText(await git(repo, ['rev-parse', '--show-toplevel']));
    const asText = await binaryByAttribute(top, parsed.binary.map((b) => b.path));
    const again = parsed.binary.filter((b) => asText.has(b.path));
    if (again.length > 0) {
      const textOutput = join(dir, 'text-diff');
      await runDiff(top, ['--text', from, to, '--', ...new Set(again.flatMap((b) => [b.from, b.path]))], textOutput, () => {});
      const text = await readDiff(textOutput);
      for (const { path } of again) {
        const lines = text.files.get(path);
        if (lines === undefined) parsed.files.delete(path);
        else parsed.files.set(path, lines);
        const moved = text.moved.get(path);
        if (moved) parsed.moved.set(path, moved);
      }
    }
    return { files: parsed.files, moved: parsed.moved };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
