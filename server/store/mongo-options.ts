import type { MongoClientOptions } from 'mongodb';

/**
 * The store's bounds on MongoDB (also in docs/outbound-calls.md): no server selectable within
 * 5 s, no connection within 5 s, or no reply on an open connection within 30 s, and the call
 * fails (503 where a route needs the store). A value the operator put in MONGODB_URI wins: the
 * driver lets an option object override the URI, so a default is set only where the URI is silent.
 */
type Bound = 'serverSelectionTimeoutMS' | 'connectTimeoutMS' | 'socketTimeoutMS';
export const MONGO_BOUNDS: Readonly<Record<Bound, number>> = { serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000, socketTimeoutMS: 30_000 };

export function mongoClientOptions(uri: string, appName: string, overrides: Partial<Record<Bound, number>> = {}): MongoClientOptions {
  const options: MongoClientOptions = { appName };
  for (const [name, value] of Object.entries(MONGO_BOUNDS) as [Bound, number][]) {
    const inUri = new RegExp(`[?&]${name}=`, 'i').test(uri);
    if (overrides[name] !== undefined) options[name] = overrides[name];
    else if (!inUri) options[name] = value;
  }
  return options;
}
