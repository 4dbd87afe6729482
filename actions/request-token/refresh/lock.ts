import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../../../server/clock.js';

/**
 * How long a live holder may keep the lock before others take it as stuck: longer than a refresh
 * can take within its own bounds (the runner's OIDC endpoint twice at 10 s, the broker and its
 * fallback at 30 s each, revoking its own token at 10 s), so a slow refresh is never broken into.
 */
export const MAX_HOLD_MS = 3 * 60_000;

/** Whether the process that wrote the lock is still running (the helpers and the post step run on one machine as one user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock left by a holder that is gone (its process ended without releasing it), or held past `maxHoldMs`. */
function stale(path: string, maxHoldMs: number): boolean {
  const now = systemClock.now();
  const age = now - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? now);
  if (age > maxHoldMs) return true;
  let holder = '';
  try {
    holder = readFileSync(path, 'utf8');
  } catch {
    return false;
  }
  const pid = Number(holder.split(' ')[0]);
  // Empty: its holder is writing it right now.
  return Number.isInteger(pid) && pid > 0 && !alive(pid);
}

/**
 * Runs `work` while holding the lock file `path` (created exclusively; it names the holder's
 * process). Waits while another live process holds it. The lock is released only if it is still
 * this holder's: one taken over as stale is not removed from under its new holder.
 * An ENOENT from creating the lock (its folder is gone) is the caller's to word.
 */
export async function withLock<T>(path: string, work: () => Promise<T>, maxHoldMs = MAX_HOLD_MS): Promise<T> {
  const mine = `${process.pid} ${randomUUID()}`;
  for (;;) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (stale(path, maxHoldMs)) rmSync(path, { force: true });
      else await sleep(50);
    }
  }
  try {
    return await work();
  } finally {
    let holder: string | undefined;
    try {
      holder = readFileSync(path, 'utf8');
    } catch {
      holder = undefined;
    }
    if (holder === mine) rmSync(path, { force: true });
  }
}
