import { OidcKeySetUnavailable, OidcTokenRejected } from '../auth/errors.js';
import type { OidcVerifier } from '../auth/verifier.js';
import type { BrokerSettings, Setting } from '../broker/settings.js';
import { exchangeToken, ExchangeRefused } from '../broker/token-exchange.js';
import { isJsonObject, present } from '../http/json-body.js';
import type { AppClients } from '../platform/clients.js';
import { platformRetryAfter } from '../platform/errors.js';
import { isRepositoryPair } from '../github/identifiers.js';
import { askedWithin, requestedPermissions, type Permissions } from '../platform/permissions.js';
import { AppNotInstalled, InstallationLookupFailed, MintFailed, type RepositoryTokenDeps } from '../platform/repository-token.js';
import { Refusal } from './outcomes.js';
import type { TokenTrail } from '../audit/trail.js';

export interface MinimalTokenDeps extends RepositoryTokenDeps {
  readonly verifier: OidcVerifier;
  readonly clients: AppClients;
}

export interface MinimalTokenRequest {
  readonly oidcToken: unknown;
  readonly owner: string;
  readonly repo: string;
  /** Narrows the token below `TOKEN_PERMISSIONS`, as in the main broker. */
  readonly permissions?: Permissions;
}

export function parseRequest(body: unknown): MinimalTokenRequest {
  if (!isJsonObject(body)) throw new Refusal('invalid_json');
  const { oidcToken, owner, repo } = body;
  if (!present(oidcToken) || !present(owner) || !present(repo)) throw new Refusal('missing_fields');
  // Checked before either value can reach an API URL.
  if (!isRepositoryPair(owner, repo)) throw new Refusal('invalid_repository');
  const { permissions, problem } = requestedPermissions(body.permissions);
  if (problem) throw new Refusal('invalid_permissions');
  return { oidcToken, owner, repo: repo as string, ...(permissions ? { permissions } : {}) };
}

/** What keeps the broker from serving `/token` (setting names and problems, never values). */
export function configurationProblems(settings: BrokerSettings): string[] {
  const parts: Setting<unknown>[] = [settings.platforms, settings.primary, settings.tokenPermissions];
  if (settings.primary.ok) parts.push(settings.primary.value.app, settings.primary.value.apiBase);
  const problems = parts.flatMap((part) => (part.ok ? [] : [part.error.message]));
  // Fail closed: an operator who set a policy expects it enforced, and this broker does not.
  if (!settings.policy.ok || settings.policy.value !== undefined) problems.push(POLICY_NOT_ENFORCED);
  return problems;
}

export const POLICY_NOT_ENFORCED = 'BROKER_POLICY is set, but the minimal broker does not enforce trust policies: run the main broker';

/**
 * The minimal `/token`: the main broker's exchange (same verifier, installation cache and
 * minting), answered in the minimal vocabulary. No store, so no key-set snapshot.
 */
export async function mintForCaller(
  deps: MinimalTokenDeps,
  settings: BrokerSettings,
  request: MinimalTokenRequest,
  trail: TokenTrail,
): Promise<{ token: string; expires_at: string; repository: string; permissions: Readonly<Record<string, string>> }> {
  if (configurationProblems(settings).length > 0 || !settings.platforms.ok || !settings.tokenPermissions.ok) throw new Refusal('config_unavailable');
  try {
    const { caller, minted } = await exchangeToken(
      {
        ...deps,
        verify: async (token, policy) => {
          const caller = await deps.verifier.verify(token, policy);
          trail.verified(caller);
          return caller;
        },
      },
      {
        platforms: settings.platforms.value,
        audiences: settings.audiences,
        allowedRepositories: settings.allowedRepositories,
        // Request ∩ TOKEN_PERMISSIONS here; ∩ the installation's grant when minting.
        permissions: askedWithin(request.permissions, settings.tokenPermissions.value),
      },
      request,
    );
    trail.minted(minted, caller.repository);
    return { token: minted.token, expires_at: minted.expiresAt, repository: caller.repository, permissions: minted.permissions };
  } catch (err) {
    throw toRefusal(err);
  }
}

/** The minimal broker's answers to the exchange's failures (its own error table). */
function toRefusal(err: unknown): unknown {
  if (err instanceof OidcTokenRejected) return new Refusal('invalid_oidc', { cause: err });
  if (err instanceof OidcKeySetUnavailable) return new Refusal('jwks_unavailable', { cause: err }, err.retryAfterSeconds);
  if (err instanceof ExchangeRefused) return new Refusal(err.kind === 'app_unconfigured' ? 'config_unavailable' : err.kind, { cause: err });
  if (err instanceof AppNotInstalled) return new Refusal('app_not_installed', { cause: err });
  if (err instanceof InstallationLookupFailed || err instanceof MintFailed) return new Refusal('mint_failed', { cause: err }, platformRetryAfter(err));
  return err;
}
