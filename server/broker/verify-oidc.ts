import { errors } from 'jose';
import { OidcKeySetUnavailable, OidcTokenRejected } from '../auth/errors.js';
import type { KeySetRegistry } from '../auth/key-sets.js';
import type { CallerIdentity, OidcVerifier, VerificationPolicy } from '../auth/verifier.js';
import type { Logger } from '../logger.js';
import type { KeySetSnapshots } from './key-set-snapshots.js';

export interface OidcDeps {
  readonly verifier: OidcVerifier;
  readonly keySets: KeySetRegistry;
  readonly snapshots: KeySetSnapshots;
}

/**
 * Verifies with the issuer's live key set and snapshots it; when that set cannot be fetched,
 * verifies against the issuer's last-known-good snapshot instead. A key the snapshot does not
 * know may be in the unreachable set, so that case stays "no verdict" (`OidcKeySetUnavailable`).
 */
export async function verifyOidcToken(deps: OidcDeps, token: unknown, policy: VerificationPolicy, log: Logger): Promise<CallerIdentity> {
  let caller: CallerIdentity;
  try {
    caller = await deps.verifier.verify(token, policy);
  } catch (err) {
    if (!(err instanceof OidcKeySetUnavailable)) throw err;
    // The snapshot is a copy of the live set: it can only help while the issuer is unreachable,
    // not when a fetch that worked a moment ago is all that stands in the way (no store read then).
    if (!err.unreachable) throw err;
    return verifyWithSnapshot(deps, token, policy, err, log);
  }
  const config = policy.issuers.get(caller.issuer);
  const keys = config && deps.keySets.currentKeys(config);
  // Not awaited: the token is verified, and a store that is down must not slow the answer.
  if (keys) void deps.snapshots.save(caller.issuer, keys, log);
  return caller;
}

async function verifyWithSnapshot(
  deps: OidcDeps,
  token: unknown,
  policy: VerificationPolicy,
  unavailable: OidcKeySetUnavailable,
  log: Logger,
): Promise<CallerIdentity> {
  const config = policy.issuers.get(unavailable.issuer);
  const snapshot = config && (await deps.snapshots.load(unavailable.issuer, log));
  if (!config || !snapshot) throw unavailable;
  try {
    const caller = await deps.verifier.verify(token, { ...policy, issuers: new Map([[config.issuer, { ...config, pinnedJwks: snapshot }]]) });
    log.warn({ issuer: config.issuer }, 'key set unreachable; verified against the last-known-good snapshot');
    return caller;
  } catch (err) {
    if (err instanceof OidcTokenRejected && err.cause instanceof errors.JWKSNoMatchingKey) throw unavailable;
    throw err;
  }
}
