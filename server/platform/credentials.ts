import type { KeyObject } from 'node:crypto';
import { ConfigError } from '../config-error.js';
import { parsePrivateKey } from './private-key.js';
import { secureOrLoopback } from '../http/loopback.js';

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

/** A REST base such as `https://api.github.com` or `https://ghe.example.com/api/v3`; trailing slashes dropped. */
export function parseApiBase(setting: string, raw: string): string {
  const base = raw.trim().replace(/\/+$/, '');
  const url = URL.parse(base);
  if (!url) throw new ConfigError(setting, 'must be an absolute URL');
  // App JWTs and installation tokens travel to this address: never in clear over a network.
  if (!secureOrLoopback(url)) {
    throw new ConfigError(setting, 'must be an https URL (http is accepted only on loopback)');
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(setting, 'must not carry a query, fragment or credentials');
  }
  return base;
}
