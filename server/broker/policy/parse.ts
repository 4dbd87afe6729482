import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair } from 'yaml';
import { ConfigError } from '../../config-error.js';
import { repositoryPermissionProblem } from '../../platform/permission-vocabulary.js';
import type { Access, Permissions } from '../../platform/permissions.js';
import { compileGlob, type Matcher } from './glob.js';
import type { Condition, Policy, PolicyEntry, Rule } from './model.js';
import { isOwnerLogin, isRepositoryName } from '../../github/identifiers.js';

/**
 * A policy that cannot be used, and where: `line` and `column` (from 1) of the offending node.
 * The message quotes at most a key of the policy (never a claim value: the policy holds none).
 */
export class PolicyError extends ConfigError {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super('BROKER_POLICY', `is invalid at line ${line}, column ${column}: ${detail}`);
  }
}

const TOP_KEYS = ['repositories'];
const RULE_KEYS = ['name', 'if', 'permissions', 'sign'];
/** A rule's name: a short word of letters, digits, `.`, `_` and `-` (it is quoted in audit records). */
const RULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** GitHub's claim names are lower-case words with underscores; custom issuers may use upper case or digits. */
const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Longest key quoted back in a problem. */
const SHOWN = 64;
const shown = (text: string): string => JSON.stringify(text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/**
 * Parses a policy (YAML, or JSON, which is YAML too) and compiles it: every pattern becomes its
 * matcher once, here, and entries are indexed by lower-cased repository. Throws `PolicyError` for
 * text that does not parse, a key it does not know, a value of the wrong shape, or a permission
 * GitHub does not give a one-repository token.
 */
export function parsePolicy(text: string): Policy {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined, detail: string): PolicyError => {
    const { line, col } = lines.linePos(offset ?? 0);
    return new PolicyError(line, col, detail);
  };
  const fail = (node: Node | Pair | null | undefined, detail: string): PolicyError => at(startOf(node), detail);

  const syntax = doc.errors[0];
  if (syntax) throw at(syntax.pos[0], `not valid YAML or JSON (${syntaxProblem(syntax.code)})`);
  const root = doc.contents;
  if (!isMap(root)) throw fail(root, 'the policy must be a mapping with the key repositories');
  const keys = keysOf(root.items, TOP_KEYS, 'the policy', fail);
  const repositories = keys.get('repositories');
  if (!repositories) throw fail(root, 'the policy has no repositories');
  const node = repositories.value as Node | null;
  if (!isMap(node)) throw fail(node ?? repositories, 'repositories must be a mapping of owner/name, owner/* or * to a list of rules');

  const entries = new Map<string, PolicyEntry>();
  for (const pair of node.items) {
    const key = scalarKey(pair, fail);
    const problem = repositoryKeyProblem(key);
    if (problem) throw fail(pair, problem);
    const lower = key.toLowerCase();
    const earlier = entries.get(lower);
    if (earlier) throw fail(pair, `${shown(key)} repeats ${shown(earlier.key)} (repositories are compared case-insensitively)`);
    entries.set(lower, { key, rules: parseRules(pair, key, fail, lines) });
  }
  return { entries };
}

type Fail = (node: Node | Pair | null | undefined, detail: string) => PolicyError;

function parseRules(pair: Pair, key: string, fail: Fail, lines: LineCounter): Rule[] {
  const list = pair.value as Node | null;
  if (!isSeq(list)) throw fail(list ?? pair, `${shown(key)} must be a list of rules`);
  return list.items.map((item, index) => {
    const node = item as Node | null;
    if (!isMap(node)) throw fail(node ?? list, `rule ${index} of ${shown(key)} must be a mapping (name, if, permissions, sign)`);
    const keys = keysOf(node.items, RULE_KEYS, 'a rule', fail);
    const conditions = keys.has('if') ? parseConditions(keys.get('if')!, fail) : [];
    const permissions = keys.has('permissions') ? parsePermissions(keys.get('permissions')!, fail) : undefined;
    const sign = keys.has('sign') ? parseSign(keys.get('sign')!, fail) : false;
    const name = keys.has('name') ? parseName(keys.get('name')!, fail) : undefined;
    return {
      index,
      line: lines.linePos(startOf(node) ?? 0).line,
      conditions,
      ...(permissions ? { permissions } : {}),
      sign,
      ...(name === undefined ? {} : { name }),
    };
  });
}

