import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, type Env } from '../../config-error.js';
import { jsonValue } from '../../http/json.js';
import { parseTokenPermissions } from '../settings.js';
import { decide } from './evaluate.js';
import type { Policy } from './model.js';
import { parsePolicy, PolicyError } from './parse.js';

export const USAGE = `usage: gatehouse-policy check <policy file> [--claims <claims.json>]

Validates a BROKER_POLICY file (YAML or JSON). With --claims (a JSON object of a token's claims,
"repository" included), says which entry and rule apply and the permissions that result.
Exit 0: valid (and, with --claims, a rule applies); 1: invalid policy, claims or arguments;
2: valid, but the broker would refuse the token (policy_denied).`;

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_DENIED = 2;

export interface CheckIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** `gatehouse-policy check`: returns the exit code; relative paths resolve against `cwd`. */
export async function policyCommand(argv: readonly string[], env: Env, cwd: string, io: CheckIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: { claims: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    io.err(`gatehouse-policy: ${(err as Error).message}\n${USAGE}`);
    return EXIT_INVALID;
  }
  if (parsed.values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  const [command, file, ...extra] = parsed.positionals;
  if (command !== 'check' || !file || extra.length > 0) {
    io.err(USAGE);
    return EXIT_INVALID;
  }

  const text = await readText(resolve(cwd, file), io);
  if (text === undefined) return EXIT_INVALID;
  let policy: Policy;
  try {
    policy = parsePolicy(text);
  } catch (err) {
    if (!(err instanceof PolicyError)) throw err;
    // file:line:column, as compilers print it (editors and CI problem matchers link it).
    io.err(`${file}:${err.line}:${err.column}: ${err.detail}`);
    return EXIT_INVALID;
  }
  const rules = [...policy.entries.values()].reduce((n, e) => n + e.rules.length, 0);
  io.out(`${file}: valid (${policy.entries.size} entries, ${rules} rules)`);
  if (parsed.values.claims === undefined) return EXIT_OK;

  const claimsText = await readText(resolve(cwd, parsed.values.claims), io);
  if (claimsText === undefined) return EXIT_INVALID;
  const claims = parseClaims(claimsText);
  if (typeof claims === 'string') {
    io.err(`${parsed.values.claims}: ${claims}`);
    return EXIT_INVALID;
  }
  return explain(policy, claims, env, io);
}

function explain(policy: Policy, claims: Record<string, unknown>, env: Env, io: CheckIo): number {
  const repository = claims.repository as string;
  const decision = decide(policy, repository, claims);
  const lineOf = (entryKey: string | undefined, index: number): number | undefined =>
    entryKey === undefined ? undefined : policy.entries.get(entryKey.toLowerCase())?.rules[index]?.line;
  for (const tried of decision.tried) io.out(`  rule ${tried.rule} (line ${lineOf(decision.entry, tried.rule)}) does not hold: ${tried.claim}`);
  if (!decision.allowed) {
    io.out(`${repository}: refused, 403 policy_denied (${decision.reason})${decision.entry === undefined ? ': no entry covers it' : ` under entry ${JSON.stringify(decision.entry)}`}`);
    return EXIT_DENIED;
  }
  const { rule } = decision;
  io.out(`${repository}: entry ${JSON.stringify(decision.entry)}, rule ${rule.index}${rule.name === undefined ? '' : ` (${rule.name})`} (line ${rule.line}) applies`);
  let permissions = rule.permissions;
  let source = "the rule's own";
  if (!permissions) {
    try {
      permissions = parseTokenPermissions(env.TOKEN_PERMISSIONS);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      io.err(`${err.message}: the rule names no permissions, so the broker would answer 400 invalid_token_permissions`);
      return EXIT_INVALID;
    }
    source = env.TOKEN_PERMISSIONS?.trim() ? 'TOKEN_PERMISSIONS' : 'TOKEN_PERMISSIONS default';
  }
  const list = Object.entries(permissions).map(([name, access]) => `${name}: ${access}`);
  io.out(`permissions: ${list.join(', ') || 'none (the token gets metadata: read)'} (${source}; a request's permissions and the installation's grant can only narrow them)`);
  io.out(`sign: ${rule.sign ? 'yes, /sign accepts this token' : 'no'}`);
  return EXIT_OK;
}

async function readText(path: string, io: CheckIo): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    io.err(`gatehouse-policy: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return undefined;
  }
}

/** The claims file: a JSON object with a string `repository` (`owner/name`), or why not. */
function parseClaims(text: string): Record<string, unknown> | string {
  const doc = jsonValue(text);
  if (doc === undefined) return 'not valid JSON';
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return 'must be a JSON object of claims';
  const repository = (doc as Record<string, unknown>).repository;
  if (typeof repository !== 'string' || !/^[^/\s]+\/[^/\s]+$/.test(repository)) return 'must have a "repository" claim (owner/name)';
  return doc as Record<string, unknown>;
}
