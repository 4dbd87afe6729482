import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

function git(repo: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn('git', ['-C', repo, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    // A git that cannot run says nothing about staleness; the diff reports it.
    child.on('error', () => resolve({ code: 1, stdout: '' }));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

/** Whether a folder above the file holds `.git`: when none does, no git process is needed to know it is untracked. */
function underAWorkTree(file: string): boolean {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * Whether the report is a file committed at head rather than this run's output: the path lies in
 * the repository, git tracks it, and its bytes hash to the very blob that head's tree holds there
 * (`git hash-object` against `git rev-parse <head>:<path>`). A linter that wrote nothing leaves
 * such a file in place, and judging it would judge an earlier run. A report outside the repository,
 * untracked, or changed since head is never stale. Returns the repository-relative path when stale.
 */
export async function staleReport(sarif: string, repo: string, head: string): Promise<string | undefined> {
  let report: string;
  try {
    report = realpathSync(sarif);
  } catch {
    return undefined;
  }
  if (!underAWorkTree(report)) return undefined;
  const top = await git(repo, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) return undefined;
  let path: string;
  try {
    path = relative(realpathSync(top.stdout.trim()), report);
  } catch {
    return undefined;
  }
  if (!path || path.startsWith('..') || isAbsolute(path)) return undefined;
  const inRepo = path.split(sep).join('/');
  const root = top.stdout.trim();
  // `:(literal)` so a path with glob characters names only itself.
  const [tracked, blob] = await Promise.all([
    git(root, ['ls-files', '--error-unmatch', '--', `:(literal)${inRepo}`]),
    git(root, ['rev-parse', '--verify', '--quiet', `${head}:${inRepo}`]),
  ]);
  if (tracked.code !== 0 || blob.code !== 0) return undefined;
  const hashed = await git(root, ['hash-object', '--', inRepo]);
  return hashed.code === 0 && hashed.stdout.trim() === blob.stdout.trim() ? inRepo : undefined;
}
