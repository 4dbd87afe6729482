import { OidcKeySetUnavailable, OidcTokenRejected } from '../auth/errors.js';
import { fingerprint } from '../auth/fingerprint.js';
import type { CallerIdentity } from '../auth/verifier.js';
import { AppError } from '../http/errors.js';
import type { Logger } from '../logger.js';
import type { AppClients } from '../platform/clients.js';
import {
  AppNotInstalled,
  InstallationLookupFailed,
  MintFailed,
  mintRepositoryToken,
  type RepositoryTokenDeps,
} from '../platform/repository-token.js';
import { appClientFor } from './platform.js';
import { issuerMapOf, type BrokerSettings } from './settings.js';
import { verifyOidcToken, type OidcDeps } from './verify-oidc.js';

export interface TokenRequest {
  readonly oidcToken: string;
  readonly owner: string;
  readonly repo: string;
  /** Logged only; never authorise anything. */
  readonly context: { readonly ref?: string; readonly runId?: string; readonly sha?: string };
}

export interface TokenResponse {
  readonly token: string;
  readonly expires_at: string;
  readonly repository: string;
}

export interface IssueTokenDeps extends OidcDeps, RepositoryTokenDeps {
  readonly clients: AppClients;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
/** Caller-supplied context is logged, so it is bounded. */
const loggable = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : undefined);

/** Rules 1 and 2: a JSON object with non-empty `oidcToken`, `owner` and `repo`. */
export function parseTokenRequest(body: unknown): TokenRequest {
  if (!isObject(body)) throw new AppError(400, 'invalid_request', { message: 'the body must be a JSON object' });
  const { oidcToken, owner, repo } = body;
  if (!present(oidcToken) || !present(owner) || !present(repo)) {
    throw new AppError(400, 'missing_required_fields', { message: 'oidcToken, owner and repo are required' });
  }
  if (typeof oidcToken !== 'string' || typeof owner !== 'string' || typeof repo !== 'string') {
    throw new AppError(400, 'invalid_request', { message: 'oidcToken, owner and repo must be strings' });
  }
  const ref = loggable(body.ref);
  const runId = loggable(body.runId);
  const sha = loggable(body.sha);
  return {
    oidcToken,
    owner,
    repo,
    context: { ...(ref ? { ref } : {}), ...(runId ? { runId } : {}), ...(sha ? { sha } : {}) },
  };
}

async function verify(deps: IssueTokenDeps, settings: BrokerSettings, token: string, log: Logger): Promise<CallerIdentity> {
  if (!settings.platforms.ok) throw new AppError(500, 'misconfigured', {}, { cause: settings.platforms.error });
  try {
    return await verifyOidcToken(deps, token, { issuers: issuerMapOf(settings.platforms.value), audiences: settings.audiences }, log);
  } catch (err) {
    if (err instanceof OidcTokenRejected) throw new AppError(401, 'invalid_oidc_token', { reason: err.reason }, { cause: err });
    if (err instanceof OidcKeySetUnavailable) {
      throw new AppError(503, 'oidc_key_fetch_failed', { reason: 'jwks_unavailable' }, { cause: err, headers: { 'Retry-After': '5' } });
    }
    throw err;
  }
}

/**
 * `POST /token`, rules 3–8 (the body rules are `parseTokenRequest`): verify the OIDC token, match
 * the repository, then mint a token for that one repository (by its numeric id) with the app of
 * the issuer that signed the OIDC token.
 */
export async function issueToken(deps: IssueTokenDeps, settings: BrokerSettings, request: TokenRequest, log: Logger): Promise<TokenResponse> {
  // An operator's mistake answers every request the same way, before any key fetch.
  if (!settings.tokenPermissions.ok) {
    throw new AppError(400, 'invalid_token_permissions', {}, { cause: settings.tokenPermissions.error });
  }
  const caller = await verify(deps, settings, request.oidcToken, log);
  const callLog = log.child({ repository: caller.repository, repository_id: caller.repositoryId, oidc_sha256: fingerprint(request.oidcToken) });

  if (`${request.owner}/${request.repo}` !== caller.repository) throw new AppError(403, 'repo_mismatch');
  if (settings.allowedRepositories && !settings.allowedRepositories.has(caller.repository)) throw new AppError(403, 'repo_not_allowed');

  const platform = settings.platforms.ok ? settings.platforms.value.get(caller.issuer) : undefined;
  if (!platform) throw new AppError(500, 'internal_error');
  const app = appClientFor(deps.clients, platform);
  const [owner, repo] = caller.repository.split('/') as [string, string];

  let minted;
  try {
    minted = await mintRepositoryToken(
      deps,
      app,
      {
        owner,
        repo,
        repositoryId: Number(caller.repositoryId),
        ...(platform.installationId === undefined ? {} : { installationId: platform.installationId }),
      },
      settings.tokenPermissions.value,
    );
  } catch (err) {
    if (err instanceof AppNotInstalled) throw new AppError(404, 'app_not_installed', {}, { cause: err });
    if (err instanceof InstallationLookupFailed) throw new AppError(500, 'platform_installation_lookup_failed', {}, { cause: err });
    if (err instanceof MintFailed) throw new AppError(502, 'mint_failed', {}, { cause: err });
    throw err;
  }

  callLog.info(
    {
      platform: platform.name,
      installation_id: minted.installationId,
      permissions: minted.permissions,
      token_sha256: fingerprint(minted.token),
      expires_at: minted.expiresAt,
      ...request.context,
    },
    'token minted',
  );
  return { token: minted.token, expires_at: minted.expiresAt, repository: caller.repository };
}
