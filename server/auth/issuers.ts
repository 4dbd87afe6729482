import type { JSONWebKeySet } from 'jose';
import { jsonValue } from '../http/json.js';

/**
 * One trusted issuer. The key-set address comes from configuration only, never from a token.
 * `pinnedJwks` makes verification use that document with no outbound call.
 */
export interface IssuerConfig {
  readonly issuer: string;
  readonly jwksUrl: string;
  readonly pinnedJwks?: JSONWebKeySet;
}

/** Static map from the exact `iss` string to its configuration. */
export type IssuerMap = ReadonlyMap<string, IssuerConfig>;

export const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';

/** GitHub publishes its key set at `<issuer>/.well-known/jwks`. */
export const jwksUrlOf = (issuer: string): string => `${issuer}/.well-known/jwks`;

/** Parses a pinned JWKS document; returns an error message when it is not a usable key set. */
export function parseJwksDocument(raw: string): { jwks: JSONWebKeySet } | { error: string } {
  const doc = jsonValue(raw);
  if (doc === undefined) return { error: 'is not valid JSON' };
  const keys = (doc as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) return { error: 'must be a JWKS object with a non-empty "keys" array' };
  for (const key of keys) {
    if (!key || typeof key !== 'object' || (key as { kty?: unknown }).kty !== 'RSA') {
      return { error: 'must hold RSA public keys only (RS256 is the only accepted algorithm)' };
    }
    if ('d' in key) return { error: 'holds a private key; pin the public key set only' };
  }
  return { jwks: doc as JSONWebKeySet };
}
