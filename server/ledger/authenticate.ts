import type { RequestHandler } from 'express';
import { bearerCredential } from '../auth/bearer.js';
import { OidcKeySetUnavailable, OidcTokenRejected } from '../auth/errors.js';
import { fingerprint } from '../auth/fingerprint.js';
import type { OidcVerifier } from '../auth/verifier.js';
import { AppError } from '../http/errors.js';
import { authorizeOwner } from './access.js';
import type { LedgerSettings } from './settings.js';
import { refuse } from '../errors.js';

const unauthorized = (reason: string, cause?: unknown): AppError =>
  refuse('invalid_token', { reason }, { cause, headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });

/**
 * Authenticates a ledger call: the bearer OIDC token (steps 1–3), then the owner rules (step 4).
 * Puts the caller and the settings it was checked against in `res.locals` (one read per request).
 * Rejected token → 401, key set unreachable → 503.
 */
export function authenticate(verifier: OidcVerifier, settings: () => LedgerSettings): RequestHandler {
  return async (req, res, next) => {
    const current = settings();
    const token = bearerCredential(req.headers);
    if (!token) throw unauthorized('missing_token');
    let caller;
    try {
      caller = await verifier.verify(token, current);
    } catch (err) {
      if (err instanceof OidcTokenRejected) throw unauthorized(err.reason, err);
      if (err instanceof OidcKeySetUnavailable) {
        throw refuse('jwks_unavailable', {}, { cause: err, headers: { 'Retry-After': String(err.retryAfterSeconds) } });
      }
      throw err;
    }
    req.log = req.log.child({
      repository: caller.repository,
      repository_id: caller.repositoryId,
      token_sha256: fingerprint(token),
    });
    authorizeOwner(caller, current.allowedOwners);
    res.locals.caller = caller;
    res.locals.settings = current;
    next();
  };
}
