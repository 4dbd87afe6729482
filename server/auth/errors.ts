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

/** No verdict: the issuer's key set could not be obtained. Retrying often helps (503). */
export class OidcKeySetUnavailable extends Error {
  override readonly name = 'OidcKeySetUnavailable';
  constructor(
    readonly issuer: string,
    options?: { cause?: unknown },
  ) {
    super(`key set of ${issuer} unavailable`, options);
  }
}
