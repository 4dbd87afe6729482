import { createHash, type KeyObject } from 'node:crypto';
import type { AppCredentials } from './credentials.js';
import { AppClient, type PlatformClientOptions } from './github-app.js';

/** Digest of a key, once per parsed key (settings keep the same `KeyObject` until they change). */
const digests = new WeakMap<KeyObject, string>();

function keyDigest(key: KeyObject): string {
  let digest = digests.get(key);
  if (digest === undefined) {
    digest = createHash('sha256').update(key.export({ type: 'pkcs8', format: 'der' })).digest('hex');
    digests.set(key, digest);
  }
  return digest;
}

/**
 * One `AppClient` per (API base, app id, key), kept while the settings stay the same, so a changed
 * key takes effect on the next request and an unchanged one is not re-imported per request.
 */
export class AppClients {
  private readonly clients = new Map<string, AppClient>();

  constructor(
    private readonly options: PlatformClientOptions,
    private readonly maxEntries = 8,
  ) {}

  for(apiBase: string, credentials: AppCredentials): AppClient {
    const id = `${apiBase}\n${credentials.appId}\n${keyDigest(credentials.privateKey)}`;
    let client = this.clients.get(id);
    if (!client) {
      client = new AppClient(apiBase, credentials, this.options);
      this.clients.set(id, client);
      // Old settings' clients go first; only a handful of (base, app) pairs exist at once.
      while (this.clients.size > this.maxEntries) this.clients.delete(this.clients.keys().next().value as string);
    }
    return client;
  }
}
