import { spawn } from 'node:child_process';

export interface GitResult {
  readonly code: number;
  /** Standard output as bytes: paths in it are not always valid UTF-8 text until split. */
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** git could not be started at all (not installed, not on PATH). */
export class GitUnavailable extends Error {
  override readonly name = 'GitUnavailable';
}

/**
 * Runs `git [-C <dir>] <args>` to its end. A non-zero exit is a result, not an error: to some
 * callers it means "no" (not tracked, not a commit, nothing to unset), to others a failure they
 * word themselves. Only a git that cannot be started rejects (`GitUnavailable`).
 */
export function git(dir: string | undefined, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...(dir === undefined ? [] : ['-C', dir]), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => reject(new GitUnavailable(`cannot run git: ${err.message}`)));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(chunks), stderr }));
  });
}

/** The output as trimmed text: for commands that print one name or hash. */
export function gitText(result: GitResult): string {
  return result.stdout.toString('utf8').trim();
}
