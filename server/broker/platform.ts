import type { AppClients } from '../platform/clients.js';
import type { AppClient } from '../platform/github-app.js';
import type { PlatformSettings } from './settings.js';
import { refuse } from '../errors.js';

/** The app client of a platform, or `503 app_unconfigured` (the log names the setting, the body nothing). */
export function appClientFor(clients: AppClients, platform: PlatformSettings): AppClient {
  if (!platform.apiBase.ok) throw refuse('app_unconfigured', {}, { cause: platform.apiBase.error });
  if (!platform.app.ok) throw refuse('app_unconfigured', {}, { cause: platform.app.error });
  return clients.for(platform.apiBase.value, platform.app.value);
}
