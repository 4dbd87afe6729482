import type { RequestHandler } from 'express';
import { bearerCredential } from '../auth/bearer.js';
import { secretsEqual } from '../auth/secrets.js';
import type { CallerIdentity } from '../auth/verifier.js';
import type { CommitOnBranch } from '../platform/github-app.js';
import { toHttpError } from './issue-token.js';
import { PolicyDenied, ruleLabel, signingRule } from './policy/authorize.js';
import type { TokenTrail } from '../audit/trail.js';
import type { Policy } from './policy/model.js';
import { issuerMapOf, type BrokerSettings, type PlatformSettings } from './settings.js';
import { trailOf } from './token-route.js';
import { verifyOidcToken, type OidcDeps } from './verify-oidc.js';
import { refuse } from '../errors.js';

/** Three base64url parts: what an OIDC token looks like (a trigger secret is checked first). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** What `/sign` knows of its caller after `signAuth`: the trigger secret's holder, or a verified workflow. */
export type Signer =
  | { readonly kind: 'trigger' }
  | { readonly kind: 'oidc'; readonly caller: CallerIdentity; readonly policy: Policy; readonly platforms: ReadonlyMap<string, PlatformSettings> };

/**
 * `/sign`'s credential, before the body is read: `Authorization: Bearer <PROCESS_TRIGGER_SECRET>`
 * as always, or, while `BROKER_POLICY` is set, `Bearer <OIDC token>` verified as `/token` verifies
 * it (same issuers, audiences and answers). Whether that token may sign the repository the body
 * names is `oidcSigningPlatform`'s decision; the verified caller goes on the request's audit trail.
 * With neither a secret nor a policy the route is off.
 */
export function signAuth(deps: OidcDeps & { readonly settings: () => BrokerSettings }): RequestHandler {
  return async (req, res, next) => {
    const settings = deps.settings();
    const credential = bearerCredential(req.headers);
    const policy = settings.policy;
    const policySet = !policy.ok || policy.value !== undefined;
    res.locals.settings = settings;
    if (settings.triggerSecret && credential !== undefined && secretsEqual(credential, settings.triggerSecret)) {
      res.locals.signer = { kind: 'trigger' } satisfies Signer;
      return next();
    }
    if (policySet && credential !== undefined && JWT_SHAPE.test(credential)) {
      if (!policy.ok) throw refuse('invalid_policy', {}, { cause: policy.error });
      if (!settings.platforms.ok) throw refuse('misconfigured', {}, { cause: settings.platforms.error });
      const platforms = settings.platforms.value;
      let caller: CallerIdentity;
      try {
        caller = await verifyOidcToken(deps, credential, { issuers: issuerMapOf(platforms), audiences: settings.audiences }, req.log);
      } catch (err) {
        throw toHttpError(err);
      }
      res.locals.signer = { kind: 'oidc', caller, policy: policy.value!, platforms } satisfies Signer;
      trailOf(res, '/sign').verified(caller);
      return next();
    }
    if (!settings.triggerSecret && !policySet) throw refuse('sign_disabled');
    throw refuse('unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
  };
}

/**
 * Whether a verified workflow may sign this commit, and with which app: the token's repository
 * must be the one `repo` names (and on ALLOWED_REPOSITORIES when set), and the policy rule that
 * applies to the token must say `sign: true`. Refusals are `/token`'s (`403 repo_mismatch`,
 * `repo_not_allowed`, `policy_denied`); the app is that of the issuer that signed the token.
 */
export function oidcSigningPlatform(
  settings: BrokerSettings,
  signer: Extract<Signer, { kind: 'oidc' }>,
  commit: CommitOnBranch,
  trail: TokenTrail,
): { readonly platform: PlatformSettings; readonly entry: string; readonly rule: number } {
  const { caller } = signer;
  const owner = commit.repositoryNameWithOwner.split('/')[0]!;
  // As /token: the token names the owner twice, and the request must agree with both.
  if (commit.repositoryNameWithOwner !== caller.repository || owner.toLowerCase() !== caller.repositoryOwner.toLowerCase()) {
    throw refuse('repo_mismatch');
  }
  if (settings.allowedRepositories && !settings.allowedRepositories.has(caller.repository)) throw refuse('repo_not_allowed');
  try {
    const { entry, rule } = signingRule(signer.policy, caller);
    trail.policyRule(ruleLabel(signer.policy, entry, rule.index));
    // The verifier accepts only issuers of this map, so the platform is there.
    return { platform: signer.platforms.get(caller.issuer)!, entry, rule: rule.index };
  } catch (err) {
    if (err instanceof PolicyDenied) trail.policyRule(ruleLabel(signer.policy, err.entry, err.decidingRule));
    throw toHttpError(err);
  }
}
