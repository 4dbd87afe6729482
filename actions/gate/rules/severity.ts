import type { SarifResult, SarifRule, SarifRun } from '../reports/sarif.js';

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';
export type FailOn = 'critical' | 'high' | 'medium' | 'low' | 'any' | 'none';

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];
export const FAIL_ON: readonly FailOn[] = ['critical', 'high', 'medium', 'low', 'any', 'none'];
const RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/** The rule a result points at: by index (driver or extension), else by id. */
export function ruleOf(run: SarifRun, result: SarifResult): SarifRule | undefined {
  const component = result.rule?.toolComponent?.index;
  const rules = component === undefined ? run.tool.driver.rules : run.tool.extensions?.[component]?.rules;
  const index = result.rule?.index ?? result.ruleIndex;
  if (typeof index === 'number' && rules?.[index]) return rules[index];
  const id = result.ruleId ?? result.rule?.id;
  return id === undefined ? undefined : rules?.find((r) => r.id === id) ?? run.tool.driver.rules?.find((r) => r.id === id);
}

/** A result's rule id: its own `ruleId` or `rule.id`, else the id of the rule its index points at. */
export function ruleIdOf(run: SarifRun, result: SarifResult): string | undefined {
  const id = result.ruleId ?? result.rule?.id ?? ruleOf(run, result)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function band(score: unknown): Severity | undefined {
  const value = typeof score === 'string' ? Number(score) : typeof score === 'number' ? score : NaN;
  if (!Number.isFinite(value) || value <= 0) return undefined;
  if (value >= 9) return 'critical';
  if (value >= 7) return 'high';
  if (value >= 4) return 'medium';
  return 'low';
}

/**
 * The `security-severity` band when present (≥9 critical, ≥7 high, ≥4 medium, >0 low), otherwise
 * the level (error → high, warning → medium, note → low, none → info), the level being the
 * result's, then the rule's default, then `warning`.
 */
export function severityOf(run: SarifRun, result: SarifResult): Severity {
  const rule = ruleOf(run, result);
  const scored = band(rule?.properties?.['security-severity']) ?? band(result.properties?.['security-severity']);
  if (scored) return scored;
  const level = result.level ?? rule?.defaultConfiguration?.level ?? 'warning';
  return level === 'error' ? 'high' : level === 'warning' ? 'medium' : level === 'note' ? 'low' : 'info';
}

export function blocks(severity: Severity, failOn: FailOn): boolean {
  if (failOn === 'none') return false;
  if (failOn === 'any') return true;
  return RANK[severity] >= RANK[failOn];
}
