import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What a child started with its own small environment still inherits: c8's coverage directory,
 * so code that only runs in child processes (process entries, the serve command) is counted.
 */
export function inherited(): Record<string, string> {
  return process.env.NODE_V8_COVERAGE ? { NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE } : {};
}

export interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * Starts a TypeScript process entry (through tsx, as in development) on port 0 and waits
 * for its "listening" log line. The child is killed if the test forgets to stop it.
 */
export async function startEntry(entry: string, env: Record<string, string>, readyMessage = 'gatehouse listening'): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...inherited(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${readyMessage}" within 15 s:\n${out}`)), 15_000);
    const check = () => {
      for (const line of out.split('\n')) {
        if (!line.includes(readyMessage)) continue;
        const parsed = JSON.parse(line) as { address?: { port?: number } };
        clearTimeout(timer);
        resolve(parsed.address?.port ?? 0);
        return;
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${out}`));
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => out, exited };
}

/** Runs a command to completion and collects its output. */
export function runToEnd(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? REPO_ROOT, env: { ...inherited(), ...(options.env ?? process.env) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} took longer than ${options.timeoutMs ?? 30_000} ms\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
