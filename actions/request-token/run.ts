import type { ActionsCore } from '../shared/core.js';
import { baseUrl, booleanInput, InputError, optionalInput } from '../shared/inputs.js';
import { jsonObject, type ActionHttp } from '../shared/http.js';
import { spaceControlCharacters } from '../../server/http/control-characters.js';
import { parseFullName } from '../../server/platform/identifiers.js';
import { requestedPermissions } from './permission-inputs.js';
import { brokerSaid, fetchOidcToken, postTokenRequest, TokenUnavailable, type BrokerToken } from './broker-client.js';

const DEFAULT_AUDIENCE = 'gatehouse-broker';
const DEFAULT_APP_NAME = 'Gatehouse';

export type TokenCore = ActionsCore & Pick<typeof import('@actions/core'), 'saveState' | 'getState'>;

export interface RequestTokenDeps {
  readonly core: TokenCore;
  readonly http: ActionHttp;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The step's inputs. There is no default broker: the OIDC token goes only where the workflow says.
 * `brokerUrl` undefined means the input was empty (the runner passes an omitted input as '' too).
 */
interface Settings {
  readonly brokerUrl: string | undefined;
  readonly fallbackUrl: string | undefined;
  readonly audience: string;
  readonly revoke: boolean;
  readonly failOnError: boolean;
  /** From the `permission-<name>` inputs; undefined when none is set (the broker's ceiling applies). */
  readonly permissions: Readonly<Record<string, string>> | undefined;
}

function readSettings(core: TokenCore): Settings {
  const brokerUrl = optionalInput(core, 'broker-url');
  const fallbackUrl = optionalInput(core, 'fallback-url');
  return {
    brokerUrl: brokerUrl === undefined ? undefined : baseUrl('broker-url', brokerUrl).href,
    fallbackUrl: fallbackUrl === undefined ? undefined : baseUrl('fallback-url', fallbackUrl).href,
    audience: optionalInput(core, 'audience') ?? DEFAULT_AUDIENCE,
    revoke: booleanInput(core, 'revoke', true),
    failOnError: booleanInput(core, 'fail-on-error', false),
    permissions: requestedPermissions(core),
  };
}

async function obtain({ core, http, env }: RequestTokenDeps, settings: Settings, brokerUrl: string): Promise<BrokerToken> {
  if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) throw new TokenUnavailable("missing 'id-token: write'");
  const repository = parseFullName(env.GITHUB_REPOSITORY ?? '');
  if (!repository) throw new TokenUnavailable('bad GITHUB_REPOSITORY');

  const oidcToken = await fetchOidcToken(http, core, env, settings.audience);

  const body: Record<string, unknown> = { oidcToken, owner: repository.owner, repo: repository.name };
  for (const [field, name] of [['ref', 'GITHUB_REF'], ['runId', 'GITHUB_RUN_ID'], ['sha', 'GITHUB_SHA']] as const) {
    if (env[name]) body[field] = env[name];
  }
  if (settings.permissions) body.permissions = settings.permissions;
  let answer = await postTokenRequest(http, brokerUrl, body);
  // Only an address the workflow named: the OIDC token is never sent anywhere else.
  if ('noAnswer' in answer && settings.fallbackUrl) {
    core.info(`broker unreachable at ${brokerUrl} (${answer.noAnswer}); trying ${settings.fallbackUrl}`);
    answer = await postTokenRequest(http, settings.fallbackUrl, body);
  }
  if ('noAnswer' in answer) throw new TokenUnavailable('broker unreachable', { cause: new Error(answer.noAnswer) });
  if (answer.status !== 200) throw new TokenUnavailable(`broker HTTP ${answer.status}`, { said: brokerSaid(answer.body, [oidcToken]) });

  const parsed = jsonObject(answer.body);
  const token = parsed?.token;
  if (typeof token !== 'string' || token.length === 0) throw new TokenUnavailable('broker returned no token');
  // Masked first: nothing is printed or written with the token before the runner knows to hide it.
  core.setSecret(token);
  return {
    token,
    expiresAt: typeof parsed?.expires_at === 'string' ? parsed.expires_at : '',
    repository: typeof parsed?.repository === 'string' ? parsed.repository : `${repository.owner}/${repository.name}`,
    // A broker from before per-request permissions sends none: the output stays empty then.
    permissions: carriedPermissions(parsed?.permissions),
  };
}

