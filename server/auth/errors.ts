/** Coarse, stable reasons a token was refused (DESIGN.md). Clients may match them. */
export type RejectionReason =
  | 'malformed'
  | 'algorithm_not_allowed'
  | 'signature_invalid'
  | 'issuer_not_trusted'
  | 'audience_mismatch'
  | 'expired'
  | 'not_yet_valid'
  | 'missing_claims';

/** The key set was reached and the token failed it: retrying does not help (401). */
export class OidcTokenRejected extends Error {
  override readonly name = 'OidcTokenRejected';
  constructor(
    readonly reason: RejectionReason,
    options?: { cause?: unknown },
  ) {
    super(`OIDC token rejected: ${reason}`, options);
  }
}

/** How long a caller is asked to wait when the issuer's key endpoint failed. */
const KEY_SET_RETRY_AFTER_SECONDS = 5;

/** No verdict: the issuer's key set could not be obtained. Retrying often helps (503). */
export class OidcKeySetUnavailable extends Error {
  override readonly name = 'OidcKeySetUnavailable';
  /**
   * When a retry can succeed at the earliest: the next fetch the issuer's interval allows, or
   * `KEY_SET_RETRY_AFTER_SECONDS` when the fetch itself failed. Every route's `Retry-After`.
   */
  readonly retryAfterSeconds: number;
  /**
   * The issuer's key endpoint failed (this time, or on the last attempt within the refetch
   * interval), as opposed to a fetch not being allowed yet after one that worked.
   */
  readonly unreachable: boolean;
  constructor(
    readonly issuer: string,
    options: { cause?: unknown; retryAfterSeconds?: number; unreachable?: boolean } = {},
  ) {
    super(`key set of ${issuer} unavailable`, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds ?? KEY_SET_RETRY_AFTER_SECONDS;
    this.unreachable = options.unreachable ?? true;
  }
}
