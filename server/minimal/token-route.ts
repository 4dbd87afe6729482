import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { BrokerSettings } from '../broker/settings.js';
import { TOKEN_BODY_LIMIT } from '../broker/token-route.js';
import { API_HEADERS } from '../http/api-headers.js';
import { parseJson, rawBody } from '../http/json-body.js';
import { Refusal, type Outcome } from './outcomes.js';
import { mintForCaller, parseRequest, type MinimalTokenDeps } from './token.js';

/** The class name of what failed verification (jose's when there is one) or broke: never a message. */
function exceptionClass(err: Refusal): string | undefined {
  if (err.outcome !== 'invalid_oidc' && err.outcome !== 'jwks_unavailable' && err.outcome !== 'internal_error') return undefined;
  const cause = err.cause instanceof Error && err.cause.cause instanceof Error ? err.cause.cause : err.cause;
  return cause instanceof Error ? cause.constructor.name : undefined;
}

/** A refusal in the minimal broker's vocabulary: `{error: <code>}`, with `Retry-After` when it has one. */
export function answerRefusal(res: Response, refusal: Refusal): void {
  if (res.headersSent) return void res.end();
  res.status(refusal.status).set(API_HEADERS);
  if (refusal.retryAfterSeconds !== undefined) res.set('Retry-After', String(Math.ceil(refusal.retryAfterSeconds)));
  res.json({ error: refusal.outcome });
}

export type LogOutcome = (outcome: Outcome, exception?: string) => void;

/** The minimal `POST /token`: the body, the exchange, the answer and its one outcome line. */
export function tokenRoute(deps: MinimalTokenDeps, settings: () => BrokerSettings, logOutcome: LogOutcome): RequestHandler[] {
  const mint: RequestHandler = async (req, res) => {
    const answer = await mintForCaller(deps, settings(), parseRequest(parseJson(req.rawBody)));
    logOutcome('mint_ok');
    res.json(answer);
  };
  return [...rawBody(TOKEN_BODY_LIMIT), mint];
}

/**
 * A refused `POST /token` in the closed vocabulary, with its one outcome line: a body that cannot
 * be read or parsed (size, encoding, not JSON) is "not a JSON object", anything unexpected an
 * internal error.
 */
export function tokenRefusals(logOutcome: LogOutcome): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (req.method !== 'POST') return next(err);
    const status = (err as { status?: unknown }).status;
    const unreadable = typeof status === 'number' && status >= 400 && status < 500;
    const refusal = err instanceof Refusal ? err : new Refusal(unreadable ? 'invalid_json' : 'internal_error', { cause: err });
    logOutcome(refusal.outcome, exceptionClass(refusal));
    answerRefusal(res, refusal);
  };
}
