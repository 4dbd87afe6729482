import type { MongoClient } from 'mongodb';

export type Guard = <T>(op: () => Promise<T>) => Promise<T>;

export interface MongoConnection {
  /** Before each operation: connects when the client has no open connection to the database. */
  ready(): Promise<void>;
  /** Closes the client for good: later operations fail instead of connecting again. */
  close(): Promise<void>;
}

/**
 * The driver connects on first use, but when that first connection fails it keeps the closed
 * topology and answers every later call "Topology is closed" without trying again (mongodb 7's
 * autoConnect only connects a client that has no topology), so a process started while its
 * database was down would answer 503 until restarted. An explicit `connect()` replaces a closed
 * topology and returns at once when connected; called before each operation, the database is
 * used as soon as it is up. (An outage after a successful connect is the driver's own to ride out.)
 */
export function mongoConnection(client: MongoClient): MongoConnection {
  let closed = false;
  return {
    ready: async () => {
      if (!closed) await client.connect();
    },
    close: async () => {
      closed = true;
      await client.close();
    },
  };
}
