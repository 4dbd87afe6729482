import { createLocalJWKSet, errors, type CryptoKey, type FlattenedJWSInput, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import { LRUCache } from 'lru-cache';
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
  /**
   * At most one fetch per issuer per this interval, whether the last one worked or not: a flood
   * of tokens with made-up key ids costs the issuer about one fetch a second, and a failing
   * issuer is not asked again by every request.
   */
  refetchIntervalMs?: number;
  /** Keys older than this are refetched before use. */
  cacheMaxAgeMs?: number;
  /** Told each fetch's result (the backend's metrics count them). */
  onFetch?: (result: 'ok' | 'failed') => void;
}

/** Bound on the number of key sets kept (one per issuer in practice). */
const MAX_KEY_SETS = 16;
/** A key set is a handful of keys; an answer this large is not one. */
const MAX_KEY_SET_BYTES = 1024 * 1024;

/**
 * One issuer's remote key set. Keys are fetched on first use, when older than the cache age, and
 * when a token names a key id the cached set lacks (a rotation). One fetch at a time per issuer,
 * shared by the requests waiting on it, and at most one per `refetchIntervalMs`. The verdict
 * keeps the 401/503 split: a token whose key is missing from a set fetched for it is refused;
 * when no fetch can be made for it now (the interval, or the issuer failing) there is no verdict.
 */
class RemoteKeySet {
  private jwks?: JSONWebKeySet;
  private local?: ReturnType<typeof createLocalJWKSet>;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private attemptedAt = Number.NEGATIVE_INFINITY;
  private lastAttemptFailed = false;
  private inflight?: Promise<void>;

  constructor(
    private readonly config: IssuerConfig,
    private readonly fetch: Fetch,
    private readonly clock: Clock,
    private readonly options: { refetchIntervalMs: number; cacheMaxAgeMs: number; onFetch?: (result: 'ok' | 'failed') => void },
  ) {}

  get keys(): JSONWebKeySet | undefined {
    return this.jwks;
  }

  async resolve(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> {
    const fresh = this.local && this.clock.now() - this.fetchedAt < this.options.cacheMaxAgeMs;
    if (fresh) {
      const key = await this.select(header, token);
      if (key) return key;
    }
    // Stale, never fetched, or a key id the set lacks: only a fetch made now can decide.
    await this.refresh();
    const key = await this.select(header, token);
    if (!key) throw new OidcTokenRejected('signature_invalid', { cause: new errors.JWKSNoMatchingKey() });
    return key;
  }

  /** The key for the token from the cached set, or undefined when the set has none for it. */
  private async select(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey | undefined> {
    try {
      return await this.local!(header, token);
    } catch (err) {
      if (err instanceof errors.JWKSNoMatchingKey) return undefined;
      if (err instanceof errors.JWKSMultipleMatchingKeys) throw new OidcTokenRejected('signature_invalid', { cause: err });
      throw err;
    }
  }

  /** Waits for a fetch: the one under way, or a new one when the interval allows it. */
  private refresh(): Promise<void> {
    if (this.inflight) return this.inflight;
    const now = this.clock.now();
    const wait = this.attemptedAt + this.options.refetchIntervalMs - now;
    if (wait > 0) {
      const retryAfterSeconds = Math.ceil(wait / 1000);
      return Promise.reject(new OidcKeySetUnavailable(this.config.issuer, { retryAfterSeconds, unreachable: this.lastAttemptFailed }));
    }
    this.attemptedAt = now;
    this.inflight = this.load().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async load(): Promise<void> {
    let jwks: JSONWebKeySet;
    try {
      const response = await this.fetch(this.config.jwksUrl, { headers: { accept: 'application/json' }, redirect: 'manual' });
      if (response.status !== 200) throw new Error(`the key endpoint answered ${response.status}`);
      const body = (await response.json()) as unknown;
      if (!isKeySet(body)) throw new Error('the key endpoint answered something that is not a JWKS');
      jwks = body;
      this.local = createLocalJWKSet(jwks);
    } catch (err) {
      this.lastAttemptFailed = true;
      this.options.onFetch?.('failed');
      throw new OidcKeySetUnavailable(this.config.issuer, { cause: err });
    }
    this.options.onFetch?.('ok');
    this.lastAttemptFailed = false;
    this.jwks = jwks;
    this.fetchedAt = this.clock.now();
  }
}

function isKeySet(value: unknown): value is JSONWebKeySet {
  const keys = (value as { keys?: unknown } | null)?.keys;
  return Array.isArray(keys) && keys.every((k) => typeof k === 'object' && k !== null && !Array.isArray(k));
}

/**
 * Key sets for the configured issuers: one remote key set per key-set URL for the life of the
 * process (so its cache and fetch limits are shared by every request), bounded in number (least
 * recently used dropped first); or a local set per pinned document, kept with the parsed
 * settings that hold it.
 */
export class KeySetRegistry {
  private readonly remote: LRUCache<string, RemoteKeySet>;
  private readonly pinned = new WeakMap<JSONWebKeySet, ReturnType<typeof createLocalJWKSet>>();
  private readonly clock: Clock;
  private readonly options: { refetchIntervalMs: number; cacheMaxAgeMs: number; onFetch?: (result: 'ok' | 'failed') => void };
  private readonly fetch: Fetch;

  constructor(options: KeySetOptions = {}) {
    this.clock = options.clock ?? systemClock;
    const timeoutMs = options.timeoutMs ?? KEY_SET_FETCH.totalMs;
    this.fetch = boundedFetch(
      { connectMs: Math.min(KEY_SET_FETCH.connectMs, timeoutMs), totalMs: timeoutMs },
      { ...(options.transport ? { transport: options.transport } : {}), maxBytes: MAX_KEY_SET_BYTES },
    );
    this.options = {
      refetchIntervalMs: options.refetchIntervalMs ?? 1000,
      cacheMaxAgeMs: options.cacheMaxAgeMs ?? 600_000,
      ...(options.onFetch ? { onFetch: options.onFetch } : {}),
    };
    this.remote = new LRUCache({ max: MAX_KEY_SETS });
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
    // `peek`: reading the keys for a snapshot is not a use of the key set.
    return this.remote.peek(config.jwksUrl)?.keys;
  }

  private pinnedResolver(jwks: JSONWebKeySet): KeyResolver {
    let local = this.pinned.get(jwks);
    if (!local) this.pinned.set(jwks, (local = createLocalJWKSet(jwks)));
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
    let entry = this.remote.get(config.jwksUrl);
    if (!entry) {
      entry = new RemoteKeySet(config, this.fetch, this.clock, this.options);
      this.remote.set(config.jwksUrl, entry);
    }
    const current = entry;
    return (header, token) => current.resolve(header, token);
  }
}
