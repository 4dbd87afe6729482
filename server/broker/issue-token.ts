import { OidcKeySetUnavailable, OidcTokenRejected } from '../auth/errors.js';
import { fingerprint } from '../auth/fingerprint.js';
import { isJsonObject, present } from '../http/json-body.js';
import type { Logger } from '../logger.js';
import type { AppClients } from '../platform/clients.js';
import { platformRetryAfter } from '../platform/errors.js';
import { askedWithin, requestedPermissions, type Permissions } from '../platform/permissions.js';
import { AppNotInstalled, InstallationLookupFailed, MintFailed, type RepositoryTokenDeps } from '../platform/repository-token.js';
import { applicableRule, ceilingOf, PolicyDenied, ruleLabel } from './policy/authorize.js';
import { hashedToken } from '../audit/record.js';
import type { TokenTrail } from '../audit/trail.js';
import type { BrokerSettings } from './settings.js';
import { exchangeToken, ExchangeRefused } from './token-exchange.js';
import { verifyOidcToken, type OidcDeps } from './verify-oidc.js';
import { refuse } from '../errors.js';

export interface TokenRequest {
  readonly oidcToken: string;
  readonly owner: string;
  readonly repo: string;
  /** What the caller asks for; the token carries it narrowed by the ceiling and the installation's grant. */
  readonly permissions?: Permissions;
  /** Logged only; never authorise anything. */
  readonly context: { readonly ref?: string; readonly runId?: string; readonly sha?: string };
}

export interface TokenResponse {
  readonly token: string;
  readonly expires_at: string;
  readonly repository: string;
  /** What the token really carries, as the platform's mint answer says. */
  readonly permissions: Readonly<Record<string, string>>;
}

export interface IssueTokenDeps extends OidcDeps, RepositoryTokenDeps {
  readonly clients: AppClients;
}

/** Caller-supplied context is logged, so it is bounded. */
const loggable = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : undefined);

/** Rules 1 and 2: a JSON object with non-empty `oidcToken`, `owner` and `repo`. */
export function parseTokenRequest(body: unknown): TokenRequest {
  if (!isJsonObject(body)) throw refuse('invalid_request', { message: 'the body must be a JSON object' });
  const { oidcToken, owner, repo } = body;
  if (!present(oidcToken) || !present(owner) || !present(repo)) {
    throw refuse('missing_required_fields', { message: 'oidcToken, owner and repo are required' });
  }
  if (typeof oidcToken !== 'string' || typeof owner !== 'string' || typeof repo !== 'string') {
    throw refuse('invalid_request', { message: 'oidcToken, owner and repo must be strings' });
  }
  const { permissions, problem } = requestedPermissions(body.permissions);
  if (problem) throw refuse('invalid_request', { message: problem });
  const ref = loggable(body.ref);
  const runId = loggable(body.runId);
  const sha = loggable(body.sha);
  return {
    oidcToken,
    owner,
    repo,
    ...(permissions ? { permissions } : {}),
    context: { ...(ref ? { ref } : {}), ...(runId ? { runId } : {}), ...(sha ? { sha } : {}) },
  };
}

/** A minted token's answer, the fields its request's log line carries, and its revocation. */
export interface IssuedToken {
  readonly answer: TokenResponse;
  readonly audit: Readonly<Record<string, unknown>>;
  /** Revokes the token (when it must not be handed out after all); false when the platform did not confirm it. */
  readonly revoke: () => Promise<boolean>;
}

/**
 * `POST /token`, rules 3–8 (the body rules are `parseTokenRequest`), in the main broker's
 * vocabulary. The exchange itself is shared with the minimal broker. `trail` learns what the
 * request shows as it goes (the verified caller, the policy rule, the mint), so that its audit
 * record says what was known whatever the answer.
 */
