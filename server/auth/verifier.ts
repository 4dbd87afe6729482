import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { OidcKeySetUnavailable, OidcTokenRejected, type RejectionReason } from './errors.js';
import type { IssuerMap } from './issuers.js';
import type { KeySetRegistry } from './key-sets.js';

/** The only signature algorithm GitHub's OIDC tokens use, and the only one accepted. */
const ALGORITHM = 'RS256';
/** Clock-skew tolerance of `exp` and `nbf`, in seconds (ledger spec, Limits). */
const CLOCK_SKEW_SECONDS = 60;
/** Real tokens are about 1.5 KB; anything this large is refused before decoding. */
const MAX_TOKEN_LENGTH = 16 * 1024;

/** Who is calling, as stated by a verified token. */
export interface CallerIdentity {
  readonly issuer: string;
  readonly audience: string;
  /** `owner/name` as the token states it (the name at the time the token was minted). */
  readonly repository: string;
  /** Numeric id as a string; stable across renames, so history is keyed by it. */
  readonly repositoryId: string;
  readonly repositoryOwner: string;
  readonly subject?: string;
  readonly jti?: string;
  readonly claims: JWTPayload;
}

export interface VerificationPolicy {
  readonly issuers: IssuerMap;
  readonly audiences: readonly string[];
}

const reject = (reason: RejectionReason, cause?: unknown): OidcTokenRejected =>
  new OidcTokenRejected(reason, cause === undefined ? undefined : { cause });

/** Maps jose's verdicts to the coarse reasons; resolver errors are already ours. */
function toVerdict(err: unknown): OidcTokenRejected | OidcKeySetUnavailable {
  if (err instanceof OidcTokenRejected || err instanceof OidcKeySetUnavailable) return err;
  if (err instanceof errors.JWTExpired) return reject('expired', err);
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.reason === 'missing') return reject('missing_claims', err);
    if (err.claim === 'nbf') return reject('not_yet_valid', err);
    if (err.claim === 'iss') return reject('issuer_not_trusted', err);
    if (err.claim === 'aud') return reject('audience_mismatch', err);
    return reject('malformed', err);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return reject('signature_invalid', err);
  if (err instanceof errors.JOSEAlgNotAllowed) return reject('algorithm_not_allowed', err);
  return reject('malformed', err);
}

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

const REPOSITORY = /^[^/\s]+\/[^/\s]+$/;
const REPOSITORY_ID = /^[0-9]{1,20}$/;

/**
 * Verifies CI OIDC tokens in the ledger spec's order:
 *  1. header `alg` must be RS256 (refused before any key or signature work);
 *  2. the issuer is pinned from the static map before its key set is chosen (an unknown `iss`
 *     never causes an outbound call), then the signature is checked against that key set;
 *  3. `iss` exact, `exp`/`nbf` with 60 s skew, and `aud` a single string in the accepted list.
 * Throws `OidcTokenRejected` (a verdict) or `OidcKeySetUnavailable` (no verdict).
 * Step 4 (who may call) belongs to each product.
 */
export class OidcVerifier {
  constructor(
    private readonly keySets: KeySetRegistry,
    private readonly clock: Clock = systemClock,
  ) {}

  async verify(token: unknown, policy: VerificationPolicy): Promise<CallerIdentity> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw reject('malformed');

    // Read unverified only to refuse a wrong `alg` and pin the issuer before any key set is chosen.
    let alg: unknown;
    let unverifiedIssuer: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
      unverifiedIssuer = decodeJwt(token).iss;
    } catch (err) {
      throw reject('malformed', err);
    }
    if (alg !== ALGORITHM) throw reject('algorithm_not_allowed');

    const issuer = typeof unverifiedIssuer === 'string' ? policy.issuers.get(unverifiedIssuer) : undefined;
    if (!issuer) throw reject('issuer_not_trusted');

    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keySets.resolverFor(issuer), {
        algorithms: [ALGORITHM],
        issuer: issuer.issuer,
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      throw toVerdict(err);
    }

    // A token for several audiences is meant for several services; accept only a single one.
    const audience = payload.aud;
    if (typeof audience !== 'string' || !policy.audiences.includes(audience)) throw reject('audience_mismatch');

    const { repository, repository_id: repositoryId, repository_owner: repositoryOwner } = payload;
    if (
      !isNonEmptyString(repository) ||
      !REPOSITORY.test(repository) ||
      !isNonEmptyString(repositoryId) ||
      !REPOSITORY_ID.test(repositoryId) ||
      !isNonEmptyString(repositoryOwner)
    ) {
      throw reject('missing_claims');
    }

    return {
      issuer: issuer.issuer,
      audience,
      repository,
      repositoryId,
      repositoryOwner,
      ...(isNonEmptyString(payload.sub) ? { subject: payload.sub } : {}),
      ...(isNonEmptyString(payload.jti) ? { jti: payload.jti } : {}),
      claims: payload,
    };
  }
}
