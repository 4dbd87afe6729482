import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Clock } from '../clock.js';
import { AppError } from '../http/errors.js';
import { route } from '../http/routes.js';
import type { LedgerSettings } from '../ledger/settings.js';
import { PlatformError } from '../platform/errors.js';
import { StoreUnavailable, type ConsoleSession, type SessionRepository, type Store } from '../store/types.js';
import { auditCsv } from '../audit/csv.js';
import { listAuditRecords } from '../audit/list-records.js';
import type { AuditQuery } from '../audit/query.js';
import { validationFailed } from '../http/validation.js';
import { redirect, sendDownload, sendPage } from './answers.js';
import { administers, AUDIT_CSV_LIMIT, AUDIT_FILTERS, AUDIT_PAGE_SIZE, AUDIT_PARAMETERS, auditPageQuery, type AuditFilters } from './audit-view.js';
import { cookieHeader, readCookie } from './cookies.js';
import { overview, repositoryPage, SORTS, WINDOWS, type OverviewQuery, type SortKey, type WindowDays } from './figures-view.js';
import { UserTokenRejected } from './github-user.js';
import { consoleKeys, csrfTokenOf, csrfTokenValid, sealFor, unsealFor } from './keys.js';
import { AuthorizationDeclined, CallbackMismatch, newCodeVerifier, newState, OAuthRefused, OAuthUnavailable, type GitHubOAuth } from './oauth.js';
import { notFoundPage, problemPage, signedOutPage } from './pages/messages.js';
import { auditView } from './pages/audit.js';
import { overviewPage } from './pages/overview.js';
import { repositoryView } from './pages/repository.js';
import type { Viewer } from './pages/layout.js';
import { SessionEnded, type ConsoleSessions } from './sessions.js';
import type { ConsoleSettings, ConsoleState } from './settings.js';
import type { Logger } from '../logger.js';

/** The sign-in state lives this long: a person who takes longer on GitHub's page starts again. */
const LOGIN_STATE_SECONDS = 600;

export interface ConsoleRouteDeps {
  /** The console's settings, read per request (off: every `/console…` path falls through to the JSON 404). */
  readonly settings: () => ConsoleState;
  /** The ledger's settings: `LEDGER_ALLOWED_OWNERS` bounds what the console shows. */
  readonly ledgerSettings: () => LedgerSettings;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly sessions: ConsoleSessions;
  readonly oauth: (settings: ConsoleSettings) => GitHubOAuth;
}

interface Signed {
  readonly settings: ConsoleSettings;
  readonly session: ConsoleSession;
  readonly viewer: Viewer;
}

/** A page's query, strictly: unknown or wrong values are a 400 page naming the parameter. */
class BadQuery extends Error {
  override readonly name = 'BadQuery';
}

function single(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new BadQuery(`${name} may be given once`);
  return value;
}

function onlyParameters(req: Request, allowed: readonly string[]): void {
  const unknown = Object.keys(req.query).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) throw new BadQuery(`unknown parameter ${unknown[0]}: the page takes ${allowed.join(', ')}`);
}

function windowDays(req: Request): WindowDays {
  const raw = single(req, 'days');
  if (raw === undefined) return 30;
  const days = Number(raw);
  if (!(WINDOWS as readonly number[]).includes(days) || !/^[0-9]+$/.test(raw)) throw new BadQuery(`days must be ${WINDOWS.join(', ')}`);
  return days as WindowDays;
}

const ENVIRONMENT = /^[^\u0000-\u001f\u007f]{1,100}$/;

function environmentOf(req: Request): string | undefined {
  const raw = single(req, 'environment');
  if (raw !== undefined && !ENVIRONMENT.test(raw)) throw new BadQuery('environment must be an environment name (1 to 100 characters)');
  return raw;
}

/** A path of the console to return to after signing in; anything else is ignored (no open redirect). */
function returnPath(raw: unknown): string | undefined {
  return typeof raw === 'string' && /^\/console(?:[/?]|$)/.test(raw) && !raw.startsWith('//') && !/[\\\s]/.test(raw) && raw.length <= 2000 ? raw : undefined;
}

