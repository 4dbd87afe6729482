import { createAppAuth } from '@octokit/auth-app';
import { githubClient, githubFetch, type GitHubClient } from '../github/client.js';
import { PLATFORM_CALL, PLATFORM_COMMIT } from '../http/call-bounds.js';
import type { CallBounds, Fetch } from '../http/outbound.js';
import { AppJwt } from './app-jwt.js';
import type { AppCredentials } from './credentials.js';
import { PlatformError, toPlatformError } from './errors.js';
import type { Access } from './permissions.js';

export interface PlatformClientOptions {
  /** Bound on one platform call (default `PLATFORM_CALL`). */
  readonly bounds?: CallBounds;
  /** Bound on `createCommitOnBranch`, which uploads file contents (default `PLATFORM_COMMIT`). */
  readonly commitBounds?: CallBounds;
  readonly userAgent: string;
  /** What carries the calls (the app's `transport`; tests); default the network. */
  readonly transport?: Fetch;
}

export interface Installation {
  readonly id: number;
  /** The installation's own grant: permission name → `read` / `write` / `admin`. */
  readonly permissions: Readonly<Record<string, string>>;
  /** A suspended installation mints nothing. */
  readonly suspended: boolean;
}

export interface MintedToken {
  /** Secret: never logged (log `fingerprint(token)`). */
  readonly token: string;
  /** As the platform wrote it; passed through unchanged. */
  readonly expiresAt: string;
  readonly permissions: Readonly<Record<string, string>>;
  /** What the token covers, as the mint answered it: `all` of the installation, or the `repositories` named (absent when the answer names none). */
  readonly covers: { readonly selection?: 'all' | 'selected' | (string & {}); readonly repositories?: readonly { readonly id: number; readonly name: string }[] };
}

export interface MintRequest {
  readonly repositoryIds?: readonly number[];
  readonly repositoryNames?: readonly string[];
  readonly permissions: Readonly<Record<string, Access>>;
}

export interface Repository {
  readonly id: number;
  readonly owner: string;
  readonly name: string;
  readonly fullName: string;
}

export interface Release {
  readonly tag: string;
  readonly name: string;
  readonly publishedAt: string;
  readonly url: string;
  readonly draft: boolean;
  readonly prerelease: boolean;
}

export interface PullRequest {
  readonly number: number;
  readonly headSha: string;
}

export interface CommitOnBranch {
  readonly repositoryNameWithOwner: string;
  readonly branchName: string;
  readonly expectedHeadOid: string;
  readonly message: { readonly headline: string; readonly body?: string };
  readonly additions: readonly { readonly path: string; readonly contents: string }[];
  readonly deletions: readonly { readonly path: string }[];
}

const PAGE = 100;

/**
 * The brokers answer their own callers, who retry: a platform call is made once, and a rate limit
 * goes back to the caller with its wait (`Retry-After`). A redirect is never followed: the app's
 * calls are answered by the configured API or fail.
 */
function platformClient(apiBase: string, options: PlatformClientOptions, auth: Parameters<typeof githubClient>[0]['auth']): GitHubClient {
  return githubClient({ baseUrl: apiBase, userAgent: options.userAgent, bounds: options.bounds ?? PLATFORM_CALL, redirects: 'none', ...(options.transport ? { transport: options.transport } : {}), ...(auth ? { auth } : {}) });
}

/** Per-call request options: a caller's deadline (a whole route's). */
function perCall(signal: AbortSignal | undefined): { request?: { signal: AbortSignal } } {
  return signal ? { request: { signal } } : {};
}

/** Every platform call goes through here, so every failure becomes a `PlatformError`. */
async function platformCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toPlatformError(err);
  }
}

/** Calls made as the app itself (app JWT, RS256, `iss` = app id): installations and minting. */
export class AppClient {
  private readonly octokit: GitHubClient;

  constructor(
    readonly apiBase: string,
    readonly credentials: AppCredentials,
    private readonly options: PlatformClientOptions,
  ) {
    const jwt = new AppJwt(credentials.appId, credentials.privateKey);
    this.octokit = platformClient(apiBase, options, { strategy: createAppAuth, appId: credentials.appId, createJwt: (_appId, skew) => jwt.forAuthApp(skew) });
  }

  /** The installation that covers `owner/repo`, or null when the app is not installed there (404). */
  repositoryInstallation(owner: string, repo: string): Promise<Installation | null> {
    return nullOn404(async () => installationOf((await this.octokit.request('GET /repos/{owner}/{repo}/installation', { owner, repo })).data as InstallationData));
  }

  installation(installationId: number): Promise<Installation | null> {
    return nullOn404(async () => installationOf((await this.octokit.request('GET /app/installations/{installation_id}', { installation_id: installationId })).data as InstallationData));
  }

  installations(signal?: AbortSignal): AsyncGenerator<Installation> {
    return items(this.octokit.paginate.iterator('GET /app/installations', { per_page: PAGE, ...perCall(signal) }), installationOf);
  }

