import type { TokenCore } from './run.js';
import { actionOctokit, failureOf } from '../shared/github.js';
import { NoAnswer, type ActionHttp } from '../shared/http.js';

/**
 * The post step: revokes the token the main step obtained, so it does not outlive the job.
 * Fail-soft too: a token that cannot be revoked expires by itself within the hour.
 */
export async function revoke({ core, http, env, now = Date.now }: { core: TokenCore; http: ActionHttp; env: NodeJS.ProcessEnv; now?: () => number }): Promise<void> {
  const token = core.getState('token');
  if (!token) {
    core.info('no token to revoke');
    return;
  }
  const expiresAt = Date.parse(core.getState('expires-at'));
  if (Number.isFinite(expiresAt) && expiresAt <= now()) {
    core.info('token already expired');
    return;
  }
  const octokit = actionOctokit(http, 'token-revoke', token, env.GITHUB_API_URL || 'https://api.github.com');
  try {
    await octokit.request('DELETE /installation/token');
    core.info('token revoked');
  } catch (err) {
    const failure = failureOf(http, 'token-revoke', err);
    if (failure instanceof NoAnswer) core.warning(`token not revoked (API unreachable: ${failure.reason}); it expires on its own`);
    else if (failure.status === 401) core.info('token was already revoked or expired');
    else core.warning(`token not revoked (HTTP ${failure.status}); it expires on its own`);
  }
}
