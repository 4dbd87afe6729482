import { spawn } from 'node:child_process';
import { GateError } from '../errors.js';

export interface GitResult {
  readonly code: number;
  /** Standard output as bytes: paths in it are not always valid UTF-8 text until split. */
  readonly stdout: Buffer;
  readonly stderr: string;
}

/**
 * Runs `git -C <repo> <args>` to its end. A non-zero exit is a result, not an error: to some
 * callers it means "no" (not tracked, not a commit), to others a failure they word themselves.
 * Only a git that cannot be started rejects (a `GateError`).
 */
export function git(repo: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', repo, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => reject(new GateError(`cannot run git: ${err.message}`)));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(chunks), stderr }));
  });
}

/** The output as trimmed text: for commands that print one name or hash. */
export function gitText(result: GitResult): string {
  return result.stdout.toString('utf8').trim();
}