export async function issueToken(deps: IssueTokenDeps, settings: BrokerSettings, request: TokenRequest, log: Logger, trail: TokenTrail): Promise<IssuedToken> {
  // An operator's mistake answers every request the same way, before any key fetch.
  if (!settings.tokenPermissions.ok) {
    throw refuse('invalid_token_permissions', {}, { cause: settings.tokenPermissions.error });
  }
  if (!settings.policy.ok) throw refuse('invalid_policy', {}, { cause: settings.policy.error });
  if (!settings.platforms.ok) throw refuse('misconfigured', {}, { cause: settings.platforms.error });

  const tokenPermissions = settings.tokenPermissions.value;
  const policy = settings.policy.value;
  // Which rule let the token through, for the log line.
  let applied: { readonly entry: string; readonly rule: number } | undefined;
  let exchanged;
  try {
    exchanged = await exchangeToken(
      {
        ...deps,
        verify: async (token, policy) => {
          const caller = await verifyOidcToken(deps, token, policy, log);
          trail.verified(caller);
          return caller;
        },
      },
      {
        platforms: settings.platforms.value,
        audiences: settings.audiences,
        allowedRepositories: settings.allowedRepositories,
        permissions: !policy
          ? askedWithin(request.permissions, tokenPermissions)
          : (caller) => {
              let found;
              try {
                found = applicableRule(policy, caller);
              } catch (err) {
                if (err instanceof PolicyDenied) trail.policyRule(ruleLabel(policy, err.entry, err.decidingRule));
                throw err;
              }
              const { entry, rule } = found;
              applied = { entry, rule: rule.index };
              trail.policyRule(ruleLabel(policy, entry, rule.index));
              return askedWithin(request.permissions, ceilingOf(rule, tokenPermissions));
            },
      },
      request,
    );
  } catch (err) {
    throw toHttpError(err);
  }

  const { caller, platform, app, minted } = exchanged;
  trail.minted(minted, caller.repository);
  return {
    answer: { token: minted.token, expires_at: minted.expiresAt, repository: caller.repository, permissions: minted.permissions },
    // What the request's one log line carries (never a token: only their hashes).
    audit: {
      repository: caller.repository,
      repository_id: caller.repositoryId,
      oidc_sha256: fingerprint(request.oidcToken),
      platform: platform.name,
      installation_id: minted.installationId,
      permissions: minted.permissions,
      token_sha256: fingerprint(minted.token),
      hashed_token: hashedToken(minted.token),
      expires_at: minted.expiresAt,
      ...(applied ? { policy_entry: applied.entry, policy_rule: applied.rule } : {}),
      ...request.context,
    },
    revoke: () =>
      app
        .withToken(minted.token)
        .revoke()
        .then(
          () => true,
          () => false,
        ),
  };
}

/** The main broker's answers to the exchange's failures (spec error table of `POST /token`). */
export function toHttpError(err: unknown): unknown {
  if (err instanceof OidcTokenRejected) return refuse('invalid_oidc_token', { reason: err.reason }, { cause: err });
  if (err instanceof OidcKeySetUnavailable) {
    const retryAfter = String(err.retryAfterSeconds);
    return refuse('oidc_key_fetch_failed', { reason: 'jwks_unavailable' }, { cause: err, headers: { 'Retry-After': retryAfter } });
  }
  if (err instanceof ExchangeRefused) {
    return err.kind === 'app_unconfigured' ? refuse('app_unconfigured', {}, { cause: err.cause }) : refuse(err.kind);
  }
  // The reason is coarse; which rules were tried, and on which claim each failed, goes to the log (the cause).
  if (err instanceof PolicyDenied) return refuse('policy_denied', { reason: err.reason }, { cause: err });
  if (err instanceof AppNotInstalled) return refuse('app_not_installed', {}, { cause: err });
  if (err instanceof InstallationLookupFailed) return refuse('platform_installation_lookup_failed', {}, { cause: err, headers: retryHint(err) });
  if (err instanceof MintFailed) return refuse('mint_failed', {}, { cause: err, headers: retryHint(err) });
  return err;
}

/** A platform rate limit's `Retry-After` is passed on, so callers wait as long as the platform asks. */
function retryHint(err: unknown): Record<string, string> {
  const seconds = platformRetryAfter(err);
  return seconds === undefined ? {} : { 'Retry-After': String(Math.ceil(seconds)) };
}
