import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { Checkout } from '../diff/checkout.js';
import { git, gitText, type GitResult } from '../diff/git.js';

const NO: GitResult = { code: 1, stdout: Buffer.alloc(0), stderr: '' };

/** A git that cannot run says nothing about staleness (the diff reports it): a "no". */
function ask(repo: string, args: string[]): Promise<GitResult> {
  return git(repo, args).catch(() => NO);
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
 * the repository, the head commit has it, git tracks it, and its bytes hash to the very blob that
 * head's tree holds there (`git hash-object` against `git rev-parse <head>:<path>`). A linter that
 * wrote nothing leaves such a file in place, and judging it would judge an earlier run. A report
 * outside the repository, untracked, or changed since head is never stale. Returns the
 * repository-relative path when stale.
 *
 * The top level and the head's files come from the checkout the gate reads anyway: a report that
 * is not one of the head's files (the usual case, an untracked output) costs no git process.
 */
export async function staleReport(sarif: string, head: string, pendingCheckout: Promise<Checkout>): Promise<string | undefined> {
  let report: string;
  try {
    report = realpathSync(sarif);
  } catch {
    return undefined;
  }
  if (!underAWorkTree(report)) return undefined;
  let checkout: Checkout;
  let path: string;
  try {
    checkout = await pendingCheckout;
    path = relative(realpathSync(checkout.topLevel), report);
  } catch {
    // A checkout git cannot read says nothing about staleness; the diff or the checkout reports it.
    return undefined;
  }
  if (!path || path.startsWith('..') || isAbsolute(path)) return undefined;
  const inRepo = path.split(sep).join('/');
  if (!checkout.files.has(inRepo)) return undefined;
  const root = checkout.topLevel;
  // Tracked, not only present at head: a report removed from the index but left in the work tree
  // is this run's to rewrite. `:(literal)` so a path with glob characters names only itself.
  const [tracked, blob] = await Promise.all([
    ask(root, ['ls-files', '--error-unmatch', '--', `:(literal)${inRepo}`]),
    ask(root, ['rev-parse', '--verify', '--quiet', `${head}:${inRepo}`]),
  ]);
  if (tracked.code !== 0 || blob.code !== 0) return undefined;
  const hashed = await ask(root, ['hash-object', '--', inRepo]);
  return hashed.code === 0 && gitText(hashed) === gitText(blob) ? inRepo : undefined;
}