function parseConditions(pair: Pair, fail: Fail): Condition[] {
  const node = pair.value as Node | null;
  if (!isMap(node)) throw fail(node ?? pair, 'if must be a mapping of claim names to a value or a list of values');
  return node.items.map((condition) => {
    const claim = scalarKey(condition, fail);
    if (!CLAIM_NAME.test(claim)) throw fail(condition, `${shown(claim)} is not a claim name (letters, digits and underscores)`);
    const value = condition.value as Node | null;
    const patterns = isSeq(value) ? value.items.map((v) => v as Node | null) : [value];
    if (patterns.length === 0) throw fail(value, `the condition on ${claim} lists no value, so it could never hold`);
    const texts = patterns.map((p) => {
      if (isAlias(p)) throw fail(p, 'anchors and aliases are not supported');
      if (!isScalar(p) || typeof p.value !== 'string') {
        throw fail(p ?? condition, `the condition on ${claim} must give a string or a list of strings (quote numbers and words like true)`);
      }
      return p.value;
    });
    return { claim, test: anyOf(texts) };
  });
}

/** A value list: a set lookup when no value has a wildcard, else each matcher in turn. */
function anyOf(patterns: readonly string[]): Matcher {
  if (patterns.every((p) => !p.includes('*'))) {
    if (patterns.length === 1) {
      const only = patterns[0]!;
      return (value) => value === only;
    }
    const set = new Set(patterns);
    return (value) => set.has(value);
  }
  const matchers = patterns.map(compileGlob);
  if (matchers.length === 1) return matchers[0]!;
  return (value) => matchers.some((m) => m(value));
}

function parsePermissions(pair: Pair, fail: Fail): Permissions {
  const node = pair.value as Node | null;
  if (!isMap(node)) throw fail(node ?? pair, 'permissions must be a mapping of permission names to read or write');
  const out: Record<string, Access> = {};
  for (const item of node.items) {
    const name = scalarKey(item, fail);
    const value = item.value as Node | null;
    const access = isScalar(value) ? value.value : undefined;
    if (access !== 'read' && access !== 'write') throw fail(value ?? item, `permission ${shown(name)} must be read or write`);
    // The same vocabulary as TOKEN_PERMISSIONS: a misspelt name would be dropped silently by every
    // mint, and an organization permission must never reach a one-repository token.
    const problem = repositoryPermissionProblem(name, access);
    if (problem) throw fail(item, `permissions ${problem}`);
    out[name] = access;
  }
  return out;
}

function parseName(pair: Pair, fail: Fail): string {
  const node = pair.value as Node | null;
  if (!isScalar(node) || typeof node.value !== 'string' || !RULE_NAME.test(node.value)) {
    throw fail(node ?? pair, 'name must be a word of letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)');
  }
  return node.value;
}

function parseSign(pair: Pair, fail: Fail): boolean {
  const node = pair.value as Node | null;
  if (!isScalar(node) || typeof node.value !== 'boolean') throw fail(node ?? pair, 'sign must be true or false');
  return node.value;
}

/** The pairs of a mapping by key, refusing keys outside `allowed`. */
function keysOf(items: readonly Pair[], allowed: readonly string[], what: string, fail: Fail): Map<string, Pair> {
  const keys = new Map<string, Pair>();
  for (const pair of items) {
    const key = scalarKey(pair, fail);
    if (!allowed.includes(key)) throw fail(pair, `unknown key ${shown(key)} in ${what} (expected ${allowed.join(', ')})`);
    keys.set(key, pair);
  }
  return keys;
}

function scalarKey(pair: Pair, fail: Fail): string {
  const key = pair.key as Node | null;
  if (isAlias(key) || isAlias(pair.value)) throw fail(isAlias(key) ? key : (pair.value as Node), 'anchors and aliases are not supported');
  if (!isScalar(key) || typeof key.value !== 'string' || key.value === '') throw fail(key ?? pair, 'keys must be non-empty strings');
  return key.value;
}

/** `owner/name`, `owner/*` or `*`, with GitHub's rules for owners and names. */
function repositoryKeyProblem(key: string): string | undefined {
  if (key === '*') return undefined;
  const [owner, name, ...rest] = key.split('/');
  if (rest.length === 0 && isOwnerLogin(owner) && (name === '*' || isRepositoryName(name))) return undefined;
  return `${shown(key)} is not owner/name, owner/* or * (no other wildcard is allowed in a repository)`;
}

function startOf(node: Node | Pair | null | undefined): number | undefined {
  if (!node) return undefined;
  if ('range' in node && node.range) return node.range[0];
  if ('key' in node) return startOf(node.key as Node | null) ?? startOf(node.value as Node | null);
  return undefined;
}

/** The parser's error codes in words (its messages quote the source). */
function syntaxProblem(code: string): string {
  return code.toLowerCase().replace(/_/g, ' ');
}
