import type { BrokerSettings } from './settings.js';

/**
 * What an operator should know at start about the broker's settings: each line names the setting
 * and the answer clients will get (settings are re-read per request, so this is a start-time view).
 */
export function brokerNotices(settings: BrokerSettings): { level: 'warn' | 'info'; message: string }[] {
  const notices: { level: 'warn' | 'info'; message: string }[] = [];
  const warn = (message: string) => notices.push({ level: 'warn', message });
  if (!settings.platforms.ok) warn(`broker: ${settings.platforms.error.message}; /token answers 500 misconfigured`);
  if (settings.primary.ok) {
    for (const part of [settings.primary.value.app, settings.primary.value.apiBase]) {
      if (!part.ok) warn(`broker: ${part.error.message}; /token, /sign and /releases answer 503 app_unconfigured`);
    }
  }
  if (settings.platforms.ok) {
    for (const platform of settings.platforms.value.values()) {
      if (platform.name !== 'enterprise') continue;
      for (const part of [platform.app, platform.apiBase]) {
        if (!part.ok) warn(`broker: ${part.error.message}; /token answers 503 app_unconfigured for enterprise tokens`);
      }
    }
  }
  if (!settings.tokenPermissions.ok) warn(`broker: ${settings.tokenPermissions.error.message}; /token answers 400 invalid_token_permissions`);
  if (!settings.policy.ok) warn(`broker: ${settings.policy.error.message}; /token answers 500 invalid_policy`);
  else if (settings.policy.value) {
    notices.push({ level: 'info', message: `broker: BROKER_POLICY is set (${settings.policy.value.entries.size} entries); /token mints only for tokens a rule of it holds for` });
  }
  if (!settings.releasesMaxRepos.ok) warn(`broker: ${settings.releasesMaxRepos.error.message}; /releases answers 500 misconfigured`);
  if (!settings.triggerSecret) notices.push({ level: 'info', message: 'broker: PROCESS_TRIGGER_SECRET is not set; /sign and /releases are disabled' });
  if (!settings.webhookSecret) notices.push({ level: 'info', message: 'broker: FORGE_WEBHOOK_SECRET is not set; /webhook is disabled' });
  return notices;
}
