import type { Clock } from '../clock.js';
import { PlatformError } from './errors.js';
import type { AppClient, MintedToken } from './github-app.js';
import type { InstallationDirectory } from './installations.js';
import { permissionsProblem } from './permission-vocabulary.js';
import { nonEmpty, withinGrant, type Permissions } from './permissions.js';

/** A token is never handed out with less life than this; the platform's `expires_at` is checked. */
const MIN_TOKEN_LIFETIME_MS = 10 * 60_000;

/** The app has no installation covering the repository (or the installation refused it). */
export class AppNotInstalled extends Error {
  override readonly name = 'AppNotInstalled';
  constructor(options?: { cause?: unknown }) {
    super('app not installed on the repository', options);
  }
}

/** The installation lookup answered with something unusable (not 200, not 404). */
export class InstallationLookupFailed extends Error {
  override readonly name = 'InstallationLookupFailed';
  constructor(options: { cause: unknown }) {
    super('installation lookup failed', options);
  }
}

/**
 * No token: the platform refused the mint (any answer but 404, 422 included, or a redirect),
 * answered a token for other repositories than the one asked (revoked), kept answering with
 * short-lived tokens, or the request named permissions a one-repository token must not carry.
 */
export class MintFailed extends Error {
  override readonly name = 'MintFailed';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface RepositoryTokenDeps {
  readonly installations: InstallationDirectory;
  readonly clock: Clock;
}

export interface TokenTarget {
  readonly owner: string;
  readonly repo: string;
  /** Narrows the token by numeric id (stable across renames); otherwise by name. */
  readonly repositoryId?: number;
  /** A configured installation: skips the per-repository lookup. */
  readonly installationId?: number;
}

export type RepositoryToken = MintedToken & { readonly installationId: number };

/**
 * Whether a mint's answer covers the one repository asked and nothing else: not the whole
 * installation, and every repository it names is the target (by id when asked by id, else by
 * name, which GitHub compares without case). An answer that names none is taken at its word:
 * `repositories` is optional in GitHub's schema of an installation token.
 */
function coversOnly(covers: MintedToken['covers'], target: TokenTarget): boolean {
  if (covers.selection === 'all') return false;
  return (covers.repositories ?? []).every((r) => (target.repositoryId === undefined ? r.name.toLowerCase() === target.repo.toLowerCase() : r.id === target.repositoryId));
}

/**
 * Mints an installation token for exactly one repository with at most `requested` permissions
 * (never more than the installation's own grant). Throws `AppNotInstalled`,
 * `InstallationLookupFailed` or `MintFailed`. Every caller's permissions (`/token`, `/sign`,
 * `/webhook`) pass the vocabulary check of `TOKEN_PERMISSIONS`, before any platform call.
 */
export async function mintRepositoryToken(
  deps: RepositoryTokenDeps,
  app: AppClient,
  target: TokenTarget,
  requested: Permissions,
): Promise<RepositoryToken> {
  const problem = permissionsProblem(requested);
  if (problem) throw new MintFailed(`not asked of the platform: the request ${problem}`);
  let installation;
  try {
    installation =
      target.installationId === undefined
        ? await deps.installations.forRepository(app, target.owner, target.repo)
        : await deps.installations.byId(app, target.installationId);
  } catch (err) {
    throw new InstallationLookupFailed({ cause: err });
  }
  if (!installation) throw new AppNotInstalled();

  const request = {
    permissions: nonEmpty(withinGrant(requested, installation.permissions)),
    ...(target.repositoryId === undefined ? { repositoryNames: [target.repo] } : { repositoryIds: [target.repositoryId] }),
  };
  // One retry: a platform answering with a nearly expired token twice in a row is an outage.
  for (let attempt = 0; attempt < 2; attempt++) {
    let minted: MintedToken;
    try {
      minted = await app.mint(installation.id, request);
    } catch (err) {
      // 404: the installation is gone since the (cached) lookup found it.
      if (err instanceof PlatformError && err.status === 404) {
        deps.installations.forget(app, target.owner, target.repo);
        throw new AppNotInstalled({ cause: err });
      }
      // 422: the installation exists but refused what was asked (a repository it does not cover,
      // or permissions it does not grant): a refused mint, not "not installed". The cached lookup
      // may be what is stale, so it is dropped and the next request looks again.
      if (err instanceof PlatformError && err.status === 422) deps.installations.forget(app, target.owner, target.repo);
      throw new MintFailed('the platform refused the mint', { cause: err });
    }
    if (!coversOnly(minted.covers, target)) {
      // Not handed out, so not left valid either.
      await app.withToken(minted.token).revoke().catch(() => {});
      throw new MintFailed('the platform answered a token for other repositories than the one asked');
    }
    const expiresAt = Date.parse(minted.expiresAt);
    if (!Number.isFinite(expiresAt)) throw new MintFailed('the platform answered without a usable expires_at');
    if (expiresAt - deps.clock.now() >= MIN_TOKEN_LIFETIME_MS) return { ...minted, installationId: installation.id };
    // Not handed out, so not left valid either (best effort: the platform lets it expire anyway).
    await app.withToken(minted.token).revoke().catch(() => {});
  }
  throw new MintFailed('the platform kept answering with tokens that expire within 10 minutes');
}
