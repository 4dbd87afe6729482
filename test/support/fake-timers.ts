import type { Timers } from '../../server/clock.js';

/**
 * A clock that moves only when told: timers fire in time order as `advance` passes them, and
 * `jump` moves time without firing anything (a process that was frozen). No real waiting.
 */
export class FakeTimers implements Timers {
  private current: number;
  private nextHandle = 1;
  private readonly pending = new Map<number, { at: number; fire: () => void }>();

  constructor(start: Date) {
    this.current = start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimeout(fire: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.pending.set(handle, { at: this.current + ms, fire });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Timers still armed, with the delay each was set for. */
  get armed(): number {
    return this.pending.size;
  }

  /** Moves time forward by `ms`, firing each timer when its moment comes. */
  advance(ms: number): void {
    const end = this.current + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.current = Math.max(this.current, due[1].at);
      due[1].fire();
    }
    this.current = end;
  }

  /** Moves time without firing; the next `advance(0)` fires what is overdue. */
  jump(ms: number): void {
    this.current += ms;
  }
}
