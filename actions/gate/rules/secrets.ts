import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultLocation } from '../reports/locations.js';
import type { SarifResult, SarifRule, SarifRun } from '../reports/sarif.js';
import { ruleOf } from './severity.js';

/**
 * "Secret-like" is decided from what the report says, so that a scanner the gate has never heard
 * of is covered when it describes its findings the usual way:
 * - the tool: its driver name or MegaLinter key names a secret scanner, or says "secret";
 * - the rule: its id, name or short description speaks of secrets, passwords, credentials, API,
 *   access or private keys, or high-entropy strings (checkov `CKV_SECRET_*`,
 *   KICS "Passwords And Secrets - …", Semgrep `….secrets.…`, CodeQL `…/hardcoded-credentials`);
 * - tags (`properties.tags` of the rule or the result) or `properties.category` saying so, or
 *   naming CWE-798, 259, 260 or 321 (hard-coded credentials, passwords and keys) — Trivy tags its
 *   secret rules `secret`, Semgrep and CodeQL tag the CWE;
 * - a rule's relationship to one of those CWEs (KICS links each rule to its CWE taxon).
 */
const SECRET_TOOL = /secret|gitleaks|trufflehog|ggshield|nosey-?parker|talisman|whispers|kingfisher/i;
// "hard-coded" alone is not enough: bandit's hardcoded_tmp_directory is no secret.
const SECRET_WORDS = /secret|passw(?:or)?d|credential|api[-_ ]?key|access[-_ ]?key|private[-_ ]?key|high[-_ ]?entropy/i;
const SECRET_CWE = /\bcwe[-_/ ]?0*(?:798|259|260|321)\b/i;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const says = (value: unknown): boolean => SECRET_WORDS.test(text(value)) || SECRET_CWE.test(text(value));

function propertiesSay(properties: Record<string, unknown> | undefined): boolean {
  if (!properties) return false;
  const tags = properties.tags;
  return (Array.isArray(tags) && tags.some(says)) || says(properties.category);
}

function ruleSays(rule: SarifRule): boolean {
  const description = (rule.shortDescription as { text?: unknown } | undefined)?.text;
  if ([rule.id, rule.name, description].some((v) => SECRET_WORDS.test(text(v)))) return true;
  if (propertiesSay(rule.properties)) return true;
  const relationships = Array.isArray(rule.relationships) ? (rule.relationships as { target?: { id?: unknown; toolComponent?: { name?: unknown } } }[]) : [];
  return relationships.some((r) => /^cwe$/i.test(text(r.target?.toolComponent?.name)) && SECRET_CWE.test(`CWE-${text(r.target?.id)}`));
}

/** Whether one run's results are secret-like; each rule (by index and id) is judged once. */
export class SecretLike {
  private readonly tool: boolean;
  /** Verdicts by `ruleIndex` (a number) or rule id (a string), or a composite key for `rule` references. */
  private readonly rules = new Map<number | string, boolean>();

  constructor(
    private readonly run: SarifRun,
    linterKey: string | undefined,
  ) {
    this.tool = SECRET_TOOL.test(run.tool.driver.name ?? '') || SECRET_TOOL.test(linterKey ?? '');
  }

  test(result: SarifResult): boolean {
    if (this.tool) return true;
    if (propertiesSay(result.properties)) return true;
    const id = text(result.ruleId ?? result.rule?.id);
    // Called for every result: the common shapes (a ruleIndex, or only a ruleId) build no key.
    const key = result.rule
      ? `\0${result.rule.toolComponent?.index ?? ''}/${result.rule.index ?? result.ruleIndex ?? ''}/${id}`
      : typeof result.ruleIndex === 'number'
        ? result.ruleIndex
        : id;
    let verdict = this.rules.get(key);
    if (verdict === undefined) {
      const rule = ruleOf(this.run, result);
      verdict = SECRET_WORDS.test(id) || (rule !== undefined && ruleSays(rule));
      this.rules.set(key, verdict);
    }
    return verdict;
  }
}

const BASE64 = '[A-Za-z0-9+/=]';
/** One SOPS value: AES256-GCM data, IV, tag and type. */
const SOPS_VALUE = new RegExp(`ENC\\[AES256_GCM,data:${BASE64}*,iv:${BASE64}+,tag:${BASE64}+,type:[a-z]+\\]`, 'g');
/**
 * A line that holds a SOPS value and nothing else but its key and punctuation: `key: ENC[…]`,
 * `- ENC[…]`, `#ENC[…]` (an encrypted comment), `"key": "ENC[…]",`, `KEY=ENC[…]`, `key = ENC[…]`.
 */
const ONLY_VALUE = /^\s*(?:-\s+)?(?:#\s*)?(?:(?:"[^"]*"|'[^']*'|[^\s"'#:=][^"'#:=]*?)\s*[:=]\s*)?(?:"\0"|'\0'|\0)\s*,?\s*$/;

/** ISO 8601 (YAML, dotenv) or seconds since the epoch (older JSON files). */
const TIMESTAMP = /^(?:\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)|\d+(?:\.\d+)?)$/;
/** An armour header such as `Version: GnuPG v1`. */
const ARMOUR_HEADER = '[A-Za-z-]+: [^\\\\]*?';

