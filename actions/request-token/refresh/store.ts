import { mkdtempSync, openSync, closeSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TokenUnavailable } from '../broker-client.js';
import type { TokenRequest } from '../obtain.js';

/**
 * What a refresh needs, written by the step for the later steps of the job, which have no
 * `INPUT_*`: the request (broker, fallback, audience, permissions) and the job it was made for.
 */
export interface RefreshSettings {
  readonly request: TokenRequest;
  readonly appName: string;
  /** `GITHUB_SERVER_URL`: the only host git is given the token for. */
  readonly serverUrl: string;
  /** `GITHUB_REPOSITORY`, `GITHUB_REF`, `GITHUB_RUN_ID`, `GITHUB_SHA` of the job: every refresh is for the job's own repository. */
  readonly job: Readonly<Record<string, string>>;
}

/** A token the job holds: the step's first one, then each refresh. */
export interface HeldToken {
  readonly token: string;
  /** Epoch milliseconds. */
  readonly expiresAtMs: number;
}

/**
 * The refresh's folder under `RUNNER_TEMP`: `settings.json`, `tokens.json` (every token minted,
 * the newest last, for the post step to revoke) and a lock. The folder is the runner user's
 * alone (0700, files 0600); nothing in it is ever printed.
 */
export class RefreshStore {
  constructor(readonly dir: string) {}

  static create(runnerTemp: string, settings: RefreshSettings, first: HeldToken): RefreshStore {
    // mkdtemp makes the folder 0700.
    const store = new RefreshStore(mkdtempSync(join(runnerTemp, 'gatehouse-token-')));
    store.write('settings.json', settings);
    store.write('tokens.json', [first]);
    return store;
  }

  settings(): RefreshSettings {
    return this.read('settings.json') as RefreshSettings;
  }

  tokens(): HeldToken[] {
    const tokens = this.read('tokens.json');
    return Array.isArray(tokens) ? (tokens as HeldToken[]) : [];
  }

  add(token: HeldToken): void {
    this.write('tokens.json', [...this.tokens(), token]);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * Runs `work` while holding the folder's lock, so that git processes asking at once (parallel
   * fetches, submodules) mint one token between them. A lock older than `staleMs` is a process
   * that died holding it.
   */
  async locked<T>(work: () => Promise<T>, staleMs = 60_000): Promise<T> {
    const lock = join(this.dir, 'lock');
    for (;;) {
      try {
        closeSync(openSync(lock, 'wx', 0o600));
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
        if (age > staleMs) rmSync(lock, { force: true });
        else await sleep(50);
      }
    }
    try {
      return await work();
    } finally {
      rmSync(lock, { force: true });
    }
  }

  /** A file of the folder; the folder gone (the post step ran) or a file damaged is `refresh state missing`. */
  private read(name: string): unknown {
    try {
      return JSON.parse(readFileSync(join(this.dir, name), 'utf8'));
    } catch (err) {
      if (err instanceof SyntaxError || (err as NodeJS.ErrnoException).code === 'ENOENT') throw new TokenUnavailable('refresh state missing', { cause: err });
      throw err;
    }
  }

  /** Written whole, then renamed: a reader never sees half a file. */
  private write(name: string, value: unknown): void {
    const temporary = join(this.dir, `${name}.${process.pid}.tmp`);
    writeFileSync(temporary, JSON.stringify(value), { mode: 0o600 });
    renameSync(temporary, join(this.dir, name));
  }
}
