import type { Permissions } from '../../platform/permissions.js';
import type { Matcher } from './glob.js';

/** One `if` condition: the claim it reads and the test its values were compiled into. */
export interface Condition {
  readonly claim: string;
  readonly test: Matcher;
}

export interface Rule {
  /** Position in its entry's list, from 0 (what the log line and `policy check` name). */
  readonly index: number;
  /** Line of the rule in the policy text, for `policy check`. */
  readonly line: number;
  /** Tried in the order written; the first that fails ends the rule. */
  readonly conditions: readonly Condition[];
  /** The rule's ceiling; absent: `TOKEN_PERMISSIONS`. */
  readonly permissions?: Permissions;
  /** Whether a token this rule applies to may call `/sign`. */
  readonly sign: boolean;
  /** The rule's optional `name`, which audit records give beside its position. */
  readonly name?: string;
}

export interface PolicyEntry {
  /** The key as written (`acme/widgets`, `acme/*` or `*`). */
  readonly key: string;
  readonly rules: readonly Rule[];
}

export interface Policy {
  /**
   * Entries by lower-cased key (`acme/widgets`, `acme/*`, `*`): choosing a repository's entry is at
   * most three map lookups, however many repositories the policy names.
   */
  readonly entries: ReadonlyMap<string, PolicyEntry>;
}
