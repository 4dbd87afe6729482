import { AppError } from '../http/errors.js';

/**
 * The minimal broker's closed vocabulary: every `/token` answer's `error` and every log line's
 * `outcome` is one of these, never caller-supplied text.
 */
export type Outcome =
  | 'mint_ok'
  | 'invalid_json'
  | 'missing_fields'
  | 'invalid_repository'
  | 'invalid_permissions'
  | 'invalid_oidc'
  | 'repo_mismatch'
  | 'repo_not_allowed'
  | 'app_not_installed'
  | 'mint_failed'
  | 'config_unavailable'
  | 'jwks_unavailable'
  | 'not_found'
  | 'method_not_allowed'
  | 'internal_error';

/** The minimal broker's error catalogue: each refusal's status (docs/broker.md, "The minimal broker"). */
export const MINIMAL_ERRORS: Readonly<Record<Exclude<Outcome, 'mint_ok'>, number>> = {
  invalid_json: 400,
  missing_fields: 400,
  invalid_repository: 400,
  invalid_permissions: 400,
  invalid_oidc: 401,
  repo_mismatch: 403,
  repo_not_allowed: 403,
  app_not_installed: 403,
  mint_failed: 502,
  config_unavailable: 503,
  jwks_unavailable: 503,
  not_found: 404,
  method_not_allowed: 405,
  internal_error: 500,
};

/**
 * A refused request: its outcome is both the answer's `error` and the log line's `outcome`. An
 * `AppError`, so the shared error handler answers it (`{error: <outcome>}` and its `Retry-After`).
 */
export class Refusal extends AppError {
  constructor(
    readonly outcome: Exclude<Outcome, 'mint_ok'>,
    options?: { cause?: unknown },
    /** Seconds a retry should wait (key set unavailable, platform rate limit). */
    retryAfterSeconds?: number,
  ) {
    super(MINIMAL_ERRORS[outcome], outcome, {}, { ...options, ...(retryAfterSeconds === undefined ? {} : { headers: { 'Retry-After': String(Math.ceil(retryAfterSeconds)) } }) });
  }
}
