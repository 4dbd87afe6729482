import type { ErrorRequestHandler, RequestHandler } from 'express';
import { answeredCode } from '../http/error-handler.js';
import { jsonBody } from '../http/json-body.js';
import { noteLogLine } from '../http/request-logging.js';
import { issueToken, parseTokenRequest, type IssueTokenDeps } from './issue-token.js';
import type { BrokerSettings } from './settings.js';

/** A token request is a few KB; anything near this is not one. */
export const TOKEN_BODY_LIMIT = '64kb';

export interface TokenRouteDeps extends IssueTokenDeps {
  readonly settings: () => BrokerSettings;
  /** Counts each answer by outcome (the backend's metrics). */
  readonly tokenAnswered?: (outcome: string) => void;
}

/** `POST /token`: the body, the exchange, the answer, and the audit fields on the request's one log line. */
export function tokenRoute(deps: TokenRouteDeps): RequestHandler[] {
  const issue: RequestHandler = async (req, res) => {
    const request = parseTokenRequest(req.body);
    const { answer, audit } = await issueToken(deps, deps.settings(), request, req.log);
    noteLogLine(res, 'token minted', audit);
    res.json(answer);
    deps.tokenAnswered?.('minted');
  };
  return [...jsonBody(TOKEN_BODY_LIMIT), issue];
}

/** Counts a refused `POST /token` by its error code; the app's error handler answers it. */
export function tokenRefusals(deps: TokenRouteDeps): ErrorRequestHandler {
  return (err, req, _res, next) => {
    if (req.method === 'POST') deps.tokenAnswered?.(answeredCode(err));
    next(err);
  };
}
