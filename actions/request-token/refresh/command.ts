import { dirname, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { TokenUnavailable } from '../broker-client.js';
import { currentToken, type RefreshDeps } from './current-token.js';
import { RefreshStore, type RefreshSettings } from './store.js';

export const USAGE = `Usage: request-token credential <folder> get|store|erase
       request-token token <folder>

Run by git (credential) and by the command line of the request-token step's token-command
output (token), in the later steps of a job whose request-token step had refresh: true. Prints
an app token with at least 10 minutes left, minting a new one through the broker when needed.
`;

export interface CommandIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
}

/** git's credential attributes (`key=value` lines). */
function attributes(input: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of input.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) found.set(line.slice(0, at), line.slice(at + 1));
  }
  return found;
}

/*
 * Whom the helper answers. Runners that share one OS user share its global git configuration, so
 * git asks every job's helper there: each answers only in a process of its own job, told by
 * `RUNNER_TEMP` (set per job by the runner, passed on by git to its helpers), and only for its own
 * job's repository on its own server (the token works nowhere else). The path comes from git
 * because the job's include file sets `useHttpPath` for the repository's URLs (`install.ts`); a
 * request without one is not answered.
 */
function inThisJob(folder: string, env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.RUNNER_TEMP) && resolve(env.RUNNER_TEMP!) === dirname(resolve(folder));
}

function forThisRepository(asked: Map<string, string>, settings: RefreshSettings): boolean {
  const server = new URL(settings.serverUrl);
  if (asked.get('protocol') !== server.protocol.slice(0, -1) || asked.get('host') !== server.host) return false;
  const repository = settings.job.GITHUB_REPOSITORY;
  const path = asked.get('path');
  if (!repository || path === undefined) return false;
  // GitHub takes names in any case, with or without `.git`; git LFS asks below it (`<repo>.git/info/lfs`).
  const own = [...server.pathname.split('/').filter(Boolean), repository].join('/').toLowerCase();
  const asks = path.toLowerCase();
  return [own, `${own}.git`].some((base) => asks === base || asks.startsWith(`${base}/`));
}

/**
 * `credential <folder> get|store|erase`, git's credential helper protocol: `get` answers
 * `username=x-access-token` and a token, for the job's own repository in the job's own processes
 * only, and nothing (exit 0: git asks its next helper) otherwise; `store` and `erase` have nothing to
 * do (the job's tokens are kept by the refresh). `token <folder>`: the token alone on stdout.
 * When no token can be had, stdout stays empty, one line on stderr names the reason, and the exit
 * code is 1: git then fails as it would without a helper.
 */
export async function refreshCommand(argv: readonly string[], io: CommandIo, deps: RefreshDeps): Promise<number> {
  const [command, folder, operation] = argv;
  if (command === '--help' || command === '-h') {
    io.stdout.write(USAGE);
    return 0;
  }
  const credential = command === 'credential' && folder !== undefined && ['get', 'store', 'erase'].includes(operation ?? '');
  if (!credential && !(command === 'token' && folder !== undefined && operation === undefined)) {
    io.stderr.write(USAGE);
    return 2;
  }
  const store = new RefreshStore(folder!);
  let appName = 'Gatehouse';
  try {
    const asked = credential ? attributes(await text(io.stdin)) : undefined;
    // Another job's git (or another operation) gets nothing, not even a reason line.
    if (credential && (operation !== 'get' || !inThisJob(folder!, deps.env))) return 0;
    const settings = store.settings();
    appName = settings.appName;
    if (asked && !forThisRepository(asked, settings)) return 0;
    const token = await currentToken(store, deps, (line) => io.stderr.write(`${line}\n`));
    io.stdout.write(asked ? `username=x-access-token\npassword=${token}\n` : `${token}\n`);
    return 0;
  } catch (err) {
    const reason = err instanceof TokenUnavailable ? err.reason : 'unexpected error';
    io.stderr.write(`${appName} token unavailable (${reason})\n`);
    return 1;
  }
}
