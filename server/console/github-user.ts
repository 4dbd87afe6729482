import { githubClient, type GitHubClient } from '../github/client.js';
import type { CallBounds, Fetch } from '../http/outbound.js';
import { PlatformError, toPlatformError } from '../platform/errors.js';
import type { SessionRepository } from '../store/types.js';

/** The most repositories a session keeps: past it the list says `truncated` (and the overview says so). */
export const MAX_SESSION_REPOSITORIES = 2000;
const PAGE = 100;

/** GitHub answered 401: the user token was revoked, expired or never valid. The session ends. */
export class UserTokenRejected extends Error {
  override readonly name = 'UserTokenRejected';
}

interface RepositoryAnswer {
  id: number;
  name: string;
  owner: { login: string };
  private: boolean;
  html_url: string;
  permissions?: Record<string, boolean>;
}

/**
 * The REST calls made with a person's user token (`FORGE_API_BASE`), through the one GitHub
 * client factory: who the person is, and every repository both the person and the App can reach
 * (`GET /user/installations`, then each installation's `GET /user/installations/{id}/repositories`).
 */
export class UserGitHub {
  private readonly octokit: GitHubClient;

  constructor(apiBase: string, token: string, options: { readonly bounds: CallBounds; readonly transport?: Fetch; readonly userAgent: string }) {
    this.octokit = githubClient({ baseUrl: apiBase, userAgent: options.userAgent, bounds: options.bounds, auth: { token }, redirects: 'same-origin', ...(options.transport ? { transport: options.transport } : {}) });
  }

  async user(): Promise<{ id: string; login: string }> {
    const { data } = await this.call(() => this.octokit.request('GET /user'));
    return { id: String(data.id), login: data.login };
  }

  /** The repositories both the person and the App can reach, with the person's permissions on each; at most `MAX_SESSION_REPOSITORIES`. */
  async repositories(): Promise<{ repositories: SessionRepository[]; truncated: boolean }> {
    const found = new Map<string, SessionRepository>();
    return this.call(async () => {
      for await (const page of this.octokit.paginate.iterator('GET /user/installations', { per_page: PAGE })) {
        for (const installation of page.data) {
          const pages = this.octokit.paginate.iterator('GET /user/installations/{installation_id}/repositories', { installation_id: installation.id, per_page: PAGE });
          for await (const repositories of pages) {
            for (const repository of repositories.data as RepositoryAnswer[]) {
              if (found.size >= MAX_SESSION_REPOSITORIES && !found.has(String(repository.id))) return { repositories: [...found.values()], truncated: true };
              found.set(String(repository.id), repositoryOf(repository));
            }
          }
        }
      }
      return { repositories: [...found.values()], truncated: false };
    });
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const failure = toPlatformError(err);
      if (failure instanceof PlatformError && failure.status === 401) throw new UserTokenRejected('GitHub refused the user token', { cause: failure });
      throw failure;
    }
  }
}

function repositoryOf(answer: RepositoryAnswer): SessionRepository {
  return {
    id: String(answer.id),
    owner: answer.owner.login,
    name: answer.name,
    private: answer.private,
    htmlUrl: answer.html_url,
    permissions: { ...answer.permissions },
  };
}
