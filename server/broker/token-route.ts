import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerError, answeredCode } from '../http/error-handler.js';
import { parseJson } from '../http/json-body.js';
import { readBody, sendJson, TOKEN_BODY_LIMIT } from '../http/plain.js';
import { noteLogLine } from '../http/request-logging.js';
import { issueToken, parseTokenRequest, type IssueTokenDeps } from './issue-token.js';
import type { BrokerSettings } from './settings.js';

/**
 * `POST /token` as a plain node:http handler (see `http/plain.ts` for why it bypasses Express):
 * the body, the exchange, the answer, and the audit fields on the request's one log line.
 */
export function tokenHandler(
  deps: IssueTokenDeps & { readonly settings: () => BrokerSettings; readonly tokenAnswered?: (outcome: string) => void },
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      const request = parseTokenRequest(parseJson(await readBody(req, TOKEN_BODY_LIMIT)));
      const { answer, audit } = await issueToken(deps, deps.settings(), request, req.log);
      noteLogLine(res, 'token minted', audit);
      sendJson(res, 200, answer);
      deps.tokenAnswered?.('minted');
    } catch (err) {
      deps.tokenAnswered?.(answeredCode(err));
      answerError(err, req, res);
    }
  };
}
