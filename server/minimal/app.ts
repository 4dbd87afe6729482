import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { KeySetRegistry } from '../auth/key-sets.js';
import { OidcVerifier } from '../auth/verifier.js';
import { brokerSettingsSource } from '../broker/settings.js';
import { systemClock, type Clock } from '../clock.js';
import type { Env } from '../config-error.js';
import { apiHeaders } from '../http/api-headers.js';
import { backendBounds, type BackendBounds } from '../http/call-bounds.js';
import { parseJson, rawBody } from '../http/json-body.js';
import type { Fetch } from '../http/outbound.js';
import type { Logger } from '../logger.js';
import { AppClients } from '../platform/clients.js';
import { InstallationDirectory } from '../platform/installations.js';
import { Refusal, type Outcome } from './outcomes.js';
import { configurationUsable, mintForCaller, parseRequest } from './token.js';

export interface MinimalAppDeps {
  readonly env: () => Env;
  readonly logger: Logger;
  readonly version: string;
  readonly clock?: Clock;
  /** What carries outbound calls (key sets, platform API); default: the network. */
  readonly transport?: Fetch;
  /** Bounds of outbound calls; defaults in `http/call-bounds.ts`. */
  readonly bounds?: Partial<BackendBounds>;
  readonly keySets?: KeySetRegistry;
  readonly installations?: InstallationDirectory;
}

const TOKEN_BODY_LIMIT = '64kb';

/** The class name of what failed verification (jose's when there is one) or broke: never a message. */
function exceptionClass(err: Refusal): string | undefined {
  if (err.outcome !== 'invalid_oidc' && err.outcome !== 'jwks_unavailable' && err.outcome !== 'internal_error') return undefined;
  const cause = err.cause instanceof Error && err.cause.cause instanceof Error ? err.cause.cause : err.cause;
  return cause instanceof Error ? cause.constructor.name : undefined;
}

/**
 * The minimal broker: `GET /healthz`, `GET /readyz`, `POST /token`. Every `/token` request
 * writes exactly one log line, `{"outcome": <code>}`, from a closed vocabulary.
 */
export function createMinimalApp(deps: MinimalAppDeps): Express {
  const clock = deps.clock ?? systemClock;
  const transport = deps.transport ? { transport: deps.transport } : {};
  const bounds = backendBounds(deps.bounds);
  const keySets = deps.keySets ?? new KeySetRegistry({ ...transport, clock });
  const tokenDeps = {
    verifier: new OidcVerifier(keySets, clock),
    clients: new AppClients({ ...transport, bounds: bounds.platform, commitBounds: bounds.commit, userAgent: `gatehouse-minimal/${deps.version}` }),
    installations: deps.installations ?? new InstallationDirectory(),
    clock,
  };
  const settings = brokerSettingsSource(deps.env);
  const logOutcome = (outcome: Outcome, exception?: string) => deps.logger.info({ outcome, ...(exception ? { exception } : {}) });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(apiHeaders);

  const refuse = (outcome: Exclude<Outcome, 'mint_ok'>): RequestHandler => () => {
    throw new Refusal(outcome);
  };

  // Answers before any configuration is read: it proves the process runs, nothing more.
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.all('/healthz', refuse('method_not_allowed'));

  app.get('/readyz', (_req, res) => {
    if (!configurationUsable(settings())) throw new Refusal('config_unavailable');
    res.json({ status: 'ready' });
  });
  app.all('/readyz', refuse('method_not_allowed'));

  app.post('/token', ...rawBody(TOKEN_BODY_LIMIT), async (req, res) => {
    const request = parseRequest(parseJson(req.rawBody));
    const answer = await mintForCaller(tokenDeps, settings(), request);
    logOutcome('mint_ok');
    res.json(answer);
  });
  app.all('/token', refuse('method_not_allowed'));
  app.use(refuse('not_found'));

  const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
    // Body-parser failures (size, encoding) and unparseable JSON are all "not a JSON object".
    const parseFailure = (err as { code?: unknown }).code === 'invalid_json' || typeof (err as { type?: unknown }).type === 'string';
    const refusal = err instanceof Refusal ? err : new Refusal(parseFailure ? 'invalid_json' : 'internal_error', { cause: err });
    if (req.path === '/token') logOutcome(refusal.outcome, exceptionClass(refusal));
    else if (refusal.outcome === 'internal_error') deps.logger.error({ err }, 'unexpected failure');
    if (res.headersSent) return void res.end();
    if (refusal.retryAfterSeconds !== undefined) res.set('Retry-After', String(Math.ceil(refusal.retryAfterSeconds)));
    res.status(refusal.status).json({ error: refusal.outcome });
  };
  app.use(errorHandler);
  return app;
}
