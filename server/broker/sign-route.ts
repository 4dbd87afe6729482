import type { ErrorRequestHandler, RequestHandler } from 'express';
import { refuse } from '../errors.js';
import { answeredCode } from '../http/error-handler.js';
import { isJsonObject, parseJson, rawBody } from '../http/json-body.js';
import type { OidcDeps } from './verify-oidc.js';
import type { BrokerSettings } from './settings.js';
import { oidcSigningPlatform, signAuth, type Signer } from './sign-auth.js';
import { parseSignRequest, signCommit, type SignDeps } from './sign-commit.js';
import { answeredReason, trailOf, type TokenRouteDeps } from './token-route.js';

/** File contents travel base64-encoded in the body. */
const SIGN_BODY_LIMIT = '8mb';

export type SignRouteDeps = OidcDeps & SignDeps & Pick<TokenRouteDeps, 'settings' | 'audit'>;

/**
 * `POST /sign`: the credential (before the body is read), the body, the commit, its audit record
 * and the answer. The record is written before the answer; its token never leaves the broker and
 * is revoked after the commit, so a record that cannot be written is counted and logged (whatever
 * `AUDIT_WRITE` says: the commit is made by then, and `required` concerns tokens handed out).
 */
export function signRoute(deps: SignRouteDeps): RequestHandler[] {
  const sign: RequestHandler = async (req, res) => {
    const trail = trailOf(res, '/sign');
    const body = parseJson(req.rawBody);
    if (isJsonObject(body)) trail.askedForFullName(body.repo);
    const commit = parseSignRequest(body);
    const settings = res.locals.settings as BrokerSettings;
    const signer = res.locals.signer as Signer;
    const repository = commit.repositoryNameWithOwner;
    let created;
    if (signer.kind === 'oidc') {
      const { platform, entry, rule } = oidcSigningPlatform(settings, signer, commit, trail);
      const log = req.log.child({ signer: 'oidc', policy_entry: entry, policy_rule: rule });
      created = await signCommit(deps, platform, commit, log, { repositoryId: Number(signer.caller.repositoryId), minted: (token) => trail.minted(token, repository) });
    } else {
      if (!settings.primary.ok) throw refuse('misconfigured', {}, { cause: settings.primary.error });
      created = await signCommit(deps, settings.primary.value, commit, req.log, { minted: (token) => trail.minted(token, repository) });
    }
    await deps.audit.record(trail.fields('signed'), req.log);
    res.json({ ok: true, commit: created });
  };
  return [signAuth(deps), ...rawBody(SIGN_BODY_LIMIT), sign];
}

/** A refused `POST /sign`, recorded in the audit with what the request had shown; the app's error handler answers it. */
export function signRefusals(deps: Pick<SignRouteDeps, 'audit'>): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (req.method !== 'POST') return next(err);
    void deps.audit.record(trailOf(res, '/sign').fields(answeredCode(err), answeredReason(err)), req.log).then(() => next(err));
  };
}
