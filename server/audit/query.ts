import { z } from 'zod';
import { hasControlCharacter } from '../http/control-characters.js';
import { countParameter, isoInstant } from '../http/validation.js';
import { isOwnerLogin, parseFullName } from '../github/identifiers.js';

export const AUDIT_DEFAULT_LIMIT = 100;
const AUDIT_MAX_LIMIT = 500;
export const AUDIT_CURSOR_REFUSED =
  'must be a "next" value this service returned for the same filters (cursors made under another AUDIT_TOKEN are refused: start again without cursor)';

/** A login: GitHub's owner rule, and `[bot]` after it for an app's actor (`dependabot[bot]`). */
const ACTOR = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;
/** An error code or `minted` / `signed` / `mint_ok`. */
const OUTCOME = /^[a-z][a-z0-9_]{0,63}$/;
/** base64 of a SHA-256 digest: 43 characters and one `=`. */
const HASHED_TOKEN = /^[A-Za-z0-9+/]{43}=$/;

/**
 * Query of `GET /v1/audit/tokens`: unknown or malformed parameters are refused with 422, as the
 * ledger's history query is, and a repeated parameter is malformed (it is not one string).
 */
export const auditQuery = z
  .strictObject({
    repository: z
      .string()
      .refine((s) => parseFullName(s) !== undefined, 'must be owner/name')
      .optional(),
    owner: z.string().refine(isOwnerLogin, 'must be a GitHub owner login').optional(),
    outcome: z.string().regex(OUTCOME, 'must be minted, signed or an error code').optional(),
    workflow: z
      .string()
      .min(1, 'must not be empty')
      .max(1000, 'must be at most 1000 characters')
      .refine((s) => !hasControlCharacter(s), 'must not contain control characters')
      .optional(),
    actor: z.string().regex(ACTOR, 'must be a GitHub login').optional(),
    since: isoInstant.optional(),
    until: isoInstant.optional(),
    // A `+` not percent-encoded reaches the server as a space; base64 holds no space, so it is put back.
    hashed_token: z
      .string()
      .transform((s) => s.replaceAll(' ', '+'))
      .pipe(z.string().regex(HASHED_TOKEN, 'must be base64 of a SHA-256 digest (44 characters ending in =), as GitHub\'s audit log shows it'))
      .optional(),
    cursor: z.string().max(300, AUDIT_CURSOR_REFUSED).optional(),
    limit: countParameter(AUDIT_MAX_LIMIT).optional(),
  })
  // zod runs an object's refinement even when a field failed: compared only once both parsed.
  .refine((q) => !(q.since instanceof Date) || !(q.until instanceof Date) || q.since.getTime() <= q.until.getTime(), { path: ['since'], message: 'must not be after until' });

export type AuditQuery = z.infer<typeof auditQuery>;

/**
 * The filters a cursor is bound to (every parameter but `cursor` and `limit`, and the repository
 * id a reader is confined to), one string: a cursor names a place in one list, so it is refused
 * for another.
 */
export function filterScope(query: AuditQuery, repositoryId?: string): string {
  const { cursor: _cursor, limit: _limit, ...filters } = query;
  const named = Object.entries({ ...filters, repository_id: repositoryId })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, value instanceof Date ? value.toISOString() : name === 'repository' || name === 'owner' || name === 'actor' ? String(value).toLowerCase() : value] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(named);
}
