import { callFailure } from '../../server/http/outbound.js';
import { jsonObject } from '../../server/http/json.js';
import { type ActionHttp } from '../shared/http.js';
import { OidcUnavailable, requestIdToken } from '../shared/oidc.js';
import type { ActionsCore } from '../shared/core.js';
import { peerText } from '../shared/peer-text.js';

/**
 * Why no token came back: `reason` is the spec's closed vocabulary, printed in the warning line;
 * `said` is what the broker's answer gave as `error` and `reason`, already safe to print.
 */
export class TokenUnavailable extends Error {
  override readonly name = 'TokenUnavailable';
  readonly said: string | undefined;
  constructor(
    readonly reason: string,
    options?: { cause?: unknown; said?: string | undefined },
  ) {
    super(reason, options);
    this.said = options?.said;
  }
}

/** Each of `error` and `reason` is cut to this many characters; codes of the spec are far shorter. */
const MAX_CODE = 64;

/**
 * The broker's `error` and `reason` of a refusal, as `invalid_oidc_token (audience_mismatch)`, or
 * undefined when it sent neither. Whatever could be a credential (`secrets`, the OIDC token sent,
 * or anything shaped like one) is hidden, control characters go, each part is bounded.
 */
export function brokerSaid(body: string, secrets: readonly string[]): string | undefined {
  const parsed = jsonObject(body);
  const error = peerText(parsed?.error, { max: MAX_CODE, secrets });
  const reason = peerText(parsed?.reason, { max: MAX_CODE, secrets });
  if (error === undefined && reason === undefined) return undefined;
  return [error, reason === undefined ? undefined : `(${reason})`].filter((part) => part !== undefined).join(' ');
}

export interface BrokerToken {
  readonly token: string;
  readonly expiresAt: string;
  readonly repository: string;
  /** JSON of what the token carries, as the broker said; empty when it did not say. */
  readonly permissions: string;
}

/**
 * Asks the runner for the job's OIDC token. A failed request and an answer without `value`
 * are different reasons: the second means the runner itself misbehaved.
 */
export async function fetchOidcToken(http: ActionHttp, core: Pick<ActionsCore, 'setSecret'>, env: NodeJS.ProcessEnv, audience: string): Promise<string> {
  try {
    return await requestIdToken(http, core, env, audience);
  } catch (err) {
    if (err instanceof OidcUnavailable) throw new TokenUnavailable(err.reason, { cause: err });
    throw err;
  }
}

/** The broker's answer, or why none came. */
export type TokenAnswer = { readonly status: number; readonly body: string } | { readonly noAnswer: string };

/**
 * POSTs the token request. `noAnswer` when the broker could not be reached at all (connection
 * refused, DNS failure, no complete answer within the call's bound): only then is the fallback
 * address tried.
 */
export async function postTokenRequest(http: ActionHttp, brokerUrl: string, body: Readonly<Record<string, unknown>>): Promise<TokenAnswer> {
  let url: string;
  try {
    url = new URL('token', brokerUrl.endsWith('/') ? brokerUrl : `${brokerUrl}/`).href;
  } catch {
    return { noAnswer: 'the broker URL is not a URL' };
  }
  try {
    const answer = await http.call('broker-token', url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: answer.text };
  } catch (err) {
    const failure = callFailure(err);
    if (failure && 'noAnswer' in failure) return { noAnswer: failure.noAnswer };
    throw err;
  }
}
