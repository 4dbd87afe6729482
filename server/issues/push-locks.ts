import type { WaitingClock } from '../clock.js';

/** A held key. */
export interface Lease {
  release(): Promise<void>;
}

/**
 * The locks issue push takes its keys in: the runs' own locks (`sync_locks` with MONGODB_URI),
 * passed in by the service. `acquire` answers at once, with undefined when another holder has the key.
 */
export interface PushLocks {
  acquire(key: string, holder: string): Promise<Lease | undefined>;
}

export interface PushLockOptions {
  /** Waiting for another push's locks. */
  readonly clock: WaitingClock;
  /** The longest wait for another push to finish with a key. */
  readonly waitMs: number;
  /** Pause between two attempts on a held key. */
  readonly pollMs: number;
}

/** Another push held a key longer than the wait. */
export class PushLockTimeout extends Error {
  override readonly name = 'PushLockTimeout';
}

/**
 * The keys of issue push in the locks the runs use (`sync_locks` with MONGODB_URI): one per
 * DefectDojo product, one per GitHub repository. Names are compared without case, as GitHub
 * compares repository names (so two spellings of one product cannot push side by side).
 */
export const productKey = (product: string): string => `issue-push:product:${product.toLowerCase()}`;
export const repositoryKey = (server: string, fullName: string): string => `issue-push:repository:${server.toLowerCase()} ${fullName.toLowerCase()}`;

/**
 * Holds every key, taken in sorted order so two pushes that want overlapping keys never each hold
 * what the other waits for; a held key is tried again every `pollMs` up to `waitMs`. Callers take
 * all product keys before any repository key. On a timeout, what was taken is released again.
 */
export async function holdKeys(locks: PushLocks, keys: readonly string[], holder: string, options: PushLockOptions): Promise<() => Promise<void>> {
  const leases: Lease[] = [];
  const release = async () => {
    // Every lease is released even when one release fails; a Mongo lease left behind expires.
    await Promise.allSettled(leases.splice(0).reverse().map((l) => l.release()));
  };
  const deadline = options.clock.now() + options.waitMs;
  try {
    for (const key of [...new Set(keys)].sort()) {
      for (;;) {
        const lease = await locks.acquire(key, holder);
        if (lease) {
          leases.push(lease);
          break;
        }
        if (options.clock.now() >= deadline) throw new PushLockTimeout(`another issue push held ${key} for longer than ${Math.round(options.waitMs / 1000)} s`);
        await options.clock.sleep(options.pollMs);
      }
    }
  } catch (err) {
    await release();
    throw err;
  }
  return release;
}

/** How long a push waits for another push of the same product or repository, and how often it looks. */
export const DEFAULT_PUSH_LOCK_WAIT = { waitMs: 15 * 60_000, pollMs: 2000 } as const;
