import * as oauth from 'oauth4webapi';
import { MAX_ANSWER_BYTES } from '../http/call-bounds.js';
import { boundedFetch, type CallBounds, type Fetch } from '../http/outbound.js';
import type { ConsoleSettings } from './settings.js';

/**
 * The GitHub App's user-authorization web flow (`FORGE_WEB_BASE` + `/login/oauth/…`) through
 * oauth4webapi: the authorize URL with `state` and a PKCE (S256) challenge, the code exchange
 * with the verifier, and the refresh of an expiring user token. What is GitHub's own: it answers
 * a refused exchange with `200` and an `error` field (its documented "troubleshooting" answers),
 * and it sends `expires_in`/`refresh_token`/`refresh_token_expires_in` only when the App's
 * "Expire user authorization tokens" is on.
 */

/** The person's GitHub tokens. Secret: sealed before they reach the store, never logged. */
export interface UserTokens {
  readonly accessToken: string;
  /** Epoch ms; null: the token does not expire (the App's "Expire user authorization tokens" is off). */
  readonly accessTokenExpiresAt: number | null;
  readonly refreshToken: string | null;
  readonly refreshTokenExpiresAt: number | null;
}

/** GitHub refused the code or the refresh token (`bad_verification_code`, `bad_refresh_token`, …): the person signs in again. */
export class OAuthRefused extends Error {
  override readonly name = 'OAuthRefused';
  constructor(readonly code: string) {
    super(`GitHub refused the request: ${code}`);
  }
}

/** No usable answer (network, timeout, a 5xx, a body that is not a token answer): nothing was decided. */
export class OAuthUnavailable extends Error {
  override readonly name = 'OAuthUnavailable';
}

/** The callback is not an answer to a sign-in this browser started (no or another `state`). */
export class CallbackMismatch extends Error {
  override readonly name = 'CallbackMismatch';
}

/** The person declined on GitHub (`error=access_denied`), or GitHub answered the authorize step with another error. */
export class AuthorizationDeclined extends Error {
  override readonly name = 'AuthorizationDeclined';
  constructor(readonly code: string) {
    super(`the authorization was not granted: ${code}`);
  }
}

export const newState = (): string => oauth.generateRandomState();
export const newCodeVerifier = (): string => oauth.generateRandomCodeVerifier();

export class GitHubOAuth {
  private readonly server: oauth.AuthorizationServer;
  private readonly client: oauth.Client;
  private readonly auth: oauth.ClientAuth;
  private readonly options: oauth.TokenEndpointRequestOptions;

  constructor(
    private readonly settings: ConsoleSettings,
    options: { readonly bounds: CallBounds; readonly transport?: Fetch; readonly now: () => number },
  ) {
    const base = settings.webBase;
    this.server = { issuer: base, authorization_endpoint: `${base}/login/oauth/authorize`, token_endpoint: `${base}/login/oauth/access_token` };
    this.client = { client_id: settings.clientId };
    this.auth = oauth.ClientSecretPost(settings.clientSecret);
    this.now = options.now;
    this.options = {
      [oauth.customFetch]: boundedFetch(options.bounds, { ...(options.transport ? { transport: options.transport } : {}), maxBytes: MAX_ANSWER_BYTES }) as typeof fetch,
      // Settings accept http only on loopback (a test's or a demo's GitHub fake).
      ...(base.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {}),
    };
  }

  private readonly now: () => number;

  /** Where the browser goes to authorise: GitHub's authorize URL with `state` and the S256 challenge of `verifier`. */
  async authorizationUrl(state: string, verifier: string): Promise<string> {
    const url = new URL(this.server.authorization_endpoint!);
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('redirect_uri', this.settings.callbackUrl);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return url.href;
  }

  /** The callback's code for tokens, after checking it answers this browser's `state`. */
  async exchange(callback: URL, expectedState: string, verifier: string): Promise<UserTokens> {
    let parameters: URLSearchParams;
    try {
      parameters = oauth.validateAuthResponse(this.server, this.client, callback, expectedState);
    } catch (err) {
      if (err instanceof oauth.AuthorizationResponseError) throw new AuthorizationDeclined(err.error);
      throw new CallbackMismatch('the callback does not answer this sign-in', { cause: err });
    }
    return this.tokens(() => oauth.authorizationCodeGrantRequest(this.server, this.client, this.auth, parameters, this.settings.callbackUrl, verifier, this.options), 'code');
  }

  /** A new user token (and refresh token) for a refresh token; the old pair stops working at GitHub. */
  refresh(refreshToken: string): Promise<UserTokens> {
    return this.tokens(() => oauth.refreshTokenGrantRequest(this.server, this.client, this.auth, refreshToken, this.options), 'refresh');
  }

  private async tokens(request: () => Promise<Response>, kind: 'code' | 'refresh'): Promise<UserTokens> {
    const asked = this.now();
    let response: Response;
    try {
      response = await request();
    } catch (err) {
      throw new OAuthUnavailable('GitHub could not be reached for a token', { cause: err });
    }
    const refused = await githubError(response);
    if (refused) throw new OAuthRefused(refused);
    let answer: oauth.TokenEndpointResponse;
    try {
      answer = kind === 'code' ? await oauth.processAuthorizationCodeResponse(this.server, this.client, response) : await oauth.processRefreshTokenResponse(this.server, this.client, response);
    } catch (err) {
      if (err instanceof oauth.ResponseBodyError) throw new OAuthRefused(err.error);
      throw new OAuthUnavailable('GitHub answered the token request with something other than a token', { cause: err });
    }
    const refreshExpiresIn = Number(answer.refresh_token_expires_in);
    return {
      accessToken: answer.access_token,
      accessTokenExpiresAt: answer.expires_in === undefined ? null : asked + answer.expires_in * 1000,
      refreshToken: answer.refresh_token ?? null,
      refreshTokenExpiresAt: answer.refresh_token !== undefined && Number.isFinite(refreshExpiresIn) ? asked + refreshExpiresIn * 1000 : null,
    };
  }
}

/** GitHub's refusal of a token request: a `200` whose body names an `error`. */
async function githubError(response: Response): Promise<string | undefined> {
  if (response.status !== 200) return undefined;
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return typeof body?.error === 'string' && body.error.length > 0 ? body.error : undefined;
  } catch {
    return undefined;
  }
}
