import { join } from 'node:path';
import { git, GitUnavailable } from '../../shared/git.js';
import { shellWord } from './shell-word.js';

/** Each `git config` call's bound: a stalled file system must not hold the step. A held lock fails at once. */
export const GIT_CONFIG_TIMEOUT_MS = 10_000;

const gitConfig = (args: readonly string[]) => git(undefined, ['config', ...args], { timeoutMs: GIT_CONFIG_TIMEOUT_MS });

/** Why a `git config` call failed, in git's own first line (it names the file and the lock), never more. */
const failure = (result: { code: number; stderr: string }): string => result.stderr.trim().split('\n')[0] || `git exited with ${result.code}`;

/**
 * The repository's URLs as git matches a credential context against them: a context's path must
 * match exactly, so both the plain and the `.git` form (git also applies them to URLs below them).
 */
export function repositoryUrls(serverUrl: string, repository: string): string[] {
  const url = new URL(repository, serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`).href;
  return [url, `${url}.git`];
}

/**
 * The job's credential settings in the global configuration, added as one `include.path` entry
 * naming a file in the job's folder: `credential.<url>.helper` and `credential.<url>.useHttpPath
 * true` for each of `urls`. git skips an include whose file is gone, so once the folder is
 * deleted the entry gives git nothing, even if it could not be removed. One entry of a value of
 * the job's own (the file's path) is removed exactly, leaving other jobs' entries and the user's
 * own settings alone; `useHttpPath` set directly in the global file could not be, since every
 * job would add the same `true`. Returns the entry's value; throws with git's reason.
 */
export async function includeCredentialHelper(folder: string, urls: readonly string[], helper: string): Promise<string> {
  const file = join(folder, 'git-credentials.config');
  for (const url of urls) {
    for (const [name, value] of [['helper', helper], ['useHttpPath', 'true']] as const) {
      const set = await gitConfig(['--file', file, '--add', `credential.${url}.${name}`, value]);
      if (set.code !== 0) throw new Error(failure(set));
    }
  }
  const added = await gitConfig(['--global', '--add', 'include.path', file]);
  if (added.code !== 0) throw new Error(failure(added));
  return file;
}

/** A value as an extended regular expression matching it alone: `--fixed-value` needs git 2.30, a value pattern works with every git. */
const exactly = (value: string): string => `^${value.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`;

/** The command that removes the job's include entry (what `removeCredentialHelper` runs), for a person to run. */
export const removalCommand = (file: string): string => `git config --global --unset-all include.path ${shellWord(exactly(file))}`;

/** Removes the job's include entry (that value only). `left` says why it is still there. */
export async function removeCredentialHelper(file: string): Promise<{ readonly left?: string }> {
  try {
    const removed = await gitConfig(['--global', '--unset-all', 'include.path', exactly(file)]);
    // 5: no such value (someone removed it already).
    return removed.code === 0 || removed.code === 5 ? {} : { left: failure(removed) };
  } catch (err) {
    if (err instanceof GitUnavailable) return { left: err.message };
    throw err;
  }
}