/** The console's pages: sign-in through the GitHub App, the overview and the repository pages. */
export function consoleRoutes(deps: ConsoleRouteDeps): Router {
  const router = Router();

  router.use('/console', (req, res, next) => {
    const state = deps.settings();
    if (!state.on) return next('router');
    res.locals.consoleSettings = state.settings;
    next();
  });

  const settingsOf = (res: Response): ConsoleSettings => res.locals.consoleSettings as ConsoleSettings;

  /** The signed-in person, or a 302 to sign-in (carrying where to come back to). */
  async function signedIn(req: Request, res: Response): Promise<Signed | undefined> {
    const settings = settingsOf(res);
    const session = await deps.sessions.resolve(settings, readCookie(req, settings, 'session'));
    if (!session) {
      const back = req.originalUrl === '/console' ? '' : `?return_to=${encodeURIComponent(req.originalUrl)}`;
      redirect(res, `/console/login${back}`);
      return undefined;
    }
    return { settings, session, viewer: { login: session.login, csrf: csrfTokenOf(consoleKeys(settings.sessionKey), session.id) } };
  }

  /** The repositories the person can see: GitHub's list for them, within LEDGER_ALLOWED_OWNERS. */
  async function visible(signed: Signed): Promise<{ repositories: SessionRepository[]; hidden: number; truncated: boolean }> {
    const cache = await deps.sessions.repositories(signed.settings, signed.session);
    const owners = deps.ledgerSettings().allowedOwners;
    const repositories = cache.repositories.filter((r) => owners.has(r.owner.toLowerCase()));
    return { repositories, hidden: cache.repositories.length - repositories.length, truncated: cache.truncated };
  }

  route(router, '/console', {
    get: [
      async (req, res) => {
        const signed = await signedIn(req, res);
        if (!signed) return;
        onlyParameters(req, ['days', 'owner', 'environment', 'sort', 'order']);
        const sort = single(req, 'sort') ?? 'repository';
        const order = single(req, 'order') ?? 'asc';
        if (!(SORTS as readonly string[]).includes(sort)) throw new BadQuery(`sort must be one of ${SORTS.join(', ')}`);
        if (order !== 'asc' && order !== 'desc') throw new BadQuery('order must be asc or desc');
        const owner = single(req, 'owner');
        const environment = environmentOf(req);
        const query: OverviewQuery = { days: windowDays(req), sort: sort as SortKey, order, ...(owner ? { owner } : {}), ...(environment ? { environment } : {}) };
        const seen = await visible(signed);
        const data = await overview(deps, seen.repositories, query);
        sendPage(res, 'page', overviewPage(signed.viewer, data, query, seen));
      },
    ],
  });

  /** The path's repository among those the person can see (by GitHub's names, without case), if it is one. */
  async function pathRepository(req: Request, signed: Signed): Promise<SessionRepository | undefined> {
    const { owner, repo } = req.params as { owner: string; repo: string };
    const seen = await visible(signed);
    return seen.repositories.find((r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === repo.toLowerCase());
  }

  /** The audit page's filters, each once, as given; then read as the route reads its query. */
  function auditFilters(req: Request): { filters: AuditFilters; cursor: string | undefined; query: AuditQuery } {
    onlyParameters(req, AUDIT_PARAMETERS);
    const filters: AuditFilters = {};
    for (const name of AUDIT_FILTERS) {
      const value = single(req, name);
      if (value !== undefined) filters[name] = value;
    }
    const cursor = single(req, 'cursor');
    const parsed = auditPageQuery({ ...filters, ...optional('cursor', cursor) });
    if (parsed.ok) return { filters, cursor, query: parsed.query };
    // A cursor not made here for these filters: the console's page for a link no longer valid.
    if (parsed.problem.parameter === 'cursor') throw validationFailed([{ path: 'cursor', message: parsed.problem.message }]);
    throw new BadQuery(`${parsed.problem.parameter} ${parsed.problem.message}`);
  }

  const auditDeps = { store: deps.store.tokenAudit, clock: deps.clock };

  /**
   * The path's repository's audit records, at most `limit`, when the person administers it;
   * otherwise sign-in or the not-found page is sent: a repository they see but do not administer
   * gets the same page as one that does not exist.
   */
  async function administeredAudit(req: Request, res: Response, limit: number) {
    const signed = await signedIn(req, res);
    if (!signed) return undefined;
    const repository = await pathRepository(req, signed);
    if (!repository || !administers(repository)) {
      sendPage(res, 'not_found', notFoundPage(signed.viewer));
      return undefined;
    }
    const { filters, cursor, query } = auditFilters(req);
    // Confined to the repository's numeric id, never its name.
    const data = await listAuditRecords(auditDeps, { ...query, limit }, consoleKeys(signed.settings.sessionKey).audit, { repositoryId: repository.id });
    return { viewer: signed.viewer, repository, filters, cursor, data };
  }

  route(router, '/console/repos/:owner/:repo', {
    get: [
      async (req, res) => {
        const signed = await signedIn(req, res);
        if (!signed) return;
        const repository = await pathRepository(req, signed);
        // Not listed for this person, or not of an allowed owner: the same page as a repository that does not exist.
        if (!repository) return sendPage(res, 'not_found', notFoundPage(signed.viewer));
        onlyParameters(req, ['days', 'environment', 'page']);
        const query = { days: windowDays(req), ...optional('environment', environmentOf(req)), ...optional('cursor', single(req, 'page')) };
        const data = await repositoryPage(deps, repository, query, consoleKeys(signed.settings.sessionKey).cursor);
        sendPage(res, 'page', repositoryView(signed.viewer, repository, data, query));
      },
    ],
  });

  // The token audit of a repository, for its admins only: records by the repository's id.
  route(router, '/console/repos/:owner/:repo/audit', {
    get: [
      async (req, res) => {
        const audit = await administeredAudit(req, res, AUDIT_PAGE_SIZE);
        if (audit) sendPage(res, 'page', auditView(audit.viewer, audit.repository, audit.data, audit.filters, audit.cursor));
      },
    ],
  });

  // The route's CSV of the same records, up to its largest page from the page's place on.
  route(router, '/console/repos/:owner/:repo/audit.csv', {
    get: [
      async (req, res) => {
        const audit = await administeredAudit(req, res, AUDIT_CSV_LIMIT);
        if (audit) sendDownload(res, 'text/csv; charset=utf-8; header=present', `${audit.repository.owner}-${audit.repository.name}-token-audit.csv`, auditCsv(audit.data.records));
      },
    ],
  });

  route(router, '/console/login', {
    get: [
      async (req, res) => {
        const settings = settingsOf(res);
        const state = newState();
        const verifier = newCodeVerifier();
        const back = returnPath(req.query.return_to);
        const sealed = await sealFor(consoleKeys(settings.sessionKey).login, { state, verifier, ...(back ? { back } : {}) }, LOGIN_STATE_SECONDS, deps.clock.now());
        redirect(res, await deps.oauth(settings).authorizationUrl(state, verifier), { 'set-cookie': cookieHeader(settings, 'login', sealed, LOGIN_STATE_SECONDS) });
      },
    ],
  });

  route(router, '/console/callback', {
    get: [
      async (req, res) => {
        const settings = settingsOf(res);
        const clearLogin = cookieHeader(settings, 'login', '', 0);
        const sealed = readCookie(req, settings, 'login');
        const login = sealed ? await unsealFor<{ state: string; verifier: string; back?: string }>(consoleKeys(settings.sessionKey).login, sealed, deps.clock.now()) : undefined;
        // No sign-in of this browser to answer (GitHub's "authorize during installation" lands here
        // without one, or the ten minutes passed): start a sign-in of our own, with state and PKCE.
        if (!login) return redirect(res, '/console/login', { 'set-cookie': clearLogin });
        let tokens;
        try {
          tokens = await deps.oauth(settings).exchange(new URL(req.originalUrl, settings.url), login.state, login.verifier);
        } catch (err) {
          if (err instanceof CallbackMismatch) return redirect(res, '/console/login', { 'set-cookie': clearLogin });
          if (err instanceof AuthorizationDeclined) {
            return sendPage(res, 'authorization_declined', problemPage('Not signed in', 'GitHub did not authorise Gatehouse for you, so the console cannot tell which repositories you can see.', undefined, { href: '/console/login', label: 'Sign in' }), { 'set-cookie': clearLogin });
          }
          if (err instanceof OAuthRefused) {
            req.log.warn({ oauth_error: err.code }, 'GitHub refused the sign-in code');
            const operator = err.code === 'incorrect_client_credentials' || err.code === 'redirect_uri_mismatch';
            const message = operator
              ? `GitHub refused the console's App credentials (${err.code}): FORGE_APP_CLIENT_ID, FORGE_APP_CLIENT_SECRET or the App's callback URL need fixing.`
              : `GitHub refused the sign-in (${err.code}). Sign in again.`;
            return sendPage(res, 'sign_in_refused', problemPage('Sign-in refused', message, undefined, { href: '/console/login', label: 'Sign in' }), { 'set-cookie': clearLogin });
          }
          throw err;
        }
        const { cookie, session } = await deps.sessions.start(settings, tokens);
        req.log.info({ user_id: session.userId, login: session.login }, 'console sign-in');
        redirect(res, returnPath(login.back) ?? '/console', {
          'set-cookie': [clearLogin, cookieHeader(settings, 'session', cookie, (session.expireAt.getTime() - deps.clock.now()) / 1000)],
        });
      },
    ],
  });

  route(router, '/console/logout', {
    post: [
      express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 }),
      async (req, res) => {
        const settings = settingsOf(res);
        const session = await deps.sessions.resolve(settings, readCookie(req, settings, 'session'));
        const clear = { 'set-cookie': cookieHeader(settings, 'session', '', 0) };
        if (!session) return sendPage(res, 'signed_out', signedOutPage(), clear);
        // The form's token, bound to this session; a cross-site form has neither it nor our Origin.
        const origin = req.headers.origin;
        const token = (req.body as Record<string, unknown> | undefined)?.csrf;
        if ((origin !== undefined && origin !== settings.url) || !csrfTokenValid(consoleKeys(settings.sessionKey), session.id, token)) {
          return sendPage(res, 'csrf_refused', problemPage('Not signed out', 'This sign-out did not come from a console page of this session. Use the Sign out button of a console page.', undefined, { href: '/console', label: 'Back to the console' }));
        }
        await deps.sessions.end(session);
        req.log.info({ user_id: session.userId, login: session.login }, 'console sign-out');
        sendPage(res, 'signed_out', signedOutPage(), clear);
      },
    ],
  });

  router.use('/console', (_req, res) => sendPage(res, 'not_found', notFoundPage()));

  router.use('/console', (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const settings = res.locals.consoleSettings as ConsoleSettings | undefined;
    if (!settings) return next(err);
    if (err instanceof SessionEnded || err instanceof UserTokenRejected) {
      return redirect(res, '/console/login', { 'set-cookie': cookieHeader(settings, 'session', '', 0) });
    }
    if (err instanceof BadQuery) return sendPage(res, 'bad_request', problemPage('Bad request', `This page cannot be shown: ${err.message}.`, undefined, { href: '/console', label: 'All repositories' }));
    if (err instanceof AppError && err.code === 'validation_failed') {
      return sendPage(res, 'invalid_page', problemPage('Page no longer valid', 'This page of records cannot be shown (its link was made under another key or for another repository). Start from the newest records.', undefined, { href: '/console', label: 'All repositories' }));
    }
    if (err instanceof AppError && err.code === 'method_not_allowed') return sendPage(res, 'method_not_allowed', problemPage('Not allowed', 'This address does not take that method.'), err.headers);
    if (err instanceof AppError && err.status < 500) return sendPage(res, 'bad_request', problemPage('Bad request', 'This request cannot be answered.'));
    if (err instanceof AppError && err.code === 'misconfigured') {
      res.err = err;
      return sendPage(res, 'misconfigured', problemPage('Console misconfigured', 'A setting of this Gatehouse is unusable; its log names it.'));
    }
    if (err instanceof StoreUnavailable) {
      res.err = err;
      return sendPage(res, 'store_unavailable', problemPage('Try again shortly', 'The console cannot reach its store right now. Nothing was lost.'), { 'retry-after': '2' });
    }
    if (err instanceof PlatformError || err instanceof OAuthUnavailable) {
      req.log.warn({ cause: `${err.name}: ${err.message}` }, 'GitHub did not answer the console');
      return sendPage(res, 'github_unavailable', problemPage('GitHub did not answer', 'The console could not ask GitHub which repositories you can see. Try again shortly.', undefined, { href: req.originalUrl.startsWith('/console/callback') ? '/console/login' : (returnPath(req.originalUrl) ?? '/console'), label: 'Try again' }));
    }
    next(err);
  });

  return router;
}

const optional = <K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> => (value === undefined ? {} : ({ [key]: value } as Record<K, string>));
