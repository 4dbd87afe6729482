import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { ConsoleSession, RepositoryCache, SessionStore } from '../store/types.js';
import { UserTokenRejected, type UserGitHub } from './github-user.js';
import { consoleKeys, newSessionCookie, seal, sessionIdFromCookie, unseal } from './keys.js';
import { OAuthRefused, type GitHubOAuth, type UserTokens } from './oauth.js';
import type { ConsoleSettings } from './settings.js';

/** A session lasts at most this long, and never beyond its refresh token. */
export const SESSION_MAX_MS = 8 * 3_600_000;
/** GitHub is asked for a session's repositories at most once in this period. */
export const REPOSITORY_CACHE_MS = 5 * 60_000;
/** A user token this close to its end is refreshed before use. */
const REFRESH_EARLY_MS = 60_000;

/** The session cannot go on (revoked, refresh refused, token rejected): the person signs in again. */
export class SessionEnded extends Error {
  override readonly name = 'SessionEnded';
}

export interface ConsoleSessionDeps {
  readonly store: SessionStore;
  readonly clock: Clock;
  readonly oauth: (settings: ConsoleSettings) => GitHubOAuth;
  readonly github: (settings: ConsoleSettings, token: string) => UserGitHub;
  readonly logger: Logger;
}

/**
 * Console sessions: kept in the backend's store (so any replica serves them and a revocation
 * ends them everywhere), named by a signed cookie, each with the person's sealed GitHub tokens
 * and a short-lived copy of the repositories GitHub lists for them.
 */
export class ConsoleSessions {
  /** Per session, the one refresh or listing under way in this process: concurrent pages share it. */
  private readonly inFlight = new Map<string, Promise<RepositoryCache>>();

  constructor(private readonly deps: ConsoleSessionDeps) {}

  /** A new session for the person whose tokens these are; the cookie value names it. */
  async start(settings: ConsoleSettings, tokens: UserTokens): Promise<{ cookie: string; session: ConsoleSession }> {
    const user = await this.deps.github(settings, tokens.accessToken).user();
    const now = this.deps.clock.now();
    // Never beyond what GitHub still honours: the refresh token, or a token that cannot be refreshed.
    const ends = [now + SESSION_MAX_MS, tokens.refreshToken ? tokens.refreshTokenExpiresAt : tokens.accessTokenExpiresAt].filter((t): t is number => t !== null);
    const keys = consoleKeys(settings.sessionKey);
    const cookie = newSessionCookie(keys);
    const session: ConsoleSession = {
      id: cookie.id,
      userId: user.id,
      login: user.login,
      createdAt: new Date(now),
      expireAt: new Date(Math.min(...ends)),
      credentials: await seal(keys.credentials, tokens),
      repositories: null,
    };
    await this.deps.store.create(session);
    return { cookie: cookie.value, session };
  }

  /** The live session a cookie names, or undefined (no cookie, forged, another key's, ended, expired). */
  async resolve(settings: ConsoleSettings, cookie: string | undefined): Promise<ConsoleSession | undefined> {
    const id = sessionIdFromCookie(consoleKeys(settings.sessionKey), cookie);
    return id === undefined ? undefined : this.deps.store.get(id, new Date(this.deps.clock.now()));
  }

  end(session: ConsoleSession): Promise<void> {
    return this.deps.store.end(session.id);
  }

  /** Every session of one person (GitHub's `github_app_authorization` event: the App was revoked). */
  endForUser(userId: string): Promise<number> {
    return this.deps.store.endForUser(userId);
  }

  /**
   * The repositories GitHub lists for the person: the session's copy while younger than
   * `REPOSITORY_CACHE_MS`, else asked again (once, however many pages wait for it).
   */
  async repositories(settings: ConsoleSettings, session: ConsoleSession): Promise<RepositoryCache> {
    const cached = session.repositories;
    if (cached && this.deps.clock.now() - cached.fetchedAt.getTime() < REPOSITORY_CACHE_MS) return cached;
    let pending = this.inFlight.get(session.id);
    if (!pending) {
      pending = this.listRepositories(settings, session).finally(() => this.inFlight.delete(session.id));
      this.inFlight.set(session.id, pending);
    }
    return pending;
  }

  private async listRepositories(settings: ConsoleSettings, session: ConsoleSession): Promise<RepositoryCache> {
    const token = await this.accessToken(settings, session);
    let listed;
    try {
      listed = await this.deps.github(settings, token).repositories();
    } catch (err) {
      // A token GitHub no longer honours (revoked, or one without expiry that ended): the session ends.
      if (err instanceof UserTokenRejected) await this.endBecause(session, 'GitHub refused the user token');
      throw err;
    }
    const cache: RepositoryCache = { fetchedAt: new Date(this.deps.clock.now()), ...listed };
    await this.deps.store.cacheRepositories(session.id, cache);
    return cache;
  }

  /** The session's user token, refreshed first when it is about to end. */
  private async accessToken(settings: ConsoleSettings, session: ConsoleSession): Promise<string> {
    const keys = consoleKeys(settings.sessionKey);
    const tokens = await unseal<UserTokens>(keys.credentials, session.credentials);
    if (!tokens) return this.endBecause(session, 'its tokens were sealed under another CONSOLE_SESSION_KEY');
    const now = this.deps.clock.now();
    if (tokens.accessTokenExpiresAt === null || now < tokens.accessTokenExpiresAt - REFRESH_EARLY_MS) return tokens.accessToken;
    if (!tokens.refreshToken || (tokens.refreshTokenExpiresAt !== null && now >= tokens.refreshTokenExpiresAt)) return this.endBecause(session, 'its user token ended and cannot be refreshed');
    let fresh: UserTokens;
    try {
      fresh = await this.deps.oauth(settings).refresh(tokens.refreshToken);
    } catch (err) {
      if (!(err instanceof OAuthRefused)) throw err;
      // Another replica may have used the refresh token first (GitHub honours a refresh token once).
      const theirs = await this.refreshedElsewhere(settings, session);
      if (theirs) return theirs;
      return this.endBecause(session, `GitHub refused the refresh token (${err.code})`);
    }
    if (await this.deps.store.replaceCredentials(session.id, session.credentials, await seal(keys.credentials, fresh))) return fresh.accessToken;
    const theirs = await this.refreshedElsewhere(settings, session);
    if (theirs) return theirs;
    throw new SessionEnded('the session ended while its token was refreshed');
  }

  /** The token another replica stored for this session since `session` was read, if any. */
  private async refreshedElsewhere(settings: ConsoleSettings, session: ConsoleSession): Promise<string | undefined> {
    const again = await this.deps.store.get(session.id, new Date(this.deps.clock.now()));
    if (!again || again.credentials === session.credentials) return undefined;
    return (await unseal<UserTokens>(consoleKeys(settings.sessionKey).credentials, again.credentials))?.accessToken;
  }

  private async endBecause(session: ConsoleSession, why: string): Promise<never> {
    await this.deps.store.end(session.id);
    this.deps.logger.info({ user_id: session.userId, login: session.login }, `console session ended: ${why}`);
    throw new SessionEnded(why);
  }
}
