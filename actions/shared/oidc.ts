import { setTimeout as sleep } from 'node:timers/promises';
import type { ActionsCore } from './core.js';
import { callFailure } from '../../server/http/outbound.js';
import { jsonObject } from '../../server/http/json.js';
import { type ActionHttp } from './http.js';

/** The job cannot ask for an OIDC token: the workflow lacks `permissions: id-token: write`. */
class MissingIdTokenPermission extends Error {
  override readonly name = 'MissingIdTokenPermission';
  constructor() {
    super("cannot request an OIDC token: give the job 'permissions: id-token: write'");
  }
}

/** The runner's token endpoint failed (`reason` is the fail-soft vocabulary; `detail` says more). */
export class OidcUnavailable extends Error {
  override readonly name = 'OidcUnavailable';
  constructor(
    readonly reason: 'OIDC request failed' | 'OIDC token missing',
    readonly detail: string,
  ) {
    super(`${reason} (${detail})`);
  }
}

/** One retry after this long when the endpoint did not answer or answered 5xx. */
const RETRY_AFTER_MS = 1000;

/**
 * Requests the job's OIDC token for `audience` from the runner (what `core.getIDToken` does, but
 * bounded: see `runner-oidc` in the bounds table) and masks it. The runner only sets
 * `ACTIONS_ID_TOKEN_REQUEST_URL`/`_TOKEN` when the job has `id-token: write`.
 */
export async function requestIdToken(http: ActionHttp, core: Pick<ActionsCore, 'setSecret'>, env: NodeJS.ProcessEnv, audience: string, retryAfterMs = RETRY_AFTER_MS): Promise<string> {
  const requestUrl = env.ACTIONS_ID_TOKEN_REQUEST_URL;
  const requestToken = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN;
  if (!requestUrl || !requestToken) throw new MissingIdTokenPermission();
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    throw new OidcUnavailable('OIDC request failed', 'ACTIONS_ID_TOKEN_REQUEST_URL is not a URL');
  }
  url.searchParams.set('audience', audience);
  for (let attempt = 1; ; attempt++) {
    let failure: string;
    try {
      const answer = await http.call('runner-oidc', url.href, { headers: { authorization: `Bearer ${requestToken}`, accept: 'application/json' } });
      if (answer.status === 200) {
        const value = jsonObject(answer.text)?.value;
        if (typeof value !== 'string' || value.length === 0) throw new OidcUnavailable('OIDC token missing', 'the answer has no value');
        core.setSecret(value);
        return value;
      }
      failure = `HTTP ${answer.status}`;
      if (answer.status < 500) throw new OidcUnavailable('OIDC request failed', failure);
    } catch (err) {
      const failed = callFailure(err);
      if (!failed || !('noAnswer' in failed)) throw err;
      failure = failed.noAnswer;
    }
    if (attempt >= 2) throw new OidcUnavailable('OIDC request failed', failure);
    await sleep(retryAfterMs);
  }
}
