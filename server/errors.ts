import type { Checked } from './config-error.js';
import { HTTP_ERRORS, refusalsOf } from './http/errors.js';

/**
 * Every error the backend (ledger, token broker, webhook, metrics) answers, with its HTTP status:
 * the one catalogue. Routes and use cases refuse by code (`refuse('mint_failed')`); the app's
 * error handler turns the refusal into `{"error": <code>, ...}` with this status. The strings are
 * the spec's (docs/ledger.md, docs/broker.md); clients match them.
 */
export const BACKEND_ERRORS = {
  ...HTTP_ERRORS,
  // 400
  missing_required_fields: 400,
  invalid_repo: 400,
  no_file_changes: 400,
  invalid_token_permissions: 400,
  // 401
  invalid_oidc_token: 401,
  invalid_token: 401,
  invalid_signature: 401,
  unauthorized: 401,
  // 403
  forbidden: 403,
  policy_denied: 403,
  repo_mismatch: 403,
  repo_not_allowed: 403,
  // 404
  app_not_installed: 404,
  // 500
  misconfigured: 500,
  invalid_policy: 500,
  platform_installation_lookup_failed: 500,
  // 502
  mint_failed: 502,
  installation_token_failed: 502,
  sign_failed: 502,
  releases_failed: 502,
  update_branch_failed: 502,
  // 503
  app_unconfigured: 503,
  oidc_key_fetch_failed: 503,
  jwks_unavailable: 503,
  sign_disabled: 503,
  webhook_disabled: 503,
  webhook_busy: 503,
  releases_disabled: 503,
  audit_unavailable: 503,
} as const satisfies Record<string, number>;

/** A refusal of the backend, by code. */
export const refuse = refusalsOf(BACKEND_ERRORS);

/**
 * Checked settings read per request: an unusable setting answers `500 misconfigured` (the body
 * names nothing; the log names the setting) instead of an anonymous crash.
 */
export function settingsOrMisconfigured<T>(read: () => Checked<T>): () => T {
  return () => {
    const checked = read();
    if (!checked.ok) throw refuse('misconfigured', {}, { cause: checked.problems[0] });
    return checked.value;
  };
}

/** The text of whatever was thrown, for a log line or a report. */
export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
