import { ISSUE_TAG } from './finding.js';

/** Why a DefectDojo finding is no longer active, from its status fields (API v2 finding). */
export type InactiveReason = 'false_positive' | 'out_of_scope' | 'risk_accepted' | 'duplicate' | 'mitigated' | 'inactive';

/** What issue lifecycle reads of a finding that issue push linked to an issue. */
export interface LinkedFinding {
  readonly id: number;
  readonly product: string;
  /** The URLs of the finding's `issue:` tags (DefectDojo lowercases tags). */
  readonly issueUrls: readonly string[];
  readonly active: boolean;
  /** Set when the finding is not active. */
  readonly reason?: InactiveReason;
  /** `last_status_update`: when DefectDojo last changed a status field of the finding. */
  readonly lastStatusUpdate?: Date;
}

/**
 * The reason a person reads first: the triage decisions (false positive, out of scope, risk
 * accepted, duplicate) before `is_mitigated`, which DefectDojo also sets for a false positive or an
 * out-of-scope finding. A finding closed by a reimport (`close_old_findings`) is mitigated.
 */
function reasonOf(f: Record<string, unknown>): InactiveReason {
  if (f.false_p === true) return 'false_positive';
  if (f.out_of_scope === true) return 'out_of_scope';
  if (f.risk_accepted === true) return 'risk_accepted';
  if (f.duplicate === true) return 'duplicate';
  if (f.is_mitigated === true) return 'mitigated';
  return 'inactive';
}

/** A finding of the linked-findings list, or undefined when it lacks an id or an issue tag. */
export function readLinkedFinding(product: string, raw: unknown): LinkedFinding | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const f = raw as Record<string, unknown>;
  if (typeof f.id !== 'number') return undefined;
  const tags = Array.isArray(f.tags) ? f.tags.filter((t): t is string => typeof t === 'string') : [];
  const issueUrls = tags.filter((t) => t.toLowerCase().startsWith(ISSUE_TAG)).map((t) => t.slice(ISSUE_TAG.length));
  if (issueUrls.length === 0) return undefined;
  const active = f.active === true;
  const stamp = typeof f.last_status_update === 'string' ? new Date(f.last_status_update) : undefined;
  return {
    id: f.id,
    product,
    issueUrls,
    active,
    ...(active ? {} : { reason: reasonOf(f) }),
    ...(stamp && !Number.isNaN(stamp.getTime()) ? { lastStatusUpdate: stamp } : {}),
  };
}

/** GitHub's `state_reason` for closing the issue of a finding inactive for this reason: only a fix is `completed`. */
export function stateReasonFor(reason: InactiveReason): 'completed' | 'not_planned' {
  return reason === 'mitigated' ? 'completed' : 'not_planned';
}

const SAID: Record<InactiveReason, string> = {
  mitigated: 'is mitigated (fixed, or no longer reported by its scanner)',
  false_positive: 'is marked as a false positive',
  out_of_scope: 'is marked as out of scope',
  risk_accepted: 'has its risk accepted',
  duplicate: 'is marked as a duplicate of another finding',
  inactive: 'is no longer active',
};

/** The comment written before the issue is closed. */
export function closingComment(finding: LinkedFinding, findingUrl: string): string {
  return `Closed by Gatehouse: [DefectDojo finding ${finding.id}](${findingUrl}) ${SAID[finding.reason ?? 'inactive']}. If the finding becomes active again, the next sync reopens this issue.`;
}

/** The comment written before the issue is reopened. */
export function reopeningComment(finding: LinkedFinding, findingUrl: string): string {
  const when = finding.lastStatusUpdate ? ` on ${finding.lastStatusUpdate.toISOString()}` : '';
  return `Reopened by Gatehouse: [DefectDojo finding ${finding.id}](${findingUrl}) became active again${when}, after this issue was closed.`;
}
