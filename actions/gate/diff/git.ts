import { GateError } from '../errors.js';
import { git as runGit, GitUnavailable, type GitResult } from '../../shared/git.js';

export { gitText, type GitResult } from '../../shared/git.js';

/** `git -C <repo> <args>` (`shared/git.ts`); a git that cannot be started is no answer (a `GateError`). */
export async function git(repo: string, args: readonly string[]): Promise<GitResult> {
  try {
    return await runGit(repo, args);
  } catch (err) {
    throw err instanceof GitUnavailable ? new GateError(err.message) : err;
  }
}
