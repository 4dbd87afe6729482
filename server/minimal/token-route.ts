import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { BrokerSettings } from '../broker/settings.js';
import { TOKEN_BODY_LIMIT, trailOf as brokerTrailOf } from '../broker/token-route.js';
import { isJsonObject, parseJson, rawBody } from '../http/json-body.js';
import type { TokenTrail } from '../audit/trail.js';
import { Refusal, type Outcome } from './outcomes.js';
import { mintForCaller, parseRequest, type MinimalTokenDeps } from './token.js';

/** The class name of what failed verification (jose's when there is one) or broke: never a message. */
function exceptionClass(err: Refusal): string | undefined {
  if (err.outcome !== 'invalid_oidc' && err.outcome !== 'jwks_unavailable' && err.outcome !== 'internal_error') return undefined;
  const cause = err.cause instanceof Error && err.cause.cause instanceof Error ? err.cause.cause : err.cause;
  return cause instanceof Error ? cause.constructor.name : undefined;
}

/** Writes a `/token` request's one line: its outcome and the audit fields `trail` gathered. */
export type LogOutcome = (outcome: Outcome, trail: TokenTrail, exception?: string) => void;

/** The request's audit trail, made by whichever step asks first (the refusal of a body that cannot be read included). */
const trailOf = (res: Response): TokenTrail => brokerTrailOf(res, '/token', 'minimal');

/** The minimal `POST /token`: the body, the exchange, the answer and its one outcome line. */
export function tokenRoute(deps: MinimalTokenDeps, settings: () => BrokerSettings, logOutcome: LogOutcome): RequestHandler[] {
  const mint: RequestHandler = async (req, res) => {
    const trail = trailOf(res);
    const body = parseJson(req.rawBody);
    if (isJsonObject(body)) trail.askedFor(body.owner, body.repo);
    const request = parseRequest(body);
    trail.requestedPermissions(request.permissions);
    const answer = await mintForCaller(deps, settings(), request, trail);
    logOutcome('mint_ok', trail);
    res.json(answer);
  };
  return [...rawBody(TOKEN_BODY_LIMIT), mint];
}

/**
 * A refused `POST /token` in the closed vocabulary, with its one outcome line, then answered by
 * the shared error handler: a body that cannot be read or parsed (size, encoding, not JSON) is
 * "not a JSON object", anything unexpected an internal error.
 */
export function tokenRefusals(logOutcome: LogOutcome): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (req.method !== 'POST') return next(err);
    const status = (err as { status?: unknown }).status;
    const unreadable = typeof status === 'number' && status >= 400 && status < 500;
    const refusal = err instanceof Refusal ? err : new Refusal(unreadable ? 'invalid_json' : 'internal_error', { cause: err });
    logOutcome(refusal.outcome, trailOf(res), exceptionClass(refusal));
    next(refusal);
  };
}
