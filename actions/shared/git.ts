import { spawn } from 'node:child_process';

export interface GitResult {
  readonly code: number;
  /** Standard output as bytes: paths in it are not always valid UTF-8 text until split. */
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** git gave no answer: it could not be started at all (not installed, not on PATH), or did not finish within the caller's bound. */
export class GitUnavailable extends Error {
  override readonly name = 'GitUnavailable';
}

export interface GitOptions {
  /**
   * Stop git (SIGKILL) after this long and reject: for calls that must not hold a step (git
   * waiting on a stalled file system or a stuck lock). Without it git runs to its end.
   */
  readonly timeoutMs?: number;
}

/**
 * Runs `git [-C <dir>] <args>` to its end. A non-zero exit is a result, not an error: to some
 * callers it means "no" (not tracked, not a commit, nothing to unset), to others a failure they
 * word themselves. Only a git that cannot be started, or outlives `timeoutMs`, rejects (`GitUnavailable`).
 */
export function git(dir: string | undefined, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const { timeoutMs } = options;
    const child = spawn('git', [...(dir === undefined ? [] : ['-C', dir]), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs), killSignal: 'SIGKILL' as const }),
    });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) =>
      reject(new GitUnavailable(err.name === 'AbortError' ? `git did not finish within ${(timeoutMs ?? 0) / 1000} s` : `cannot run git: ${err.message}`)),
    );
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(chunks), stderr }));
  });
}

/** The output as trimmed text: for commands that print one name or hash. */
export function gitText(result: GitResult): string {
  return result.stdout.toString('utf8').trim();
}
