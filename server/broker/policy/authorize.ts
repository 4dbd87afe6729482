import type { CallerIdentity } from '../../auth/verifier.js';
import type { Permissions } from '../../platform/permissions.js';
import { decide, type DenialReason, type TriedRule } from './evaluate.js';
import type { Policy, Rule } from './model.js';

/**
 * The policy refused a verified token. `reason` is what the caller is told; the message (logged,
 * never answered) names the entry and, per rule tried, the claim it failed on: never a value.
 */
export class PolicyDenied extends Error {
  override readonly name = 'PolicyDenied';
  constructor(
    readonly reason: DenialReason | 'sign_not_allowed',
    readonly entry: string | undefined,
    readonly tried: readonly TriedRule[],
    repository: string,
    /** The rule that applied, when it is the rule itself that refuses (`sign_not_allowed`). */
    applied?: number,
  ) {
    super(describe(reason, entry, tried, repository, applied));
    this.decidingRule = applied ?? tried[tried.length - 1]?.rule;
  }

  /** The rule whose verdict the answer gives: the one that applies (`sign_not_allowed`), else the last tried; none without one. */
  readonly decidingRule: number | undefined;
}

/**
 * A rule as audit records name it: its entry and position (`acme/* rules[1]`), then its name when
 * it has one (`acme/* rules[1] deploy-main`). Entries and names hold no space, so the parts split.
 */
export function ruleLabel(policy: Policy, entry: string | undefined, index: number | undefined): string | null {
  if (entry === undefined || index === undefined) return null;
  const name = policy.entries.get(entry.toLowerCase())?.rules[index]?.name;
  return `${entry} rules[${index}]${name === undefined ? '' : ` ${name}`}`;
}

function describe(reason: string, entry: string | undefined, tried: readonly TriedRule[], repository: string, applied: number | undefined): string {
  if (entry === undefined) return `${reason}: no entry of the policy covers ${repository}`;
  if (applied !== undefined) return `${reason}: ${repository} under entry ${JSON.stringify(entry)}; rule ${applied} applies and does not say sign: true`;
  const rules = tried.map((t) => `rule ${t.rule} failed on ${t.claim}`).join(', ');
  return `${reason}: ${repository} under entry ${JSON.stringify(entry)}; ${rules || 'the entry has no rule'}`;
}

/** The rule that applies to the caller's token, with its entry, or `PolicyDenied`. */
export function applicableRule(policy: Policy, caller: CallerIdentity): { readonly entry: string; readonly rule: Rule } {
  const decision = decide(policy, caller.repository, caller.claims);
  if (!decision.allowed) throw new PolicyDenied(decision.reason, decision.entry, decision.tried, caller.repository);
  return { entry: decision.entry, rule: decision.rule };
}

/** The rule that lets the caller's token call `/sign`: the one that applies, when it says `sign: true`. */
export function signingRule(policy: Policy, caller: CallerIdentity): { readonly entry: string; readonly rule: Rule } {
  const applied = applicableRule(policy, caller);
  if (!applied.rule.sign) throw new PolicyDenied('sign_not_allowed', applied.entry, [], caller.repository, applied.rule.index);
  return applied;
}

/** The rule's ceiling: its own permissions, or `TOKEN_PERMISSIONS` when it names none. */
export function ceilingOf(rule: Rule, tokenPermissions: Permissions): Permissions {
  return rule.permissions ?? tokenPermissions;
}
