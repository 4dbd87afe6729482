import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { repository, simpleUser } from './github-objects.js';
import { listen, readBody, type Listening } from './servers.js';

/*
 * GitHub as a person signing in to the console meets it, on loopback: the web flow of a GitHub
 * App's user authorization (`/login/oauth/authorize`, `/login/oauth/access_token` with PKCE and
 * refresh tokens, answering refusals with 200 and an `error` as GitHub documents), and the REST
 * calls made with the user token (`GET /user`, `GET /user/installations`,
 * `GET /user/installations/{id}/repositories`, paged with `Link`). One origin serves both, so it is
 * `FORGE_WEB_BASE` and `FORGE_API_BASE` at once. Its REST answers are checked against GitHub's
 * published description in test/console/github-user-fake.test.ts.
 */

export interface FakePerson {
  readonly id: number;
  readonly login: string;
  /** Installation id → the ids of the repositories this person can reach through it. */
  readonly access: ReadonlyMap<number, readonly number[]>;
  /** Repository id → admin on it. */
  readonly admin?: ReadonlySet<number>;
}

export interface FakeRepository {
  readonly id: number;
  readonly owner: string;
  readonly name: string;
}

interface Grant {
  readonly personId: number;
  expiresAt: number | null;
  revoked: boolean;
}

