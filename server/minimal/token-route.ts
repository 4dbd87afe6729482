import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BrokerSettings } from '../broker/settings.js';
import { AppError } from '../http/errors.js';
import { parseJson } from '../http/json-body.js';
import { readBody, sendJson, TOKEN_BODY_LIMIT } from '../http/plain.js';
import { Refusal, type Outcome } from './outcomes.js';
import { mintForCaller, parseRequest, type MinimalTokenDeps } from './token.js';

/** The class name of what failed verification (jose's when there is one) or broke: never a message. */
function exceptionClass(err: Refusal): string | undefined {
  if (err.outcome !== 'invalid_oidc' && err.outcome !== 'jwks_unavailable' && err.outcome !== 'internal_error') return undefined;
  const cause = err.cause instanceof Error && err.cause.cause instanceof Error ? err.cause.cause : err.cause;
  return cause instanceof Error ? cause.constructor.name : undefined;
}

/** A refusal in the minimal broker's vocabulary: `{error: <code>}`, with `Retry-After` when it has one. */
export function answerRefusal(res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent) return void res.end();
  const headers: Record<string, string> = refusal.retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.ceil(refusal.retryAfterSeconds)) };
  sendJson(res, refusal.status, { error: refusal.outcome }, headers);
}

/**
 * The minimal `POST /token` as a plain node:http handler (see `http/plain.ts`): exactly one log
 * line per request, `{outcome}`, from the closed vocabulary.
 */
export function tokenHandler(
  deps: MinimalTokenDeps,
  settings: () => BrokerSettings,
  logOutcome: (outcome: Outcome, exception?: string) => void,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      const request = parseRequest(parseJson(await readBody(req, TOKEN_BODY_LIMIT)));
      const answer = await mintForCaller(deps, settings(), request);
      logOutcome('mint_ok');
      sendJson(res, 200, answer);
    } catch (err) {
      // A body that cannot be read or parsed (size, encoding, not JSON) is "not a JSON object".
      const unreadable = err instanceof AppError && err.status >= 400 && err.status < 500;
      const refusal = err instanceof Refusal ? err : new Refusal(unreadable ? 'invalid_json' : 'internal_error', { cause: err });
      logOutcome(refusal.outcome, exceptionClass(refusal));
      answerRefusal(res, refusal);
    }
  };
}
