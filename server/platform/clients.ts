import type { AppCredentials } from './credentials.js';
import { AppClient, type PlatformClientOptions } from './github-app.js';

/**
 * One `AppClient` per parsed credentials object: settings are parsed once per environment
 * (`memoOnEnv`), so unchanged settings keep their client (and its app JWT) and a changed key,
 * which parses anew, gets a new one. Clients of settings no longer in use go with them.
 */
export class AppClients {
  private readonly clients = new WeakMap<AppCredentials, AppClient>();

  constructor(private readonly options: PlatformClientOptions) {}

  for(apiBase: string, credentials: AppCredentials): AppClient {
    let client = this.clients.get(credentials);
    // The API base is parsed beside the credentials: both come from the same settings object.
    if (!client || client.apiBase !== apiBase) this.clients.set(credentials, (client = new AppClient(apiBase, credentials, this.options)));
    return client;
  }
}
