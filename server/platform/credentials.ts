import type { KeyObject } from 'node:crypto';
import { ConfigError } from '../config-error.js';
import { parsePrivateKey } from './private-key.js';

/** The identity a platform app acts as. `privateKey` is a secret: never logged, never in a body. */
export interface AppCredentials {
  readonly appId: string;
  /** An RSA private key, whatever form the setting used (`private-key.ts`). */
  readonly privateKey: KeyObject;
}

/** App id and key read together; either missing makes the app unconfigured. */
export function parseAppCredentials(
  env: Readonly<Record<string, string | undefined>>,
  names: { readonly appId: string; readonly privateKey: string },
): AppCredentials {
  const appId = env[names.appId]?.trim();
  const key = env[names.privateKey]?.trim();
  if (!appId) throw new ConfigError(names.appId, 'is not set');
  if (!/^[0-9]{1,20}$/.test(appId)) throw new ConfigError(names.appId, 'must be the numeric app id');
  if (!key) throw new ConfigError(names.privateKey, 'is not set');
  return { appId, privateKey: parsePrivateKey(names.privateKey, key) };
}