  /**
   * A fresh installation token narrowed to the given repositories and permissions, on every
   * call: never shared between callers (one revoking its token must not revoke another's) and
   * never kept. An explicit request, not auth-app's installation authentication, which caches
   * tokens and shares one in-flight mint among identical concurrent requests.
   */
  mint(installationId: number, request: MintRequest, signal?: AbortSignal): Promise<MintedToken> {
    return platformCall(async () => {
      const { data } = await this.octokit.request('POST /app/installations/{installation_id}/access_tokens', {
        installation_id: installationId,
        permissions: request.permissions,
        ...(request.repositoryIds ? { repository_ids: [...request.repositoryIds] } : {}),
        ...(request.repositoryNames ? { repositories: [...request.repositoryNames] } : {}),
        ...perCall(signal),
      });
      if (typeof data?.token !== 'string' || typeof data.expires_at !== 'string') throw new PlatformError('the mint answered without a token', 201);
      const repositories = Array.isArray(data.repositories) ? data.repositories.map((r) => ({ id: Number(r.id), name: String(r.name) })) : undefined;
      const covers = { ...(typeof data.repository_selection === 'string' ? { selection: data.repository_selection } : {}), ...(repositories ? { repositories } : {}) };
      return { token: data.token, expiresAt: data.expires_at, permissions: (data.permissions ?? {}) as Record<string, string>, covers };
    });
  }

  /** Calls made with an installation token. */
  withToken(token: string): InstallationClient {
    return new InstallationClient(platformClient(this.apiBase, this.options, { token }), this.options);
  }
}

/** Calls made with one installation token (repositories, releases, pull requests, commits). */
export class InstallationClient {
  private readonly commitFetch: Fetch;

  constructor(
    private readonly octokit: GitHubClient,
    options: PlatformClientOptions,
  ) {
    // GraphQL's createCommitOnBranch uploads file contents: a bound of its own.
    this.commitFetch = githubFetch(options.commitBounds ?? PLATFORM_COMMIT, options.transport);
  }

  repositories(signal?: AbortSignal): AsyncGenerator<Repository> {
    return items(this.octokit.paginate.iterator('GET /installation/repositories', { per_page: PAGE, ...perCall(signal) }), (r) => ({
      id: Number(r.id),
      owner: r.owner.login,
      name: r.name,
      fullName: r.full_name,
    }));
  }

  /** The latest published release (the platform skips drafts and prereleases), or null when there is none. */
  latestRelease(owner: string, repo: string, signal?: AbortSignal): Promise<Release | null> {
    return nullOn404(() =>
      this.octokit.request('GET /repos/{owner}/{repo}/releases/latest', { owner, repo, ...perCall(signal) }).then(({ data }) => ({
        tag: data.tag_name,
        name: data.name ?? '',
        publishedAt: data.published_at ?? data.created_at,
        url: data.html_url,
        draft: data.draft,
        prerelease: data.prerelease,
      })),
    );
  }

  openPullRequests(owner: string, repo: string, base: string): AsyncGenerator<PullRequest> {
    const parameters = { owner, repo, base, state: 'open' as const, per_page: PAGE };
    return items(this.octokit.paginate.iterator('GET /repos/{owner}/{repo}/pulls', parameters), (pr) => ({
      number: pr.number,
      headSha: pr.head.sha,
    }));
  }

  /** Merges the base into the pull request's head, only if the head is still `expectedHeadSha`. */
  updateBranch(owner: string, repo: string, pullNumber: number, expectedHeadSha: string): Promise<void> {
    return platformCall(async () => {
      await this.octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/update-branch', {
        owner,
        repo,
        pull_number: pullNumber,
        expected_head_sha: expectedHeadSha,
      });
    });
  }

  /** GraphQL `createCommitOnBranch`: the platform signs the commit as the app. Returns its commit object. */
  createCommitOnBranch(input: CommitOnBranch): Promise<Record<string, unknown>> {
    return platformCall(async () => {
      const result = await this.octokit.graphql<{ createCommitOnBranch: { commit: Record<string, unknown> } }>(CREATE_COMMIT, {
        input: {
          branch: { repositoryNameWithOwner: input.repositoryNameWithOwner, branchName: input.branchName },
          expectedHeadOid: input.expectedHeadOid,
          message: input.message,
          fileChanges: { additions: input.additions, deletions: input.deletions },
        },
        request: { fetch: this.commitFetch },
      });
      return result.createCommitOnBranch.commit;
    });
  }

  /** Revokes the token this client holds. */
  revoke(): Promise<void> {
    return platformCall(async () => {
      await this.octokit.request('DELETE /installation/token');
    });
  }
}

/** The signed-commit mutation (exported for the schema check of every GraphQL document sent). */
export const CREATE_COMMIT = `mutation ($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) {
    commit { oid abbreviatedOid url committedDate messageHeadline messageBody signature { isValid state wasSignedByGitHub } }
  }
}`;

interface InstallationData {
  id: number | bigint;
  permissions?: Record<string, string | undefined>;
  suspended_at?: string | null;
}

function installationOf(data: InstallationData): Installation {
  if (typeof data?.id !== 'number' && typeof data?.id !== 'bigint') throw new PlatformError('the installation lookup answered without an id', 200);
  const permissions: Record<string, string> = {};
  for (const [name, access] of Object.entries(data.permissions ?? {})) if (typeof access === 'string') permissions[name] = access;
  return { id: Number(data.id), permissions, suspended: Boolean(data.suspended_at) };
}

/** Follows the platform's `Link` pagination page by page, so a large listing is never held at once. */
async function* items<D, T>(pages: AsyncIterable<{ data: D[] }>, map: (data: D) => T): AsyncGenerator<T> {
  const iterator = pages[Symbol.asyncIterator]();
  for (;;) {
    const page = await platformCall(() => iterator.next());
    if (page.done) return;
    for (const data of page.value.data) yield map(data);
  }
}

async function nullOn404<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await platformCall(call);
  } catch (err) {
    if ((err as { status?: unknown }).status === 404) return null;
    throw err;
  }
}
