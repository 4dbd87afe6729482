import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { TokenAudit } from '../audit/token-audit.js';
import { TokenTrail } from '../audit/trail.js';
import { refuse } from '../errors.js';
import { answeredCode } from '../http/error-handler.js';
import { AppError } from '../http/errors.js';
import { isJsonObject, jsonBody } from '../http/json-body.js';
import { noteLogLine } from '../http/request-logging.js';
import { issueToken, parseTokenRequest, type IssueTokenDeps } from './issue-token.js';
import type { BrokerSettings } from './settings.js';

/** A token request is a few KB; anything near this is not one. */
export const TOKEN_BODY_LIMIT = '64kb';

export interface TokenRouteDeps extends IssueTokenDeps {
  readonly settings: () => BrokerSettings;
  /** Writes each answer's audit record (the main broker's token audit). */
  readonly audit: TokenAudit;
  /** Counts each answer by outcome (the backend's metrics). */
  readonly tokenAnswered?: (outcome: string) => void;
}

/** The request's audit trail, made by whichever step asks first (the refusal of a body that cannot be read included). */
export function trailOf(res: Response, route: '/token' | '/sign', broker: TokenTrail['broker'] = 'main'): TokenTrail {
  let trail = res.locals.tokenTrail as TokenTrail | undefined;
  if (!trail) {
    trail = new TokenTrail(broker, route);
    res.locals.tokenTrail = trail;
  }
  return trail;
}

/** The `reason` a refusal answers with, for its record. */
export function answeredReason(err: unknown): string | null {
  const reason = err instanceof AppError ? err.extra.reason : undefined;
  return typeof reason === 'string' ? reason : null;
}

/**
 * `POST /token`: the body, the exchange, the audit record, the answer, and the audit fields on
 * the request's one log line. The record is written before the token is handed out; under
 * `AUDIT_WRITE=required` a token whose record could not be written is revoked and the answer is
 * `503 audit_unavailable`.
 */
export function tokenRoute(deps: TokenRouteDeps): RequestHandler[] {
  const issue: RequestHandler = async (req, res) => {
    const trail = trailOf(res, '/token');
    if (isJsonObject(req.body)) trail.askedFor(req.body.owner, req.body.repo);
    const request = parseTokenRequest(req.body);
    trail.requestedPermissions(request.permissions);
    // Read before anything is minted: an unusable audit setting refuses the request (500 misconfigured) with no token made.
    const required = deps.audit.required;
    const issued = await issueToken(deps, deps.settings(), request, req.log, trail);
    const written = await deps.audit.record(trail.fields('minted'), req.log);
    if (!written && required) {
      const revoked = await issued.revoke();
      // The error line of the record already names the token by its hash; this says it was not handed out.
      req.log.error({ hashed_token: issued.audit.hashed_token, revoked }, revoked ? 'token revoked: its audit record could not be written' : 'token not handed out and not confirmed revoked: its audit record could not be written');
      throw refuse('audit_unavailable', {}, { headers: { 'Retry-After': '2' } });
    }
    noteLogLine(res, 'token minted', issued.audit);
    res.json(issued.answer);
    deps.tokenAnswered?.('minted');
  };
  return [...jsonBody(TOKEN_BODY_LIMIT), issue];
}

/**
 * A refused `POST /token`: counted by its error code and recorded in the audit (with what the
 * request had shown), then answered by the app's error handler. `audit_unavailable` is the one
 * refusal without a record: its record is what could not be written.
 */
export function tokenRefusals(deps: TokenRouteDeps): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (req.method !== 'POST') return next(err);
    const code = answeredCode(err);
    deps.tokenAnswered?.(code);
    if (code === 'audit_unavailable') return next(err);
    void deps.audit.record(trailOf(res, '/token').fields(code, answeredReason(err)), req.log).then(() => next(err));
  };
}