/**
 * Why the answer does not confirm the `permission-*` inputs, or undefined when it does: a broker
 * that reports no permissions (one from before per-request permissions ignores them, and its token
 * carries everything it is configured for), or one whose token carries a permission not asked
 * for, or write where read was asked. Less than asked is the broker narrowing, not a widening.
 */
function unconfirmed(asked: Readonly<Record<string, string>>, reported: string): string | undefined {
  if (reported === '') return 'the broker did not say which permissions the token carries, so the permission-* inputs are not confirmed (a broker from before per-request permissions ignores them: its token carries everything it is configured for)';
  const granted = JSON.parse(reported) as Record<string, string>;
  const beyond = Object.entries(granted).filter(([name, access]) => name !== 'metadata' && (asked[name] === undefined || (asked[name] === 'read' && access !== 'read')));
  if (beyond.length === 0) return undefined;
  return `the token carries more than the permission-* inputs asked for: ${beyond.map(([name, access]) => `${name}: ${access}`).join(', ')}`;
}

/** The answer's `permissions` as one JSON line, kept only when it is a flat object of words. */
function carriedPermissions(raw: unknown): string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return '';
  const entries = Object.entries(raw).filter(([name, access]) => /^[a-z_]{1,64}$/.test(name) && typeof access === 'string' && /^[a-z]{1,16}$/.test(access));
  return JSON.stringify(Object.fromEntries(entries));
}

const emptyOutputs = (core: TokenCore) => {
  for (const name of ['token', 'expires-at', 'repository', 'permissions']) core.setOutput(name, '');
};

/**
 * The request-token action, fail-soft: when no token can be had the outputs are empty, one warning
 * line names the reason (a second one quotes the broker's `error` and `reason` when it sent them),
 * and the step succeeds, so callers fall back to the default bot identity. `fail-on-error: true`
 * fails the step instead, with the same reason. A mistake in the step's own inputs always fails it:
 * retrying never fixes one.
 */
export async function run(deps: RequestTokenDeps): Promise<void> {
  const { core } = deps;
  const appName = spaceControlCharacters(optionalInput(core, 'app-name') ?? DEFAULT_APP_NAME);
  let settings: Settings;
  try {
    settings = readSettings(core);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    emptyOutputs(core);
    core.setFailed(`${appName} token: ${err.message}`);
    return;
  }
  try {
    if (settings.brokerUrl === undefined) {
      // '' is the off switch, and an omitted input arrives as '' as well: say how to turn it on.
      core.notice(`${appName} token: broker-url is empty, so no token was requested. Set it to your broker's base URL (there is no default broker; a variable or secret that is not defined is empty too), or keep it '' to leave the step off.`);
      throw new TokenUnavailable('broker disabled');
    }
    const result = await obtain(deps, settings, settings.brokerUrl);
    core.setOutput('token', result.token);
    core.setOutput('expires-at', result.expiresAt);
    core.setOutput('repository', result.repository);
    core.setOutput('permissions', result.permissions);
    const widened = settings.permissions ? unconfirmed(settings.permissions, result.permissions) : undefined;
    if (widened) core.warning(`${appName} token: ${widened}`);
    if (settings.revoke) {
      core.saveState('token', result.token);
      core.saveState('expires-at', result.expiresAt);
    }
    core.info(`${appName} token ready for ${result.repository} (expires ${result.expiresAt || 'at an unknown time'})`);
  } catch (err) {
    const reason = err instanceof TokenUnavailable ? err.reason : 'unexpected error';
    emptyOutputs(core);
    if (settings.failOnError) core.setFailed(`${appName} token unavailable (${reason}); the step fails because fail-on-error is true`);
    else core.warning(`${appName} token unavailable (${reason}); comments fall back to the default bot`);
    if (err instanceof TokenUnavailable && err.said !== undefined) core.warning(`broker said: ${err.said}`);
    // What the reason's vocabulary leaves out (which bound passed, which status), never a token.
    const detail = err instanceof TokenUnavailable ? err.cause : err;
    if (detail instanceof Error) core.info(`${appName} token: ${detail.message}`);
  }
}
