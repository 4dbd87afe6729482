import { hash } from 'node:crypto';

import type { TokenAuditRecord } from '../store/audit-types.js';

export type { TokenAuditFields, TokenAuditRecord } from '../store/audit-types.js';

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
