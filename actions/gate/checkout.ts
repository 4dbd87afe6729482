import { GateError } from './errors.js';
import { git } from './git.js';

/** Where the report's paths can point: the git work tree and the files of the head commit. */
export interface Checkout {
  /** The work tree's top level (`git rev-parse --show-toplevel`), absolute. */
  readonly topLevel: string;
  /** The given directory (`--repo`) as an absolute path, as given. */
  readonly directory: string;
  /** The given directory relative to the top level, `/`-terminated; `''` at the top level. */
  readonly prefix: string;
  /** Every file of the head commit, relative to the top level (the diff's paths are too). */
  readonly files: ReadonlySet<string>;
}

/** A git command's standard output as bytes; a failure is a `GateError` naming the command. */
async function gitOutput(repo: string, args: string[]): Promise<Buffer> {
  const { code, stdout, stderr } = await git(repo, args);
  if (code !== 0) throw new GateError(`git ${args[0]} failed: ${stderr.trim()}`);
  return stdout;
}

/**
 * The checkout the report is judged against. The head's file list is one `git ls-tree` into a
 * set (about a hundred bytes a file): whether a report's path names a file of the repository is
 * then a lookup, however many results name it. `--full-tree` lists from the top level even when
 * `directory` is a subdirectory.
 */
export async function checkoutOf(directory: string, head: string): Promise<Checkout> {
  const [where, listing] = await Promise.all([
    gitOutput(directory, ['rev-parse', '--show-toplevel', '--show-prefix']),
    gitOutput(directory, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', head]),
  ]);
  const [topLevel = '', prefix = ''] = where.toString('utf8').split('\n');
  const files = new Set<string>();
  let start = 0;
  for (let end; (end = listing.indexOf(0, start)) >= 0; start = end + 1) files.add(listing.toString('utf8', start, end));
  return { topLevel, directory, prefix, files };
}
