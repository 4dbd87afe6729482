import { GateError } from '../errors.js';
import { git } from './git.js';

/** Where `--repo` lies in its git work tree: one quick `git rev-parse`. */
export interface WorkTree {
  /** The work tree's top level (`git rev-parse --show-toplevel`), absolute. */
  readonly topLevel: string;
  /** The given directory (`--repo`) as an absolute path, as given. */
  readonly directory: string;
  /** The given directory relative to the top level, `/`-terminated; `''` at the top level. */
  readonly prefix: string;
}

/** Where the report's paths can point: the git work tree and the files of the head commit. */
export interface Checkout extends WorkTree {
  /** Every file of the head commit, relative to the top level (the diff's paths are too). */
  readonly files: ReadonlySet<string>;
}

/** The checkout being read: its work tree comes first, without waiting for the head's file list. */
export interface PendingCheckout {
  readonly workTree: Promise<WorkTree>;
  readonly checkout: Promise<Checkout>;
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
 * `directory` is a subdirectory. The two git commands run together; `workTree` settles as soon as
 * the quick one has answered, for callers that need only the top level.
 */
export function checkoutOf(directory: string, head: string): PendingCheckout {
  const workTree = gitOutput(directory, ['rev-parse', '--show-toplevel', '--show-prefix']).then((where): WorkTree => {
    const [topLevel = '', prefix = ''] = where.toString('utf8').split('\n');
    return { topLevel, directory, prefix };
  });
  const listing = gitOutput(directory, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', head]);
  // The listing's own failure must not go unhandled while the work tree's is awaited first.
  listing.catch(() => {});
  const checkout = workTree.then(async (tree): Promise<Checkout> => {
    const bytes = await listing;
    const files = new Set<string>();
    let start = 0;
    for (let end; (end = bytes.indexOf(0, start)) >= 0; start = end + 1) files.add(bytes.toString('utf8', start, end));
    return { ...tree, files };
  });
  return { workTree, checkout };
}
