import { ReadinessLog } from '../readiness-log.js';
import type { Logger } from '../logger.js';
import { createMemoryStore } from './memory.js';
import { createMongoStore } from './mongo.js';
import type { Store } from './types.js';

export type { Store } from './types.js';

/** `MONGODB_URI` set → MongoDB; unset → the embedded in-memory store, with one warning. */
export function createStore(env: Readonly<Record<string, string | undefined>>, logger: Logger): Store {
  const uri = env.MONGODB_URI?.trim();
  if (!uri) {
    logger.warn('MONGODB_URI is not set: using the in-memory store; every record is lost when the process stops');
    return createMemoryStore();
  }
  // The backend's own readiness is its database: a loss and the recovery are each logged once
  // (warn `not ready: store_unavailable` with the driver's reason as `cause`, then `ready again`),
  // while every request meanwhile answers 503 store_unavailable.
  const readiness = new ReadinessLog(logger, { startsReady: true });
  const store = createMongoStore(uri, {
    // The driver's wording changes during one outage (refused, timed out): the reason alone is the state.
    availability: (state) => (state.available ? readiness.ready() : readiness.notReady('store_unavailable', [], { cause: state.cause })),
  });
  store.ensureIndexes().then(
    () => logger.info({ store: 'mongodb', database: store.db.databaseName }, 'store ready'),
    (err: unknown) => logger.error({ err }, 'MongoDB indexes could not be created yet; writes retry and answer 503 meanwhile'),
  );
  return store;
}
