import type { SourceName } from '../config.js';

/** A held lock on one source. */
export interface Lease {
  release(): Promise<void>;
}

/**
 * One lock per source: a scheduled and a triggered run of the same source never overlap, runs
 * of different sources may. `acquire` answers at once; it never waits for a holder.
 */
export interface SourceLocks {
  readonly kind: 'memory' | 'mongodb';
  /** The lease, or undefined when another run holds the source. */
  acquire(source: SourceName, holder: string): Promise<Lease | undefined>;
  close(): Promise<void>;
}

/** In-process locks: enough for the single replica the service runs as. */
export function memoryLocks(): SourceLocks {
  const held = new Map<SourceName, string>();
  return {
    kind: 'memory',
    acquire: async (source, holder) => {
      if (held.has(source)) return undefined;
      held.set(source, holder);
      return {
        release: async () => {
          if (held.get(source) === holder) held.delete(source);
        },
      };
    },
    close: async () => undefined,
  };
}