/** A SOPS file's own metadata (the `sops:` block): what each key may hold. */
const METADATA: Record<string, RegExp> = {
  mac: /^ENC\[AES256_GCM,[^\]]*\]$/,
  lastmodified: TIMESTAMP,
  created_at: TIMESTAMP,
  fp: /^[A-Fa-f0-9]{16,40}$/,
  recipient: /^age1[0-9a-z]{20,}$/,
  arn: /^arn:aws[\w-]*:kms:[\w-]+:\d+:(?:key|alias)\/[\w/-]+$/,
  resource_id: /^projects\/[\w-]+\/locations\/[\w-]+\/keyRings\/[\w-]+\/cryptoKeys\/[\w-]+$/,
  version: /^[\w.]+$/,
  // The data key encrypted to a recipient: an armoured block, KMS base64, or Vault's ciphertext.
  enc: new RegExp(`^(?:[|>][-+]?|${BASE64}{16,}|vault:v\\d+:${BASE64}+|-----BEGIN [A-Z ]+-----(?:\\\\n(?:${ARMOUR_HEADER}|${BASE64}*))+\\\\n-----END [A-Z ]+-----(?:\\\\n)?)$`),
};
/** A line of an armoured block (`enc: |`): its header, base64 body, checksum, or a blank line. */
const ARMOUR_LINE = new RegExp(`^\\s*(?:-----(?:BEGIN|END) [A-Z ]+-----|${ARMOUR_HEADER}|${BASE64}*)\\s*$`);

/** `key: value`, `"key": "value",`, `key = value`, `key=value`, the key without dotenv/INI nesting. */
function keyValue(line: string): { key: string; value: string } | undefined {
  const match = /^\s*(?:-\s+)?(?:"([\w.-]+)"|([\w.-]+))\s*[:=]\s*(.*?)\s*,?\s*$/.exec(line);
  if (!match) return undefined;
  const key = (match[1] ?? match[2]!).replace(/^sops_/, '').replace(/^.*__map_/, '');
  const value = match[3]!.replace(/^(["'])(.*)\1$/, '$2');
  return { key, value };
}

/**
 * Line numbers (1-based) of a SOPS file's metadata that hold only key material: the encrypted
 * data keys of every recipient (armoured PGP or age blocks, KMS and Vault ciphertexts), the MAC,
 * fingerprints, age recipients, KMS ARNs, timestamps, the format version. The block is `sops:` in YAML, `"sops": {`
 * in JSON, `[sops]` in INI, and the `sops_` keys of a dotenv file. Anything else in it (a key the
 * list does not know, a value of the wrong shape) is not metadata and still gates.
 */
export function sopsMetadataLines(lines: readonly string[]): Set<number> {
  const found = new Set<number>();
  let block: 'yaml' | 'json' | 'ini' | undefined;
  let jsonIndent = '';
  let armourIndent = -1;
  lines.forEach((line, i) => {
    if (armourIndent >= 0) {
      const indent = /^\s*/.exec(line)![0].length;
      if ((indent > armourIndent || line.trim() === '') && ARMOUR_LINE.test(line)) {
        found.add(i + 1);
        return;
      }
      armourIndent = -1;
    }
    if (block === 'yaml' && /^[^\s#]/.test(line)) block = undefined;
    else if (block === 'json' && line.startsWith(`${jsonIndent}}`)) block = undefined;
    else if (block === 'ini' && /^\s*\[/.test(line)) block = undefined;
    if (/^sops:\s*$/.test(line)) block = 'yaml';
    else if (/^(\s*)"sops":\s*\{\s*$/.test(line)) [block, jsonIndent] = ['json', /^\s*/.exec(line)![0]];
    else if (/^\s*\[sops\]\s*$/.test(line)) block = 'ini';
    if (!block && !/^sops_\w+=/.test(line)) return;
    const pair = keyValue(line);
    if (!pair || !METADATA[pair.key]?.test(pair.value)) return;
    found.add(i + 1);
    if (block === 'yaml' && pair.key === 'enc' && /^[|>]/.test(pair.value)) armourIndent = /^\s*/.exec(line)![0].length;
  });
  return found;
}

interface SopsFile {
  readonly lines: string[];
  /** Metadata lines, worked out when a finding first needs them. */
  metadata?: Set<number>;
}

/**
 * Whether a finding's line in the working-tree file holds only SOPS ciphertext: a SOPS value
 * alone on its line, or a SOPS file's key-material metadata (`sopsMetadataLines`). The SARIF snippet is never
 * trusted (scanners redact it); the file is read instead, once.
 */
export class SopsDetector {
  private readonly files = new Map<string, SopsFile | null>();

  /** `root`: the directory the locations' paths are relative to (the git top level). */
  constructor(private readonly root: string) {}

  /** `location`: a mapped one (classify never asks about a path the head does not have). */
  isEncrypted(location: ResultLocation): boolean {
    if (!location.path || location.startLine === undefined) return false;
    const file = this.file(location.path);
    if (!file) return false;
    // The finding's own line only: a plaintext secret on a neighbouring line still gates.
    const line = file.lines[location.startLine - 1];
    if (line === undefined) return false;
    const masked = line.replace(SOPS_VALUE, '\0');
    if (masked !== line && ONLY_VALUE.test(masked)) return true;
    file.metadata ??= sopsMetadataLines(file.lines);
    return file.metadata.has(location.startLine);
  }

  private file(path: string): SopsFile | null {
    let file = this.files.get(path);
    if (file === undefined) {
      file = null;
      try {
        if (!path.startsWith('/') && !path.split('/').includes('..')) {
          const content = readFileSync(join(this.root, path), 'utf8');
          // Only files that hold a SOPS value can hold SOPS ciphertext: the rest are not kept.
          if (content.includes('ENC[AES256_GCM,')) file = { lines: content.split(/\r?\n/) };
        }
      } catch {
        file = null;
      }
      this.files.set(path, file);
    }
    return file;
  }
}
