import type { ActionsCore } from '../shared/core.js';
import { jsonObject } from '../../server/http/json.js';
import { type ActionHttp } from '../shared/http.js';
import { peerText } from '../shared/peer-text.js';
import { parseFullName } from '../../server/github/identifiers.js';
import { brokerSaid, fetchOidcToken, postTokenRequest, TokenUnavailable, type BrokerToken } from './broker-client.js';
import { revokeToken } from './revoke-token.js';

/** What a token is asked for with: the same for the step's first token and every refresh. */
export interface TokenRequest {
  readonly brokerUrl: string;
  readonly fallbackUrl: string | undefined;
  readonly audience: string;
  /** From the `permission-<name>` inputs; undefined when none is set (the broker's ceiling applies). */
  readonly permissions: Readonly<Record<string, string>> | undefined;
}

export interface ObtainDeps {
  readonly core: Pick<ActionsCore, 'setSecret' | 'info'>;
  readonly http: ActionHttp;
  /** The job's variables: the runner's OIDC endpoint, `GITHUB_REPOSITORY`, `GITHUB_REF`, `GITHUB_RUN_ID`, `GITHUB_SHA`, `GITHUB_API_URL`. */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * A token from the broker for the job's repository, asked with a fresh OIDC token: `brokerUrl`,
 * then `fallbackUrl` when the first could not be reached. The token and the OIDC token are masked
 * (`core.setSecret`) before anything else is done with them.
 */
export async function obtain({ core, http, env }: ObtainDeps, request: TokenRequest): Promise<BrokerToken> {
  const { brokerUrl } = request;
  if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) throw new TokenUnavailable("missing 'id-token: write'");
  const repository = parseFullName(env.GITHUB_REPOSITORY ?? '');
  if (!repository) throw new TokenUnavailable('bad GITHUB_REPOSITORY');

  const oidcToken = await fetchOidcToken(http, core, env, request.audience);

  const body: Record<string, unknown> = { oidcToken, owner: repository.owner, repo: repository.name };
  for (const [field, name] of [['ref', 'GITHUB_REF'], ['runId', 'GITHUB_RUN_ID'], ['sha', 'GITHUB_SHA']] as const) {
    if (env[name]) body[field] = env[name];
  }
  if (request.permissions) body.permissions = request.permissions;
  let answer = await postTokenRequest(http, brokerUrl, body);
  // Only an address the workflow named: the OIDC token is never sent anywhere else.
  if ('noAnswer' in answer && request.fallbackUrl) {
    core.info(`broker unreachable at ${brokerUrl} (${answer.noAnswer}); trying ${request.fallbackUrl}`);
    answer = await postTokenRequest(http, request.fallbackUrl, body);
  }
  if ('noAnswer' in answer) throw new TokenUnavailable('broker unreachable', { cause: new Error(answer.noAnswer) });
  if (answer.status !== 200) throw new TokenUnavailable(`broker HTTP ${answer.status}`, { said: brokerSaid(answer.body, [oidcToken]) });

  const parsed = jsonObject(answer.body);
  const token = parsed?.token;
  // Printable ASCII only: the token goes into output files, git's credential protocol and `$(…)`,
  // where a newline could forge another line.
  if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) throw new TokenUnavailable('broker returned no token');
  // Masked first: nothing is printed or written with the token before the runner knows to hide it.
  core.setSecret(token);
  const asked = `${repository.owner}/${repository.name}`;
  const named: unknown = parsed?.repository ?? undefined;
  // A token the broker says is for another repository is not the job's to use: refused and revoked.
  // GitHub treats names without case, as the OIDC claim the broker answers from may spell them.
  if (named !== undefined && (typeof named !== 'string' || named.toLowerCase() !== asked.toLowerCase())) {
    const outcome = await revokeToken(http, env.GITHUB_API_URL || 'https://api.github.com', token);
    const fate = 'notRevoked' in outcome ? `not revoked: ${outcome.notRevoked}` : 'revoked';
    throw new TokenUnavailable('broker returned another repository', { cause: new Error(`the broker's answer names ${peerText(named, { max: 140, secrets: [token] }) ?? 'a value that is not a name'}, not ${asked}; its token was ${fate}`) });
  }
  return {
    token,
    expiresAt: typeof parsed?.expires_at === 'string' ? parsed.expires_at : '',
    repository: typeof named === 'string' ? named : asked,
    // A broker from before per-request permissions sends none: the output stays empty then.
    permissions: carriedPermissions(parsed?.permissions),
  };
}

/** The answer's `permissions` as one JSON line, kept only when it is a flat object of words. */
function carriedPermissions(raw: unknown): string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return '';
  const entries = Object.entries(raw).filter(([name, access]) => /^[a-z_]{1,64}$/.test(name) && typeof access === 'string' && /^[a-z]{1,16}$/.test(access));
  return JSON.stringify(Object.fromEntries(entries));
}
