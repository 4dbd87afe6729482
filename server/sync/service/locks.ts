/** A held lock on one source (or on another key, such as an issue push's product). */
export interface Lease {
  release(): Promise<void>;
}

/**
 * One lock per key: per source, a scheduled and a triggered run of the same source never
 * overlap, runs of different sources may; issue push takes keys of its own (`issues/push-locks.ts`).
 * `acquire` answers at once; it never waits for a holder.
 */
export interface SourceLocks {
  readonly kind: 'memory' | 'mongodb';
  /** The lease, or undefined when another holder has the key (a source name, or an issue-push key). */
  acquire(key: string, holder: string): Promise<Lease | undefined>;
  close(): Promise<void>;
}

/** In-process locks: enough for the single replica the service runs as. */
export function memoryLocks(): SourceLocks {
  const held = new Map<string, string>();
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
