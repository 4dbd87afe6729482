import type { ActionsCore } from '../shared/core.js';
import { optionalInput } from '../shared/inputs.js';
import type { ActionHttp } from '../shared/http.js';
import { fetchOidcToken, parseObject, postTokenRequest, TokenUnavailable, type BrokerToken } from './broker-client.js';

/** The hosted broker's addresses (README). Self-hosters set `broker-url` (and `fallback-url`). */
export const DEFAULT_BROKER_URL = 'https://broker.gatehouse.dev';
export const DEFAULT_FALLBACK_URL = 'https://broker-fallback.gatehouse.dev';
export const DEFAULT_AUDIENCE = 'gatehouse-broker';
export const DEFAULT_APP_NAME = 'Gatehouse';

export type TokenCore = ActionsCore & Pick<typeof import('@actions/core'), 'saveState' | 'getState'>;

export interface RequestTokenDeps {
  readonly core: TokenCore;
  readonly http: ActionHttp;
  readonly env: NodeJS.ProcessEnv;
}

const REPOSITORY = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;

/**
 * The fallback only stands in for the hosted primary: a self-hosted `broker-url` never sends its
 * OIDC token to the hosted fallback unless `fallback-url` says so.
 */
function fallbackFor(core: TokenCore, brokerUrl: string): string | undefined {
  return optionalInput(core, 'fallback-url') ?? (brokerUrl === DEFAULT_BROKER_URL ? DEFAULT_FALLBACK_URL : undefined);
}

async function obtain({ core, http, env }: RequestTokenDeps, brokerUrl: string): Promise<BrokerToken> {
  if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) throw new TokenUnavailable("missing 'id-token: write'");
  const repository = REPOSITORY.exec(env.GITHUB_REPOSITORY ?? '');
  if (!repository) throw new TokenUnavailable('bad GITHUB_REPOSITORY');

  const oidcToken = await fetchOidcToken(http, core, env, optionalInput(core, 'audience') ?? DEFAULT_AUDIENCE);

  const body: Record<string, string> = { oidcToken, owner: repository[1]!, repo: repository[2]! };
  for (const [field, name] of [['ref', 'GITHUB_REF'], ['runId', 'GITHUB_RUN_ID'], ['sha', 'GITHUB_SHA']] as const) {
    if (env[name]) body[field] = env[name];
  }
  let answer = await postTokenRequest(http, brokerUrl, body);
  const fallback = fallbackFor(core, brokerUrl);
  if ('noAnswer' in answer && fallback) {
    core.info(`broker unreachable at ${brokerUrl} (${answer.noAnswer}); trying ${fallback}`);
    answer = await postTokenRequest(http, fallback, body);
  }
  if ('noAnswer' in answer) throw new TokenUnavailable('broker unreachable', { cause: new Error(answer.noAnswer) });
  if (answer.status !== 200) throw new TokenUnavailable(`broker HTTP ${answer.status}`);

  const parsed = parseObject(answer.body);
  const token = parsed?.token;
  if (typeof token !== 'string' || token.length === 0) throw new TokenUnavailable('broker returned no token');
  // Masked first: nothing is printed or written with the token before the runner knows to hide it.
  core.setSecret(token);
  return {
    token,
    expiresAt: typeof parsed?.expires_at === 'string' ? parsed.expires_at : '',
    repository: typeof parsed?.repository === 'string' ? parsed.repository : `${repository[1]}/${repository[2]}`,
  };
}

/**
 * The request-token action, fail-soft: on any failure the outputs are empty, exactly one warning
 * line names the reason, and the step succeeds (callers fall back to the default bot identity).
 */
export async function run(deps: RequestTokenDeps): Promise<void> {
  const { core } = deps;
  const appName = (optionalInput(core, 'app-name') ?? DEFAULT_APP_NAME).replace(/[\r\n]+/g, ' ');
  try {
    // Set but empty means "off" on purpose; unset inputs arrive as the action.yml default.
    const brokerUrl = core.getInput('broker-url').trim();
    if (!brokerUrl) throw new TokenUnavailable('broker disabled');
    const result = await obtain(deps, brokerUrl);
    core.setOutput('token', result.token);
    core.setOutput('expires-at', result.expiresAt);
    core.setOutput('repository', result.repository);
    // Anything but an explicit false keeps the safer default: the token is revoked when the job ends.
    if (!/^false$/i.test(core.getInput('revoke').trim())) {
      core.saveState('token', result.token);
      core.saveState('expires-at', result.expiresAt);
    }
    core.info(`${appName} token ready for ${result.repository} (expires ${result.expiresAt || 'at an unknown time'})`);
  } catch (err) {
    const reason = err instanceof TokenUnavailable ? err.reason : 'unexpected error';
    for (const name of ['token', 'expires-at', 'repository']) core.setOutput(name, '');
    core.warning(`${appName} token unavailable (${reason}); comments fall back to the default bot`);
    // What the reason's vocabulary leaves out (which bound passed, which status), never a token.
    const detail = err instanceof TokenUnavailable ? err.cause : err;
    if (detail instanceof Error) core.info(`${appName} token: ${detail.message}`);
  }
}
