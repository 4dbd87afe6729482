import type { StatefulCore } from '../shared/core.js';
import { baseUrl, booleanInput, InputError, optionalInput } from '../shared/inputs.js';
import type { ActionHttp } from '../shared/http.js';
import { spaceControlCharacters } from '../../server/http/control-characters.js';
import { requestedPermissions } from './permission-inputs.js';
import { TokenUnavailable } from './broker-client.js';
import { obtain, type TokenRequest } from './obtain.js';
import { heldToken } from './refresh/current-token.js';
import { installRefresh, type RefreshCli } from './refresh/install.js';

const DEFAULT_AUDIENCE = 'gatehouse-broker';
const DEFAULT_APP_NAME = 'Gatehouse';

export interface RequestTokenDeps {
  readonly core: StatefulCore;
  readonly http: ActionHttp;
  readonly env: NodeJS.ProcessEnv;
  /** How later steps run the refresh (`refresh: true`); the entry file knows where its bundle is. Without it there is no refresh. */
  readonly cli?: RefreshCli;
  readonly now?: () => number;
}

/**
 * The step's inputs. There is no default broker: the OIDC token goes only where the workflow says.
 * `brokerUrl` undefined means the input was empty (the runner passes an omitted input as '' too).
 */
interface Settings extends Omit<TokenRequest, 'brokerUrl'> {
  readonly brokerUrl: string | undefined;
  readonly revoke: boolean;
  readonly failOnError: boolean;
  /** Keep the job supplied with tokens after this one: a git credential helper and `token-command`. */
  readonly refresh: boolean;
}

function readSettings(core: StatefulCore): Settings {
  const brokerUrl = optionalInput(core, 'broker-url');
  const fallbackUrl = optionalInput(core, 'fallback-url');
  return {
    brokerUrl: brokerUrl === undefined ? undefined : baseUrl('broker-url', brokerUrl).href,
    fallbackUrl: fallbackUrl === undefined ? undefined : baseUrl('fallback-url', fallbackUrl).href,
    audience: optionalInput(core, 'audience') ?? DEFAULT_AUDIENCE,
    revoke: booleanInput(core, 'revoke', true),
    failOnError: booleanInput(core, 'fail-on-error', false),
    refresh: booleanInput(core, 'refresh', false),
    permissions: requestedPermissions(core),
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

const emptyOutputs = (core: StatefulCore) => {
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
    const request = { brokerUrl: settings.brokerUrl, fallbackUrl: settings.fallbackUrl, audience: settings.audience, permissions: settings.permissions };
    const result = await obtain(deps, request);
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
    if (settings.refresh && deps.cli) {
      const { env } = deps;
      const job = Object.fromEntries(['GITHUB_REPOSITORY', 'GITHUB_REF', 'GITHUB_RUN_ID', 'GITHUB_SHA'].flatMap((name) => (env[name] ? [[name, env[name]!]] : [])));
      core.saveState('revoke', String(settings.revoke));
      await installRefresh(core, env, deps.cli, { request, appName, serverUrl: env.GITHUB_SERVER_URL || 'https://github.com', apiUrl: env.GITHUB_API_URL || 'https://api.github.com', job }, heldToken(result, (deps.now ?? Date.now)()));
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
