import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { AppDeps } from '../app.js';
import { KeySetRegistry } from '../auth/key-sets.js';
import { OidcVerifier } from '../auth/verifier.js';
import { brokerSettings } from '../broker/settings.js';
import { systemClock } from '../clock.js';
import { apiHeaders } from '../http/api-headers.js';
import { backendBounds } from '../http/call-bounds.js';
import { errorHandler } from '../http/error-handler.js';
import { AppError } from '../http/errors.js';
import { ReadinessLog } from '../readiness-log.js';
import { AppClients } from '../platform/clients.js';
import { InstallationDirectory } from '../platform/installations.js';
import { Refusal, type Outcome } from './outcomes.js';
import { configurationProblems } from './token.js';
import { tokenRefusals, tokenRoute, type LogOutcome } from './token-route.js';
import { TokenTrail } from '../audit/trail.js';

/** The backend's dependencies but its store and metrics (this broker has neither). */
export type MinimalAppDeps = Omit<AppDeps, 'store' | 'metrics'>;

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
  const settings = () => brokerSettings(deps.env());
  // The one line of a `/token` request: its outcome and the token audit's fields (server/audit/record.ts).
  const logOutcome: LogOutcome = (outcome, trail, exception) =>
    deps.logger.info({ recorded_at: new Date(clock.now()).toISOString(), ...trail.fields(outcome), ...(exception ? { exception } : {}) });

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

  const readinessLog = new ReadinessLog(deps.logger);
  app.get('/readyz', (_req, res) => {
    const problems = configurationProblems(settings());
    if (problems.length > 0) {
      // The settings' names and problems, never their values.
      readinessLog.notReady('config_unavailable', problems);
      throw new Refusal('config_unavailable');
    }
    readinessLog.ready();
    res.json({ status: 'ready' });
  });
  app.all('/readyz', refuse('method_not_allowed'));

  app.post('/token', ...tokenRoute(tokenDeps, settings, logOutcome));
  // A refused `/token` request is a `/token` request too: it writes its one outcome line.
  app.all('/token', () => {
    logOutcome('method_not_allowed', new TokenTrail('minimal', '/token'));
    throw new Refusal('method_not_allowed');
  });
  app.use('/token', tokenRefusals(logOutcome));
  app.use(refuse('not_found'));

  // The shared handler leaves an unexpected failure to the request log, which this broker does
  // not write (its one line per /token is the outcome, which names the failure's class).
  const unexpected: ErrorRequestHandler = (err, _req, _res, next) => {
    if (!(err instanceof AppError)) deps.logger.error({ err }, 'unexpected failure');
    next(err);
  };
  app.use(unexpected, errorHandler);
  return app;
}
