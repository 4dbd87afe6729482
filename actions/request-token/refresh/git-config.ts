import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * `git <args>` to its end: its output, or undefined when git exited non-zero; rejects only when git
 * cannot be run at all (not installed), with a reason safe to print.
 */
export async function git(args: readonly string[], cwd?: string): Promise<string | undefined> {
  try {
    return (await run('git', [...args], { timeout: 10_000, ...(cwd ? { cwd } : {}) })).stdout;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { code?: number | string };
    if (typeof e.code === 'number') return undefined;
    throw new Error(`git cannot be run (${String(e.code ?? e.message)})`);
  }
}

/** The job's credential helper entry: git asks it for every URL under the server's. */
export const helperKey = (serverUrl: string): string => `credential.${new URL(serverUrl).origin}.helper`;
