import { auditQuery, type AuditQuery } from '../audit/query.js';
import type { SessionRepository } from '../store/types.js';

/*
 * The token audit in the console: one repository's records, for a person GitHub lists as an admin
 * of it. The query is the route's own (`auditQuery`) and the listing the audit's own
 * (`listAuditRecords`), confined to the repository's numeric id, never its name.
 */

/** Records a page shows. */
export const AUDIT_PAGE_SIZE = 50;
/** Records a CSV download holds: the route's largest page. */
export const AUDIT_CSV_LIMIT = 500;

/** The route's filters the page takes (the repository is the page's own). */
export const AUDIT_FILTERS = ['outcome', 'workflow', 'actor', 'since', 'until', 'hashed_token'] as const;
/** The page's parameters: those filters and the route's cursor. */
export const AUDIT_PARAMETERS = [...AUDIT_FILTERS, 'cursor'] as const;
/** The filters as given, each once: links carry them on as they are. */
export type AuditFilters = Partial<Record<(typeof AUDIT_FILTERS)[number], string>>;

/**
 * Whether the person administers the repository: GitHub's `permissions.admin` on it, as their
 * installation repositories answer lists it (kept with the session's repository list).
 */
export const administers = (repository: SessionRepository): boolean => repository.permissions.admin === true;

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const TIME_RANGE = 'must be a date (YYYY-MM-DD, a UTC day) or an ISO 8601 date-time with an offset (Z or ±hh:mm)';

/** A problem with one parameter: the page says which and why. */
export interface AuditFilterProblem {
  readonly parameter: string;
  readonly message: string;
}

/**
 * The page's parameters as the route reads its own, with one addition for people typing in a
 * form: `since` and `until` may be a bare date, the UTC day it names (`since` from its first
 * millisecond, `until` to its last), so the range is inclusive at both ends as the route's is.
 */
export function auditPageQuery(given: AuditFilters & { readonly cursor?: string }): { ok: true; query: AuditQuery } | { ok: false; problem: AuditFilterProblem } {
  const input: Record<string, string> = { ...given };
  if (given.since !== undefined && DAY.test(given.since)) input.since = `${given.since}T00:00:00.000Z`;
  if (given.until !== undefined && DAY.test(given.until)) input.until = `${given.until}T23:59:59.999Z`;
  const parsed = auditQuery.safeParse(input);
  if (parsed.success) return { ok: true, query: parsed.data };
  const issue = parsed.error.issues[0]!;
  const parameter = String(issue.path[0] ?? '(query)');
  const timeFormat = (parameter === 'since' || parameter === 'until') && issue.code !== 'custom';
  return { ok: false, problem: { parameter, message: timeFormat ? TIME_RANGE : issue.message } };
}
