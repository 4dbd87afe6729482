import type { Policy, PolicyEntry, Rule } from './model.js';

/** The coarse reasons of a refusal: they name at most a claim, never its value or the policy. */
export type DenialReason = 'repository_not_in_policy' | 'no_matching_rule' | `claim_mismatch:${string}`;

/** A rule that did not hold, and the claim of its first condition that failed. */
export interface TriedRule {
  readonly rule: number;
  readonly claim: string;
}

export type Decision =
  | { readonly allowed: true; readonly entry: string; readonly rule: Rule; readonly tried: readonly TriedRule[] }
  | { readonly allowed: false; readonly reason: DenialReason; readonly entry?: string; readonly tried: readonly TriedRule[] };

/**
 * The entry of `repository` (`owner/name`): its own, else `owner/*`, else `*`, compared
 * case-insensitively (GitHub's names are). Never falls through to a wider entry.
 */
export function entryFor(policy: Policy, repository: string): PolicyEntry | undefined {
  const lower = repository.toLowerCase();
  const own = policy.entries.get(lower);
  if (own) return own;
  const slash = lower.indexOf('/');
  return (slash > 0 ? policy.entries.get(`${lower.slice(0, slash)}/*`) : undefined) ?? policy.entries.get('*');
}

/**
 * Which rule of the policy applies to a verified token's claims: the first of the repository's
 * entry whose every condition holds. A claim the token lacks (or holds as a non-string) fails
 * its condition. A refusal's reason is that of the last rule tried: the claim of its first
 * failing condition (`no_matching_rule` for an entry without rules).
 */
export function decide(policy: Policy, repository: string, claims: Readonly<Record<string, unknown>>): Decision {
  const entry = entryFor(policy, repository);
  if (!entry) return { allowed: false, reason: 'repository_not_in_policy', tried: [] };
  const tried: TriedRule[] = [];
  for (const rule of entry.rules) {
    const failed = firstFailing(rule, claims);
    if (failed === undefined) return { allowed: true, entry: entry.key, rule, tried };
    tried.push({ rule: rule.index, claim: failed });
  }
  const last = tried[tried.length - 1];
  return { allowed: false, reason: last ? `claim_mismatch:${last.claim}` : 'no_matching_rule', entry: entry.key, tried };
}

function firstFailing(rule: Rule, claims: Readonly<Record<string, unknown>>): string | undefined {
  for (const condition of rule.conditions) {
    const value = Object.hasOwn(claims, condition.claim) ? claims[condition.claim] : undefined;
    if (typeof value !== 'string' || !condition.test(value)) return condition.claim;
  }
  return undefined;
}
