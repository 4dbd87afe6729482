import { getOctokit } from '@actions/github';
import { GITHUB_API_VERSION } from '../../server/github/api.js';
import type { ActionCall } from '../../server/http/call-bounds.js';
import type { ActionHttp } from './http.js';

export type ActionOctokit = ReturnType<typeof getOctokit>;

/**
 * `@actions/github`'s Octokit for one of the actions' named calls: its requests go through the
 * actions' fetch for that call (bounded like every outbound call, through the runner's proxy),
 * to `apiUrl` (`GITHUB_API_URL`, for GitHub Enterprise). Redirects are refused (the token would
 * follow them) unless `followRedirects`.
 */
export function actionOctokit(http: ActionHttp, call: ActionCall, token: string, apiUrl: string, options: { followRedirects?: boolean } = {}): ActionOctokit {
  const request = { fetch: http.fetch(call), ...(options.followRedirects ? { redirect: 'follow' as const } : {}) };
  const octokit = getOctokit(token, { baseUrl: apiUrl.replace(/\/+$/, ''), userAgent: http.userAgent, request });
  octokit.hook.before('request', (request) => {
    request.headers['x-github-api-version'] = GITHUB_API_VERSION;
  });
  return octokit;
}
