import type { CallerIdentity, VerificationPolicy } from '../auth/verifier.js';
import type { ConfigError } from '../config-error.js';
import type { AppClients } from '../platform/clients.js';
import type { AppClient } from '../platform/github-app.js';
import { mintRepositoryToken, type RepositoryToken, type RepositoryTokenDeps } from '../platform/repository-token.js';
import type { Permissions } from '../platform/permissions.js';
import { issuerMapOf, type PlatformSettings } from './settings.js';

/** A refusal of the exchange itself; each broker answers it in its own vocabulary. */
export class ExchangeRefused extends Error {
  override readonly name = 'ExchangeRefused';
  constructor(
    readonly kind: 'repo_mismatch' | 'repo_not_allowed' | 'app_unconfigured',
    options?: { cause?: ConfigError },
  ) {
    super(kind, options);
  }
}

export interface ExchangeDeps extends RepositoryTokenDeps {
  readonly clients: AppClients;
  /** The OIDC verification (the main broker adds key-set snapshots; the minimal one has no store). */
  readonly verify: (token: unknown, policy: VerificationPolicy) => Promise<CallerIdentity>;
}

/** The settings the exchange needs, already checked usable by the caller. */
export interface ExchangePolicy {
  readonly platforms: ReadonlyMap<string, PlatformSettings>;
  readonly audiences: readonly string[];
  readonly allowedRepositories: ReadonlySet<string> | null;
  /** Fixed, or decided from the verified caller (it may refuse by throwing: nothing is asked of the platform then). */
  readonly permissions: Permissions | ((caller: CallerIdentity) => Permissions);
}

export interface Exchanged {
  readonly caller: CallerIdentity;
  readonly platform: PlatformSettings;
  /** The client that minted the token (it revokes it too). */
  readonly app: AppClient;
  readonly minted: RepositoryToken;
}

/**
 * The exchange both brokers perform (spec rules 3–8): verify the OIDC token against the pinned
 * issuers, require `owner/repo` to be its `repository` claim and on the allowlist, then mint with
 * the app of the issuer that signed it, scoped to the repository id. Throws the verifier's
 * `OidcTokenRejected` / `OidcKeySetUnavailable`, `ExchangeRefused`, or the minting errors
 * (`AppNotInstalled`, `InstallationLookupFailed`, `MintFailed`).
 */
export async function exchangeToken(
  deps: ExchangeDeps,
  policy: ExchangePolicy,
  request: { readonly oidcToken: unknown; readonly owner: string; readonly repo: string },
): Promise<Exchanged> {
  const caller = await deps.verify(request.oidcToken, { issuers: issuerMapOf(policy.platforms), audiences: policy.audiences });
  if (`${request.owner}/${request.repo}` !== caller.repository) throw new ExchangeRefused('repo_mismatch');
  // The token names the owner twice (`repository` and `repository_owner`); when they disagree it
  // cannot say whose repository it is, so the requested owner matches at most one of them.
  if (request.owner.toLowerCase() !== caller.repositoryOwner.toLowerCase()) throw new ExchangeRefused('repo_mismatch');
  if (policy.allowedRepositories && !policy.allowedRepositories.has(caller.repository)) throw new ExchangeRefused('repo_not_allowed');
  const permissions = typeof policy.permissions === 'function' ? policy.permissions(caller) : policy.permissions;

  // The verifier only accepts issuers of this map, so the platform is always there.
  const platform = policy.platforms.get(caller.issuer)!;
  if (!platform.apiBase.ok) throw new ExchangeRefused('app_unconfigured', { cause: platform.apiBase.error });
  if (!platform.app.ok) throw new ExchangeRefused('app_unconfigured', { cause: platform.app.error });
  const app = deps.clients.for(platform.apiBase.value, platform.app.value);
  const [owner, repo] = caller.repository.split('/') as [string, string];
  const minted = await mintRepositoryToken(
    deps,
    app,
    {
      owner,
      repo,
      repositoryId: Number(caller.repositoryId),
      ...(platform.installationId === undefined ? {} : { installationId: platform.installationId }),
    },
    permissions,
  );
  return { caller, platform, app, minted };
}
