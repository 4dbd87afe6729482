import type { CallerIdentity } from '../auth/verifier.js';
import { isOwnerLogin, isRepositoryPair, parseFullName } from '../github/identifiers.js';
import type { Permissions } from '../platform/permissions.js';
import type { RepositoryToken } from '../platform/repository-token.js';
import { hashedToken, type TokenAuditFields } from './record.js';

/**
 * What one `/token` or `/sign` request has shown so far, filled in as the request goes (the body's
 * names, the verified caller, the policy rule, the mint), so that whatever answer ends it, a
 * minted token or a refusal at any step, its audit record says exactly what was known then.
 * Holds the minted token only to hash it: the record never carries it.
 */
export class TokenTrail {
  private askedOwner: string | null = null;
  private askedRepository: string | null = null;
  private caller: CallerIdentity | undefined;
  private rule: string | null = null;
  private requested: Permissions | null = null;
  private token: (RepositoryToken & { readonly repository: string }) | undefined;

  constructor(
    readonly broker: TokenAuditFields['broker'],
    readonly route: TokenAuditFields['route'],
  ) {}

  /** The body's `owner` and `repo` (`/token`), kept only when they are valid GitHub names. */
  askedFor(owner: unknown, repo: unknown): void {
    if (isOwnerLogin(owner)) this.askedOwner = owner;
    if (isRepositoryPair(owner, repo)) this.askedRepository = `${owner}/${repo as string}`;
  }

  /** The body's `repo` as `owner/name` (`/sign`), kept only when it is one. */
  askedForFullName(fullName: unknown): void {
    const pair = typeof fullName === 'string' ? parseFullName(fullName) : undefined;
    if (pair) this.askedFor(pair.owner, pair.name);
  }

  /** The OIDC token verified: from now on the record's identity is the token's claims. */
  verified(caller: CallerIdentity): void {
    this.caller = caller;
  }

  /** The policy rule that allowed or refused the request, as `ruleLabel` names it. */
  policyRule(label: string | null): void {
    this.rule = label;
  }

  /** The request's own `permissions` field, as parsed. */
  requestedPermissions(permissions: Permissions | undefined): void {
    this.requested = permissions ?? null;
  }

  /** A token was minted for `repository` (handed out by `/token`, used once by `/sign`). */
  minted(token: RepositoryToken, repository: string): void {
    this.token = { ...token, repository };
  }

  /** The record of the answer given: `outcome` and the `reason` it carried. */
  fields(outcome: string, reason: string | null = null): TokenAuditFields {
    const caller = this.caller;
    // A claim of the verified token the record copies under the claim's own name.
    const claim = (field: keyof TokenAuditFields): string | null => {
      const value = caller?.claims[field];
      return typeof value === 'string' && value.length > 0 ? value : null;
    };
    const token = this.token;
    return {
      broker: this.broker,
      route: this.route,
      outcome,
      reason,
      repository: caller ? caller.repository : this.askedRepository,
      repository_id: caller ? caller.repositoryId : null,
      owner: caller ? caller.repositoryOwner : this.askedOwner,
      workflow_ref: claim('workflow_ref'),
      job_workflow_ref: claim('job_workflow_ref'),
      event_name: claim('event_name'),
      run_id: claim('run_id'),
      run_attempt: claim('run_attempt'),
      actor: claim('actor'),
      environment: claim('environment'),
      policy_rule: this.rule,
      permissions_requested: this.requested,
      permissions_granted: token ? token.permissions : null,
      repositories: token ? [token.repository] : null,
      installation_id: token ? token.installationId : null,
      expires_at: token ? token.expiresAt : null,
      hashed_token: token ? hashedToken(token.token) : null,
    };
  }
}
