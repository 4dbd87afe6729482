import { OidcKeySetUnavailable, OidcTokenRejected } from '../auth/errors.js';
import type { OidcVerifier } from '../auth/verifier.js';
import { issuerMapOf, type BrokerSettings, type Setting } from '../broker/settings.js';
import type { AppClients } from '../platform/clients.js';
import { isRepositoryPair } from '../platform/identifiers.js';
import {
  AppNotInstalled,
  InstallationLookupFailed,
  MintFailed,
  mintRepositoryToken,
  type RepositoryTokenDeps,
} from '../platform/repository-token.js';
import { Refusal } from './outcomes.js';

export interface MinimalTokenDeps extends RepositoryTokenDeps {
  readonly verifier: OidcVerifier;
  readonly clients: AppClients;
}


const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

export interface MinimalTokenRequest {
  readonly oidcToken: unknown;
  readonly owner: string;
  readonly repo: string;
}

export function parseRequest(body: unknown): MinimalTokenRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Refusal('invalid_json');
  const { oidcToken, owner, repo } = body as Record<string, unknown>;
  if (!present(oidcToken) || !present(owner) || !present(repo)) throw new Refusal('missing_fields');
  // Checked before either value can reach an API URL.
  if (!isRepositoryPair(owner, repo)) throw new Refusal('invalid_repository');
  return { oidcToken, owner, repo: repo as string };
}

/** What keeps the broker from serving `/token` (setting names and problems, never values). */
export function configurationProblems(settings: BrokerSettings): string[] {
  const parts: Setting<unknown>[] = [settings.platforms, settings.primary, settings.tokenPermissions];
  if (settings.primary.ok) parts.push(settings.primary.value.app, settings.primary.value.apiBase);
  return parts.flatMap((part) => (part.ok ? [] : [part.error.message]));
}

/** Whether the broker can serve `/token` at all with these settings (`/readyz`). */
export function configurationUsable(settings: BrokerSettings): boolean {
  return configurationProblems(settings).length === 0;
}

/**
 * The minimal `/token`: the same verifier, installation cache and minting as the main broker,
 * answered in the minimal vocabulary. No store, so no key-set snapshot.
 */
export async function mintForCaller(
  deps: MinimalTokenDeps,
  settings: BrokerSettings,
  request: MinimalTokenRequest,
): Promise<{ token: string; expires_at: string; repository: string }> {
  if (!configurationUsable(settings) || !settings.platforms.ok || !settings.tokenPermissions.ok) throw new Refusal('config_unavailable');

  let caller;
  try {
    caller = await deps.verifier.verify(request.oidcToken, { issuers: issuerMapOf(settings.platforms.value), audiences: settings.audiences });
  } catch (err) {
    if (err instanceof OidcTokenRejected) throw new Refusal('invalid_oidc', { cause: err });
    if (err instanceof OidcKeySetUnavailable) throw new Refusal('jwks_unavailable', { cause: err });
    throw err;
  }
  if (`${request.owner}/${request.repo}` !== caller.repository) throw new Refusal('repo_mismatch');
  if (settings.allowedRepositories && !settings.allowedRepositories.has(caller.repository)) throw new Refusal('repo_not_allowed');

  const platform = settings.platforms.value.get(caller.issuer);
  if (!platform || !platform.app.ok || !platform.apiBase.ok) throw new Refusal('config_unavailable');
  const app = deps.clients.for(platform.apiBase.value, platform.app.value);
  try {
    const minted = await mintRepositoryToken(
      deps,
      app,
      {
        owner: request.owner,
        repo: request.repo,
        repositoryId: Number(caller.repositoryId),
        ...(platform.installationId === undefined ? {} : { installationId: platform.installationId }),
      },
      settings.tokenPermissions.value,
    );
    return { token: minted.token, expires_at: minted.expiresAt, repository: caller.repository };
  } catch (err) {
    if (err instanceof AppNotInstalled) throw new Refusal('app_not_installed', { cause: err });
    if (err instanceof InstallationLookupFailed || err instanceof MintFailed) throw new Refusal('mint_failed', { cause: err });
    throw err;
  }
}
