import { hash } from 'node:crypto';

/**
 * What the token audit says of one `/token` or `/sign` answer (docs/broker.md, "Audit"): the
 * record's fields in their documented order. A field the request did not carry (or that the
 * broker never learnt, or refused as malformed) is `null`. Never a token, an OIDC token or an
 * unverified claim: the identity fields come from a verified token, or, for a request refused
 * before its token was verified, only `owner` and `repository` as the body named them, when they
 * are valid GitHub names.
 */
export interface TokenAuditFields {
  /** Which broker answered: the main broker stores records, the minimal one logs them. */
  readonly broker: 'main' | 'minimal';
  readonly route: '/token' | '/sign';
  /** `minted` (`mint_ok` in the minimal broker's vocabulary), `signed`, or the error code answered. */
  readonly outcome: string;
  /** The `reason` the answer carried (`invalid_oidc_token`, `policy_denied`), else null. */
  readonly reason: string | null;
  readonly repository: string | null;
  readonly repository_id: string | null;
  readonly owner: string | null;
  readonly workflow_ref: string | null;
  readonly job_workflow_ref: string | null;
  readonly event_name: string | null;
  readonly run_id: string | null;
  readonly run_attempt: string | null;
  readonly actor: string | null;
  readonly environment: string | null;
  /** `<entry> rules[N]`, and ` <name>` when the rule has one. */
  readonly policy_rule: string | null;
  readonly permissions_requested: Readonly<Record<string, string>> | null;
  readonly permissions_granted: Readonly<Record<string, string>> | null;
  readonly repositories: readonly string[] | null;
  readonly installation_id: number | null;
  readonly expires_at: string | null;
  /** base64 of the token's SHA-256: the form of GitHub's audit log (`hashed_token:"…"`). */
  readonly hashed_token: string | null;
}

/** A record as the route answers it and the minimal broker logs it: `recorded_at` first. */
export type TokenAuditRecord = { readonly recorded_at: string } & TokenAuditFields;

/** The record's fields in order (the CSV's columns). */
export const AUDIT_FIELDS = [
  'recorded_at',
  'broker',
  'route',
  'outcome',
  'reason',
  'repository',
  'repository_id',
  'owner',
  'workflow_ref',
  'job_workflow_ref',
  'event_name',
  'run_id',
  'run_attempt',
  'actor',
  'environment',
  'policy_rule',
  'permissions_requested',
  'permissions_granted',
  'repositories',
  'installation_id',
  'expires_at',
  'hashed_token',
] as const satisfies readonly (keyof TokenAuditRecord)[];

/**
 * A token as GitHub's audit log names it (`hashed_token`): the SHA-256 of its bytes, base64 with
 * padding. The same as `printf %s "$TOKEN" | openssl dgst -sha256 -binary | base64`.
 */
export function hashedToken(token: string): string {
  return hash('sha256', token, 'base64');
}

/** Claims of a verified token the record copies, by record field. */
export const CLAIM_FIELDS = {
  workflow_ref: 'workflow_ref',
  job_workflow_ref: 'job_workflow_ref',
  event_name: 'event_name',
  run_id: 'run_id',
  run_attempt: 'run_attempt',
  actor: 'actor',
  environment: 'environment',
} as const;
