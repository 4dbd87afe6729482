import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type CryptoKey,
  type FetchImplementation,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWSHeaderParameters,
} from 'jose';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { KEY_SET_FETCH } from '../http/call-bounds.js';
import { boundedFetch, type Fetch } from '../http/outbound.js';
import { OidcKeySetUnavailable, OidcTokenRejected } from './errors.js';
import type { IssuerConfig } from './issuers.js';

export type KeyResolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

export interface KeySetOptions {
  /** What carries key-set fetches (default: the network). */
  transport?: Fetch;
  clock?: Clock;
  /** Bound on one key-set fetch, connection and whole body (default `KEY_SET_FETCH`). */
  timeoutMs?: number;
  /** After a successful fetch, an unknown `kid` triggers no new fetch for this long. */
  cooldownMs?: number;
  /** Keys older than this are refetched before use. */
  cacheMaxAgeMs?: number;
  /** After a failed fetch, requests fail fast for this long instead of each trying again. */
  failureBackoffMs?: number;
  /** Bound on the number of key sets kept (one per issuer in practice). */
  maxEntries?: number;
}

interface RemoteEntry {
  readonly resolve: ReturnType<typeof createRemoteJWKSet>;
  failedAt?: number;
}

/** A key set is a handful of keys; an answer this large is not one. */
const MAX_KEY_SET_BYTES = 1024 * 1024;

const isKeySelectionFailure = (err: unknown): boolean =>
  err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys;

/**
 * Key sets for the configured issuers: one jose remote key set per key-set URL for the life of
 * the process (so its cache and refetch cooldown are shared by every request), or a local set for
 * a pinned document. Bounded in size; least recently used entries are dropped first.
 */
export class KeySetRegistry {
  private readonly remote = new Map<string, RemoteEntry>();
  private readonly pinned = new Map<string, ReturnType<typeof createLocalJWKSet>>();
  private readonly clock: Clock;
  private readonly options: Required<Omit<KeySetOptions, 'transport' | 'clock'>>;
  private readonly fetch: Fetch;

  constructor(options: KeySetOptions = {}) {
    this.clock = options.clock ?? systemClock;
    const timeoutMs = options.timeoutMs ?? KEY_SET_FETCH.totalMs;
    this.fetch = boundedFetch(
      { connectMs: Math.min(KEY_SET_FETCH.connectMs, timeoutMs), totalMs: timeoutMs },
      { ...(options.transport ? { transport: options.transport } : {}), buffer: { maxBytes: MAX_KEY_SET_BYTES } },
    );
    this.options = {
      timeoutMs,
      cooldownMs: options.cooldownMs ?? 30_000,
      cacheMaxAgeMs: options.cacheMaxAgeMs ?? 600_000,
      failureBackoffMs: options.failureBackoffMs ?? 1000,
      maxEntries: options.maxEntries ?? 16,
    };
  }

  /** The key resolver of one issuer. The caller has already pinned the issuer from its map. */
  resolverFor(config: IssuerConfig): KeyResolver {
    return config.pinnedJwks ? this.pinnedResolver(config.pinnedJwks) : this.remoteResolver(config);
  }

  /**
   * The keys last fetched for a remote issuer (undefined before the first fetch or for a pinned
   * one): what a last-known-good snapshot saves.
   */
  currentKeys(config: IssuerConfig): JSONWebKeySet | undefined {
    if (config.pinnedJwks) return undefined;
    return this.remote.get(config.jwksUrl)?.resolve.jwks();
  }

  private pinnedResolver(jwks: JSONWebKeySet): KeyResolver {
    const id = JSON.stringify(jwks);
    let local = take(this.pinned, id);
    if (!local) {
      local = createLocalJWKSet(jwks);
      put(this.pinned, id, local, this.options.maxEntries);
    }
    const resolve = local;
    return async (header, token) => {
      try {
        return await resolve(header, token);
      } catch (err) {
        throw new OidcTokenRejected('signature_invalid', { cause: err });
      }
    };
  }

  private remoteResolver(config: IssuerConfig): KeyResolver {
    let entry = take(this.remote, config.jwksUrl);
    if (!entry) {
      entry = {
        resolve: createRemoteJWKSet(new URL(config.jwksUrl), {
          timeoutDuration: this.options.timeoutMs,
          cooldownDuration: this.options.cooldownMs,
          cacheMaxAge: this.options.cacheMaxAgeMs,
          [customFetch]: this.fetch as unknown as FetchImplementation,
        }),
      };
      put(this.remote, config.jwksUrl, entry, this.options.maxEntries);
    }
    const current = entry;
    return async (header, token) => {
      const now = this.clock.now();
      if (current.failedAt !== undefined && now - current.failedAt < this.options.failureBackoffMs) {
        throw new OidcKeySetUnavailable(config.issuer);
      }
      try {
        const key = await current.resolve(header, token);
        current.failedAt = undefined;
        return key;
      } catch (err) {
        if (isKeySelectionFailure(err)) throw new OidcTokenRejected('signature_invalid', { cause: err });
        current.failedAt = this.clock.now();
        throw new OidcKeySetUnavailable(config.issuer, { cause: err });
      }
    };
  }
}

function take<V>(map: Map<string, V>, key: string): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

function put<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next().value as string;
    map.delete(oldest);
  }
}
