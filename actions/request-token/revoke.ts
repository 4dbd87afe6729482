import type { TokenCore } from './run.js';
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
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  try {
    const { status } = await http.call('token-revoke', `${api}/installation/token`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
    });
    if (status === 204) core.info('token revoked');
    else if (status === 401) core.info('token was already revoked or expired');
    else core.warning(`token not revoked (HTTP ${status}); it expires on its own`);
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    core.warning(`token not revoked (API unreachable: ${err.reason}); it expires on its own`);
  }
}
