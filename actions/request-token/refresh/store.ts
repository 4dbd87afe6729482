import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenUnavailable } from '../broker-client.js';
import type { TokenRequest } from '../obtain.js';
import { withLock } from './lock.js';

/**
 * What a refresh needs, written by the step for the later steps of the job, which have no
 * `INPUT_*`: the request (broker, fallback, audience, permissions) and the job it was made for.
 */
export interface RefreshSettings {
  readonly request: TokenRequest;
  readonly appName: string;
  /** `GITHUB_SERVER_URL`: the only host git is given the token for. */
  readonly serverUrl: string;
  /** `GITHUB_API_URL`: where a refresh revokes a token it minted after the post step began. */
  readonly apiUrl: string;
  /** `GITHUB_REPOSITORY`, `GITHUB_REF`, `GITHUB_RUN_ID`, `GITHUB_SHA` of the job: every refresh is for the job's own repository. */
  readonly job: Readonly<Record<string, string>>;
}

/** A token the job holds: the step's first one, then each refresh. */
export interface HeldToken {
  readonly token: string;
  /** Epoch milliseconds. */
  readonly expiresAtMs: number;
}

/** A file of the folder not found: the folder is gone (the post step ran, or it was deleted). */
const missing = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * The refresh's folder under `RUNNER_TEMP`: `settings.json`, `tokens.json` (every token minted,
 * the newest last, for the post step to revoke), a lock, `ended` once the post step has begun,
 * and git's include file (`git-config.ts`). The folder is the runner user's alone (0700, files
 * 0600); nothing in it is ever printed.
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

  /**
   * Throws unless new tokens may still be handed out and recorded: `refresh ended` once the post
   * step has begun (it revokes what `tokens.json` names), `refresh state missing` when the folder is gone.
   */
  assertOpen(): void {
    if (existsSync(join(this.dir, 'ended'))) throw new TokenUnavailable('refresh ended');
    if (!existsSync(this.dir)) throw new TokenUnavailable('refresh state missing');
  }

  /** Records a new token; refused (see `assertOpen`) once the post step has begun or the folder is gone. */
  add(token: HeldToken): void {
    this.assertOpen();
    this.write('tokens.json', [...this.tokens(), token]);
  }

  /** The post step's mark, taken under the lock: no refresh mints or records a token after it. */
  end(): void {
    this.write('ended', true);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * Runs `work` while holding the folder's lock: git processes asking at once (parallel fetches,
   * submodules) mint one token between them, and the post step waits for a mint in flight, whose
   * token is recorded before the lock is released.
   */
  async locked<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await withLock(join(this.dir, 'lock'), work);
    } catch (err) {
      if (missing(err) && !existsSync(this.dir)) throw new TokenUnavailable('refresh state missing', { cause: err });
      throw err;
    }
  }

  /** A file of the folder; the folder gone (the post step ran) or a file damaged is `refresh state missing`. */
  private read(name: string): unknown {
    try {
      return JSON.parse(readFileSync(join(this.dir, name), 'utf8'));
    } catch (err) {
      if (err instanceof SyntaxError || missing(err)) throw new TokenUnavailable('refresh state missing', { cause: err });
      throw err;
    }
  }

  /** Written whole, then renamed: a reader never sees half a file. */
  private write(name: string, value: unknown): void {
    const temporary = join(this.dir, `${name}.${process.pid}.tmp`);
    try {
      writeFileSync(temporary, JSON.stringify(value), { mode: 0o600 });
      renameSync(temporary, join(this.dir, name));
    } catch (err) {
      if (missing(err)) throw new TokenUnavailable('refresh state missing', { cause: err });
      throw err;
    }
  }
}