const ACCESS_LIFETIME_S = 28_800;
const REFRESH_LIFETIME_S = 15_897_600;
const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' };
const BAD_CREDENTIALS = { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' };

export class FakeGitHubUser {
  /** Who GitHub believes is at the browser (set by the test before it signs in). */
  signedIn: FakePerson | undefined;
  /** The person declines the authorization (GitHub redirects back with `error=access_denied`). */
  decline = false;
  /** Tokens expire (the App's "Expire user authorization tokens" on); off: no expiry, no refresh token. */
  expiring = true;
  /** Seconds a new user token lives (GitHub: 8 hours). */
  accessLifetimeSeconds = ACCESS_LIFETIME_S;
  /** Every call, by route, for the tests' counts. */
  readonly calls: { route: string; method: string }[] = [];
  /** What the token endpoint was sent, without secrets (which parameters, for PKCE checks). */
  readonly tokenRequests: { grantType: string; hadVerifier: boolean }[] = [];

  private readonly codes = new Map<string, { personId: number; challenge: string | undefined; redirectUri: string; used: boolean }>();
  private readonly tokens = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, { personId: number; used: boolean }>();
  private readonly people = new Map<number, FakePerson>();

  private constructor(
    private readonly listening: Listening,
    readonly clientId: string,
    readonly clientSecret: string,
    readonly callbackUrl: () => string,
    readonly repositories: readonly FakeRepository[],
    private readonly appId: number,
  ) {}

  static async start(options: { clientId: string; clientSecret: string; callbackUrl: () => string; repositories: readonly FakeRepository[]; appId?: number }): Promise<FakeGitHubUser> {
    let fake: FakeGitHubUser | undefined;
    const listening = await listen((req, res) => fake!.serve(req, res));
    fake = new FakeGitHubUser(listening, options.clientId, options.clientSecret, options.callbackUrl, options.repositories, options.appId ?? 90210);
    return fake;
  }

  get url(): string {
    return this.listening.url;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  /** Known to GitHub (the installations answer them as accounts, sign-in needs them). */
  addPerson(person: FakePerson): void {
    this.people.set(person.id, person);
  }

  /** The person revokes the App: every token of theirs stops working (GitHub then sends `github_app_authorization`). */
  revoke(personId: number): void {
    for (const grant of this.tokens.values()) if (grant.personId === personId) grant.revoked = true;
    for (const refresh of this.refreshTokens.values()) if (refresh.personId === personId) refresh.used = true;
  }

  /** Ends every user token's life now (as if 8 hours passed), leaving refresh tokens usable. */
  expireAccessTokens(): void {
    for (const grant of this.tokens.values()) grant.expiresAt = Date.now() - 1;
  }

  /** The `github_app_authorization` delivery GitHub sends when `person` revokes, signed with `secret`. */
  revocationDelivery(person: FakePerson, secret: string): { body: string; headers: Record<string, string> } {
    const body = JSON.stringify({ action: 'revoked', sender: simpleUser(this.url, person.login, person.id, 'User') });
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    return { body, headers: { 'x-github-event': 'github_app_authorization', 'x-github-delivery': randomBytes(16).toString('hex'), 'x-hub-signature-256': signature, 'content-type': 'application/json' } };
  }

  /** Answers one request (its own listener's, or another loopback server's that hands these paths on). */
  serve(req: IncomingMessage, res: ServerResponse): void {
    this.handle(req, res).catch((err: unknown) => send(res, 500, { message: String(err) }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const route = `${req.method} ${url.pathname.replace(/\/\d+\//, '/{id}/')}`;
    this.calls.push({ route, method: req.method ?? 'GET' });
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') return this.authorize(url, res);
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') return this.token(req, res, await readBody(req));
    const grant = this.grantOf(req.headers.authorization);
    if (!grant) return send(res, 401, BAD_CREDENTIALS);
    const person = this.people.get(grant.personId)!;
    if (req.method === 'GET' && url.pathname === '/user') return send(res, 200, this.publicUser(person));
    if (req.method === 'GET' && url.pathname === '/user/installations') {
      const all = [...person.access.keys()].map((id) => this.installation(id));
      return this.paged(url, res, all, (items) => ({ total_count: all.length, installations: items }));
    }
    const listing = /^\/user\/installations\/(\d+)\/repositories$/.exec(url.pathname);
    if (req.method === 'GET' && listing) {
      const ids = person.access.get(Number(listing[1]));
      if (!ids) return send(res, 404, NOT_FOUND);
      const all = ids.map((id) => this.repositoryAnswer(person, id));
      return this.paged(url, res, all, (items) => ({ total_count: all.length, repository_selection: 'selected', repositories: items }));
    }
    send(res, 404, NOT_FOUND);
  }

  /** GitHub skips its page for a person who already authorised the App: straight back with a code. */
  private authorize(url: URL, res: ServerResponse): void {
    const redirectUri = url.searchParams.get('redirect_uri') ?? this.callbackUrl();
    if (url.searchParams.get('client_id') !== this.clientId || redirectUri !== this.callbackUrl()) return send(res, 404, NOT_FOUND);
    const back = new URL(redirectUri);
    const state = url.searchParams.get('state');
    if (this.decline || !this.signedIn) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user has denied your application access.');
      back.searchParams.set('error_uri', 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#access-denied');
    } else {
      const method = url.searchParams.get('code_challenge_method');
      const challenge = url.searchParams.get('code_challenge') ?? undefined;
      if (challenge !== undefined && method !== 'S256') return send(res, 400, { message: 'code_challenge_method must be S256' });
      const code = randomBytes(10).toString('hex');
      this.codes.set(code, { personId: this.signedIn.id, challenge, redirectUri, used: false });
      back.searchParams.set('code', code);
    }
    if (state !== null) back.searchParams.set('state', state);
    res.writeHead(302, { location: back.href }).end();
  }

  private token(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const form = new URLSearchParams(raw);
    const grantType = form.get('grant_type') ?? 'authorization_code';
    this.tokenRequests.push({ grantType, hadVerifier: form.has('code_verifier') });
    const answer = (body: Record<string, unknown>) => {
      // GitHub answers JSON only when asked to; otherwise form-encoded.
      if ((req.headers.accept ?? '').includes('application/json')) return send(res, 200, body);
      res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }).end(new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString());
    };
    const refused = (error: string, description: string) => answer({ error, error_description: description, error_uri: `https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#${error.replace(/_/g, '-')}` });
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) return refused('incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.');
    if (grantType === 'refresh_token') {
      const refresh = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (!refresh || refresh.used) return refused('bad_refresh_token', 'The refresh token passed is incorrect or expired.');
      refresh.used = true;
      // The old user token stops working with its refresh token.
      for (const grant of this.tokens.values()) if (grant.personId === refresh.personId) grant.revoked = true;
      return answer(this.issue(refresh.personId));
    }
    const code = this.codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier');
    const challengeOk = code?.challenge === undefined || (verifier !== null && createHash('sha256').update(verifier).digest('base64url') === code.challenge);
    if (!code || code.used || !challengeOk) return refused('bad_verification_code', 'The code passed is incorrect or expired.');
    if (form.has('redirect_uri') && form.get('redirect_uri') !== code.redirectUri) return refused('redirect_uri_mismatch', 'The redirect_uri MUST match the registered callback URL for this application.');
    code.used = true;
    answer(this.issue(code.personId));
  }

  private issue(personId: number): Record<string, unknown> {
    const access = `ghu_${randomBytes(18).toString('base64url')}`;
    this.tokens.set(access, { personId, expiresAt: this.expiring ? Date.now() + this.accessLifetimeSeconds * 1000 : null, revoked: false });
    if (!this.expiring) return { access_token: access, scope: '', token_type: 'bearer' };
    const refresh = `ghr_${randomBytes(36).toString('base64url')}`;
    this.refreshTokens.set(refresh, { personId, used: false });
    return { access_token: access, expires_in: this.accessLifetimeSeconds, refresh_token: refresh, refresh_token_expires_in: REFRESH_LIFETIME_S, scope: '', token_type: 'bearer' };
  }

  private grantOf(authorization: string | undefined): Grant | undefined {
    const token = /^(?:bearer|token) (\S+)$/i.exec(authorization ?? '')?.[1];
    const grant = token ? this.tokens.get(token) : undefined;
    if (!grant || grant.revoked || (grant.expiresAt !== null && grant.expiresAt <= Date.now())) return undefined;
    return grant;
  }

  private paged(url: URL, res: ServerResponse, all: unknown[], wrap: (items: unknown[]) => unknown): void {
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30) || 30);
    const pageNumber = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const headers: Record<string, string> = {};
    if (pageNumber < last) {
      const next = new URL(url.href);
      next.searchParams.set('page', String(pageNumber + 1));
      const lastUrl = new URL(url.href);
      lastUrl.searchParams.set('page', String(last));
      headers.link = `<${next.href}>; rel="next", <${lastUrl.href}>; rel="last"`;
    }
    send(res, 200, wrap(all.slice((pageNumber - 1) * perPage, pageNumber * perPage)), headers);
  }

  private publicUser(person: FakePerson): Record<string, unknown> {
    return {
      ...simpleUser(this.url, person.login, person.id, 'User'),
      user_view_type: 'public',
      name: null,
      company: null,
      blog: '',
      location: null,
      email: null,
      hireable: null,
      bio: null,
      public_repos: 0,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
    };
  }

  private installation(id: number): Record<string, unknown> {
    const owner = this.repositories.find((r) => this.installationOf(r.id) === id)?.owner ?? 'octo-org';
    return {
      id,
      account: simpleUser(this.url, owner, 1000 + id, 'Organization'),
      repository_selection: 'selected',
      access_tokens_url: `${this.url}/app/installations/${id}/access_tokens`,
      repositories_url: `${this.url}/installation/repositories`,
      html_url: `${this.url}/organizations/${owner}/settings/installations/${id}`,
      app_id: this.appId,
      client_id: this.clientId,
      app_slug: 'gatehouse',
      target_id: 1000 + id,
      target_type: 'Organization',
      permissions: { metadata: 'read', contents: 'read' },
      events: ['push'],
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
      single_file_name: null,
      has_multiple_single_files: false,
      single_file_paths: [],
      suspended_by: null,
      suspended_at: null,
    };
  }

  private installationOf(repositoryId: number): number | undefined {
    for (const person of this.people.values()) for (const [installation, ids] of person.access) if (ids.includes(repositoryId)) return installation;
    return undefined;
  }

  private repositoryAnswer(person: FakePerson, id: number): Record<string, unknown> {
    const r = this.repositories.find((x) => x.id === id)!;
    const admin = person.admin?.has(id) ?? false;
    return { ...repository(this.url, simpleUser(this.url, r.owner, 5000 + id, 'Organization'), r.name, r.id), permissions: { admin, maintain: admin, push: true, triage: true, pull: true } };
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
}
