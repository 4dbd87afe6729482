import { callFailure, transportFailure } from '../../server/http/outbound.js';
import { actionOctokit } from '../shared/github.js';
import type { ActionHttp } from '../shared/http.js';

/** What became of one token: revoked now, already dead (GitHub's 401), or left to expire and why. */
export type Revoked = { readonly revoked: true } | { readonly alreadyGone: true } | { readonly notRevoked: string };

/**
 * `DELETE /installation/token` with the token itself, at `apiUrl`: used by the post step for every
 * token the job holds, and by a refresh for a token it minted after the post step began.
 */
export async function revokeToken(http: ActionHttp, apiUrl: string, token: string): Promise<Revoked> {
  const octokit = actionOctokit(http, 'token-revoke', token, apiUrl);
  try {
    await octokit.request('DELETE /installation/token');
    return { revoked: true };
  } catch (err) {
    // Whatever else ends the call (it is Octokit's alone) is no answer too.
    const failure = callFailure(err);
    if (!failure || 'noAnswer' in failure) return { notRevoked: `API unreachable: ${failure?.noAnswer ?? transportFailure(err)}` };
    if (failure.status === 401) return { alreadyGone: true };
    return { notRevoked: `HTTP ${failure.status}` };
  }
}
