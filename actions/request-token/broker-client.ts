import type { HttpClient } from '@actions/http-client';

/** The part of `@actions/http-client` the action uses (tests pass a real client against loopback). */
export type TokenHttp = Pick<HttpClient, 'get' | 'post' | 'del'>;

/** Why no token came back: the spec's closed vocabulary, printed in the warning line. */
export class TokenUnavailable extends Error {
  override readonly name = 'TokenUnavailable';
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface BrokerToken {
  readonly token: string;
  readonly expiresAt: string;
  readonly repository: string;
}

/**
 * Asks the runner for the job's OIDC token. A failed request and an answer without `value`
 * are different reasons: the second means the runner itself misbehaved.
 */
export async function fetchOidcToken(http: TokenHttp, requestUrl: string, requestToken: string, audience: string): Promise<string> {
  let status: number | undefined;
  let body = '';
  try {
    const url = new URL(requestUrl);
    url.searchParams.set('audience', audience);
    const res = await http.get(url.href, { authorization: `Bearer ${requestToken}`, accept: 'application/json' });
    status = res.message.statusCode;
    body = await res.readBody();
  } catch {
    throw new TokenUnavailable('OIDC request failed');
  }
  if (status !== 200) throw new TokenUnavailable('OIDC request failed');
  const value = parseObject(body)?.value;
  if (typeof value !== 'string' || value.length === 0) throw new TokenUnavailable('OIDC token missing');
  return value;
}

/**
 * POSTs the token request. Returns undefined when the broker could not be reached at all
 * (connection refused, DNS failure, timeout): only then is the fallback address tried.
 */
export async function postTokenRequest(
  http: TokenHttp,
  brokerUrl: string,
  body: Record<string, string>,
): Promise<{ status: number; body: string } | undefined> {
  let url: string;
  try {
    url = new URL('token', brokerUrl.endsWith('/') ? brokerUrl : `${brokerUrl}/`).href;
  } catch {
    return undefined;
  }
  try {
    const res = await http.post(url, JSON.stringify(body), { 'content-type': 'application/json', accept: 'application/json' });
    return { status: res.message.statusCode ?? 0, body: await res.readBody() };
  } catch {
    return undefined;
  }
}

export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
