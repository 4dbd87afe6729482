import { repositoryPermissionProblem } from './permission-vocabulary.js';
/** App permission name → access level, as the platform names them (`contents`, `pull_requests`, …). */
export type Access = 'read' | 'write';
export type Permissions = Readonly<Record<string, Access>>;

const RANK: Readonly<Record<string, number>> = { read: 1, write: 2, admin: 3 };

/**
 * What a token may carry given the installation's own grant (or a ceiling): a permission the grant
 * lacks is dropped and a `write` over a `read` grant becomes `read` (the spec: permissions never
 * exceed the app's grant, and asking for more is not an error). The platform would refuse the whole mint instead.
 */
export function withinGrant(requested: Permissions, granted: Readonly<Record<string, string>>): Record<string, Access> {
  const out: Record<string, Access> = {};
  for (const [name, access] of Object.entries(requested)) {
    const grant = RANK[granted[name] ?? ''] ?? 0;
    if (grant >= RANK.write! && access === 'write') out[name] = 'write';
    else if (grant >= RANK.read!) out[name] = 'read';
  }
  return out;
}

/**
 * An empty permission set would make the platform grant everything the installation has, so a
 * request that keeps nothing asks for `metadata: read` (every installation holds it) instead.
 */
export function nonEmpty(permissions: Record<string, Access>): Record<string, Access> {
  return Object.keys(permissions).length > 0 ? permissions : { metadata: 'read' };
}

/**
 * A `/token` request's optional `permissions` (both brokers): an object of GitHub's repository
 * permission names, each `read` or `write`. A name outside that vocabulary, or another value, is a
 * malformed request (the `problem`), not "asking for more": it could never be granted.
 */
export function requestedPermissions(raw: unknown): { readonly permissions?: Permissions; readonly problem?: string } {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return { problem: 'permissions must be an object of permission names to read or write' };
  const out: Record<string, Access> = {};
  for (const [name, access] of Object.entries(raw as Record<string, unknown>)) {
    if (access !== 'read' && access !== 'write') return { problem: 'permissions values must be read or write' };
    const problem = repositoryPermissionProblem(name, access);
    if (problem) return { problem: `permissions ${problem}` };
    out[name] = access;
  }
  return { permissions: out };
}

/** What a caller gets: what it asked for under the ceiling, or the ceiling itself when it asked for nothing. */
export function askedWithin(requested: Permissions | undefined, ceiling: Permissions): Permissions {
  return requested ? withinGrant(requested, ceiling) : ceiling;
}
