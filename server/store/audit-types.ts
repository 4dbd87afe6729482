/**
 * The token audit's storage: one entry per `/token` and `/sign` answer of the main broker. The
 * record itself is the answer's audit fields (below), kept as they are; the
 * store adds the entry's id, time and end of retention.
 */
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


export interface TokenAuditEntry {
  /** UUIDv7: time-ordered, so entries of one millisecond list in arrival order. */
  readonly id: string;
  readonly recordedAt: Date;
  /** End of retention (`AUDIT_RETENTION_DAYS` after `recordedAt`). */
  readonly expireAt: Date;
  readonly record: TokenAuditFields;
}

/** A place in the audit's newest-first order: the entries listed after it are older. */
export type AuditPosition = Pick<TokenAuditEntry, 'recordedAt' | 'id'>;

export interface TokenAuditQuery {
  /** `owner/name`, compared without case (GitHub's names are). */
  readonly repository?: string;
  /**
   * `repository_id` exactly: the repository by GitHub's numeric id, which a deleted repository's
   * re-registered name does not share (the console's audit page reads by it).
   */
  readonly repositoryId?: string;
  /** Compared without case. */
  readonly owner?: string;
  readonly outcome?: string;
  /** `workflow_ref` exactly, or its path (the part before the first `@`). */
  readonly workflow?: string;
  /** Compared without case. */
  readonly actor?: string;
  /** Only entries recorded at or after this instant. */
  readonly since?: Date;
  /** Only entries recorded at or before this instant. */
  readonly until?: Date;
  readonly hashedToken?: string;
  /** Only entries listed after this place (keyset paging). */
  readonly after?: AuditPosition;
  readonly limit: number;
  /** Entries whose `expireAt` is not after `now` are gone. */
  readonly now: Date;
}

export interface TokenAuditStore {
  /** Stores one entry (ids are unique: an entry is written once). */
  insert(entry: TokenAuditEntry): Promise<void>;
  /** Live entries matching every filter given, newest first (recordedAt, then id, descending). */
  list(query: TokenAuditQuery): Promise<TokenAuditEntry[]>;
}

/** The path of a `workflow_ref` (`owner/repo/.github/workflows/x.yml@refs/heads/main` → before the `@`). */
export function workflowPath(workflowRef: string): string {
  const at = workflowRef.indexOf('@');
  return at < 0 ? workflowRef : workflowRef.slice(0, at);
}

/** Whether an entry matches the query's filters (not its place, time range or liveness). */
export function matchesFilters(record: TokenAuditFields, query: TokenAuditQuery): boolean {
  const same = (value: string | null, wanted: string | undefined): boolean => wanted === undefined || (value !== null && value.toLowerCase() === wanted.toLowerCase());
  if (!same(record.repository, query.repository) || !same(record.owner, query.owner) || !same(record.actor, query.actor)) return false;
  if (query.repositoryId !== undefined && record.repository_id !== query.repositoryId) return false;
  if (query.outcome !== undefined && record.outcome !== query.outcome) return false;
  if (query.hashedToken !== undefined && record.hashed_token !== query.hashedToken) return false;
  if (query.workflow !== undefined) {
    const ref = record.workflow_ref;
    if (ref === null || (ref !== query.workflow && workflowPath(ref) !== query.workflow)) return false;
  }
  return true;
}

/** Newest-first order: recordedAt, then id, descending. */
export function auditNewestFirst(a: AuditPosition, b: AuditPosition): number {
  const byTime = b.recordedAt.getTime() - a.recordedAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
