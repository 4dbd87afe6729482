import { brokerSettings } from '../broker/settings.js';
import type { Checked, ConfigError, Env } from '../config-error.js';
import { checkListenSettings, type ListenSettings, type Notice } from '../startup/checks.js';
import { configurationProblems } from './token.js';

export interface MinimalStartup extends ListenSettings {
  readonly notices: readonly Notice[];
}

/**
 * What the minimal broker checks before it starts, every problem at once: PORT, HOST and
 * LOG_LEVEL. Its broker settings are read per request and never stop it (/readyz and /token
 * answer 503 until they are usable): they come back as one notice. They are read through the
 * memo its requests use, so they are parsed once.
 */
export function checkMinimalStartup(env: Env): Checked<MinimalStartup> {
  const problems: ConfigError[] = [];
  const listen = checkListenSettings(env, problems);
  if (!listen) return { ok: false, problems };
  const unusable = configurationProblems(brokerSettings(env));
  const notices: Notice[] =
    unusable.length > 0 ? [{ level: 'warn', message: 'configuration unusable: /readyz and /token answer 503 config_unavailable', fields: { problems: unusable } }] : [];
  return { ok: true, value: { ...listen, notices } };
}
