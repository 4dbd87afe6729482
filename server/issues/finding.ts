import { createHash } from 'node:crypto';

/** DefectDojo's severities, worst first: what issue push's `github.minSeverity` names. */
export const SEVERITIES = ['Critical', 'High', 'Medium', 'Low', 'Info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The fields of a DefectDojo finding (API v2) that issue push reads. */
export interface OpenFinding {
  readonly id: number;
  readonly product: string;
  readonly title: string;
  readonly severity: Severity;
  readonly description?: string;
  readonly mitigation?: string;
  readonly componentName?: string;
  readonly componentVersion?: string;
  readonly filePath?: string;
  readonly line?: number;
  readonly cwe?: number;
  readonly vulnerabilityIds: readonly string[];
  readonly uniqueIdFromTool?: string;
  /** The tool's own id of the rule or vulnerability (`vuln_id_from_tool`), as the source gave it. */
  readonly vulnIdFromTool?: string;
  readonly hashCode?: string;
  readonly tags: readonly string[];
  readonly active: boolean;
}

export const ISSUE_TAG = 'issue:';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** A finding from a findings page, or undefined when the entry lacks what an issue needs. */
export function readFinding(product: string, raw: unknown): OpenFinding | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const f = raw as Record<string, unknown>;
  const severity = SEVERITIES.find((s) => s === f.severity);
  if (typeof f.id !== 'number' || !text(f.title) || !severity) return undefined;
  const ids = Array.isArray(f.vulnerability_ids)
    ? f.vulnerability_ids.map((v: unknown) => (typeof v === 'string' ? v : text((v as { vulnerability_id?: unknown })?.vulnerability_id))).filter((v): v is string => !!v)
    : [];
  const optional = <T>(key: string, value: T | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    id: f.id,
    product,
    title: f.title as string,
    severity,
    vulnerabilityIds: [...new Set(ids)],
    tags: Array.isArray(f.tags) ? f.tags.filter((t): t is string => typeof t === 'string') : [],
    active: f.active !== false,
    ...optional('description', text(f.description)),
    ...optional('mitigation', text(f.mitigation)),
    ...optional('componentName', text(f.component_name)),
    ...optional('componentVersion', text(f.component_version)),
    ...optional('filePath', text(f.file_path)),
    ...optional('line', typeof f.line === 'number' && f.line > 0 ? f.line : undefined),
    ...optional('cwe', typeof f.cwe === 'number' && f.cwe > 0 ? f.cwe : undefined),
    ...optional('uniqueIdFromTool', text(f.unique_id_from_tool)),
    ...optional('vulnIdFromTool', text(f.vuln_id_from_tool)),
    ...optional('hashCode', text(f.hash_code)),
  };
}

/** DefectDojo lowercases tags, so the marker is compared without regard to case. */
export function hasIssueTag(finding: Pick<OpenFinding, 'tags'>): boolean {
  return finding.tags.some((t) => t.toLowerCase().startsWith(ISSUE_TAG));
}

export function issueTag(issueUrl: string): string {
  return `${ISSUE_TAG}${issueUrl}`.toLowerCase();
}

/** Severities at or above `min`, worst first, as DefectDojo spells them. */
export function severitiesFrom(min: Severity): Severity[] {
  return SEVERITIES.slice(0, SEVERITIES.indexOf(min) + 1);
}

export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);

/**
 * The identity written into every issue body, which holds when the tag does not: a reimport
 * that re-creates a finding gives it a new id and no tags. It is built from what identifies the
 * finding to DefectDojo's own deduplication: the tool's id when the parser sets one, else
 * DefectDojo's hash code, else the finding's defining fields; always within its product.
 */
export function findingHash(f: OpenFinding): string {
  const identity = f.uniqueIdFromTool
    ? `uid:${f.uniqueIdFromTool}`
    : f.hashCode
      ? `hash:${f.hashCode}`
      : `fields:${[f.title, f.componentName, f.componentVersion, f.filePath, f.line, [...f.vulnerabilityIds].sort().join(',')].map((v) => v ?? '').join('|')}`;
  return createHash('sha256').update(`${f.product}\n${identity}`).digest('hex').slice(0, 32);
}
