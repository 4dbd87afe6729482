import type { SarifResult, SarifRule, SarifRun } from '../reports/sarif.js';

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';
export type FailOn = 'critical' | 'high' | 'medium' | 'low' | 'any' | 'none';

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];
export const FAIL_ON: readonly FailOn[] = ['critical', 'high', 'medium', 'low', 'any', 'none'];

/** Each run's rules by id, driver first, then its extensions in order: built once a run, so a lookup by id is not a scan of every rule. */
const rulesById = new WeakMap<SarifRun, Map<string, SarifRule>>();

function byId(run: SarifRun): Map<string, SarifRule> {
  let map = rulesById.get(run);
  if (!map) {
    map = new Map();
    for (const rules of [run.tool.driver.rules, ...(run.tool.extensions ?? []).map((e) => e?.rules)]) {
      for (const rule of Array.isArray(rules) ? rules : []) if (typeof rule?.id === 'string' && !map.has(rule.id)) map.set(rule.id, rule);
    }
    rulesById.set(run, map);
  }
  return map;
}

/**
 * The rule a result points at: by index into the driver's rules, or an extension's when
 * `rule.toolComponent` names one (by index, else by name or guid, as CodeQL writes rules of query
 * packs); else by id, among the driver's and every extension's rules; a hierarchical id
 * (`CA1000/1`, SARIF §3.27.5) falls back to its first component.
 */
export function ruleOf(run: SarifRun, result: SarifResult): SarifRule | undefined {
  const component = result.rule?.toolComponent as { index?: unknown; name?: unknown; guid?: unknown } | undefined;
  const extensions = run.tool.extensions ?? [];
  let rules: SarifRule[] | undefined = run.tool.driver.rules;
  if (component) {
    const extension =
      typeof component.index === 'number'
        ? extensions[component.index]
        : extensions.find((e) => (component.guid !== undefined && (e as { guid?: unknown })?.guid === component.guid) || (component.name !== undefined && (e as { name?: unknown })?.name === component.name));
    // A reference to the driver itself (its name) keeps the driver's rules.
    if (extension) rules = extension.rules;
  }
  const index = result.rule?.index ?? result.ruleIndex;
  if (typeof index === 'number' && Array.isArray(rules) && rules[index]) return rules[index];
  const id = result.ruleId ?? result.rule?.id;
  if (typeof id !== 'string') return undefined;
  const all = byId(run);
  const own = rules !== run.tool.driver.rules && Array.isArray(rules) ? rules.find((r) => r?.id === id) : undefined;
  return own ?? all.get(id) ?? (id.includes('/') ? all.get(id.slice(0, id.indexOf('/'))) : undefined);
}

/** A result's rule id: its own `ruleId` or `rule.id`, else the id of the rule its index points at. */
export function ruleIdOf(run: SarifRun, result: SarifResult, rule?: SarifRule): string | undefined {
  const id = result.ruleId ?? result.rule?.id ?? (rule ?? ruleOf(run, result))?.id;
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
export function severityOf(run: SarifRun, result: SarifResult, known?: SarifRule): Severity {
  const rule = known ?? ruleOf(run, result);
  const scored = band(rule?.properties?.['security-severity']) ?? band(result.properties?.['security-severity']);
  if (scored) return scored;
  const level = levelOf(result, rule);
  return level === 'error' ? 'high' : level === 'warning' ? 'medium' : level === 'note' ? 'low' : 'info';
}

/**
 * The result's level: its own, else (SARIF §3.27.10) `none` when its `kind` is other than `fail`
 * (`review`, `open`: not a failure), else the rule's default, else `warning`.
 */
export function levelOf(result: SarifResult, rule: SarifRule | undefined): string {
  if (typeof result.level === 'string') return result.level;
  if (typeof result.kind === 'string' && result.kind !== 'fail') return 'none';
  return rule?.defaultConfiguration?.level ?? 'warning';
}

export function blocks(severity: Severity, failOn: FailOn): boolean {
  if (failOn === 'none') return false;
  if (failOn === 'any') return true;
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(failOn);
}
