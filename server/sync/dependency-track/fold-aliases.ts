/*
 * Dependency-Track lists one vulnerability of one component once per id it knows it by: a GHSA
 * and its CVE are two findings, each naming the other as an alias. DefectDojo's FPF parser puts a
 * finding's id and its aliases in `vulnerability_ids`, and its default identity for the scan type
 * is a hash of component name, component version and those ids (`HASHCODE_FIELDS_PER_SCANNER`),
 * matched by unique id *or* hash (`unique_id_from_tool_or_hash_code`). The two findings share that
 * hash, so a reimport matches both to the older one and closes the other, though Dependency-Track
 * still reports it (seen on DefectDojo 3.2.0: DefectDojo's own sample export imported twice closes
 * 7 of its 22 findings). The same happens to an export that lists one finding twice.
 *
 * So before the upload, findings that DefectDojo would hash alike are folded into one: within a
 * component (name and version, as the hash reads them), findings whose id sets overlap become one
 * finding carrying every id as an alias. No two findings sent share a hash, and a finding
 * Dependency-Track drops closes exactly that finding.
 *
 * Every finding sent names its own id among its aliases too. DefectDojo before 2.57.3 (#14748)
 * reads `vulnerability_ids` from the aliases alone when there are any, and without aliases keeps
 * `vulnId` only for an NVD finding: two GHSA-only advisories of one component then hash alike
 * (no ids), and a reimport of the same export closes one of them (seen on DefectDojo 2.45.0).
 * From 2.57.3 the parser adds `vulnId` itself and de-duplicates, so the alias changes no hash.
 */

/** The alias keys DefectDojo's FPF parser reads into `vulnerability_ids` (dojo/tools/dependency_track/parser.py). */
const ALIAS_KEYS = ['cveId', 'sonatypeId', 'ghsaId', 'osvId', 'snykId', 'gsdId', 'vulnDbId'] as const;

/** Which finding of a group is kept: the CVE (NVD) first, the id most people search by, then GitHub's, then OSV's. */
const SOURCE_RANK: Readonly<Record<string, number>> = { NVD: 0, GITHUB: 1, OSV: 2 };

/** Dependency-Track's severities, worst first. */
const SEVERITY_RANK = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO', 'UNASSIGNED'];

type Json = Record<string, unknown>;

interface Member {
  readonly finding: Json;
  readonly vulnerability: Json;
  readonly vulnId: string;
  readonly ids: ReadonlySet<string>;
  readonly matrix: string | undefined;
}

export interface FoldedExport {
  /** The export to upload: every key as exported, `findings` folded. */
  readonly document: Json;
  /** Findings in the export as Dependency-Track made it. */
  readonly exported: number;
  /** Findings in the folded export. */
  readonly findings: number;
  /** For each kept finding's `matrix`, the matrices of the findings folded into it. */
  readonly foldedInto: ReadonlyMap<string, readonly string[]>;
}

const asObject = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);

/** The ids DefectDojo reads from a finding's aliases: every alias under a key it knows. */
function aliasIds(vulnerability: Json): Set<string> {
  const ids = new Set<string>();
  for (const alias of Array.isArray(vulnerability.aliases) ? vulnerability.aliases : []) {
    const entry = asObject(alias);
    for (const key of ALIAS_KEYS) if (typeof entry?.[key] === 'string' && entry[key] !== '') ids.add(entry[key]);
  }
  return ids;
}

/** The alias key an id is written under (DefectDojo reads every key alike; this keeps the export readable). */
function aliasKeyOf(id: string): (typeof ALIAS_KEYS)[number] {
  if (/^CVE-/i.test(id)) return 'cveId';
  if (/^GHSA-/i.test(id)) return 'ghsaId';
  if (/^SNYK-/i.test(id)) return 'snykId';
  if (/^sonatype-/i.test(id)) return 'sonatypeId';
  if (/^GSD-/i.test(id)) return 'gsdId';
  return 'osvId';
}

/** A finding as DefectDojo's parser needs it, or undefined: one it would refuse is sent as it is, for DefectDojo to say why. */
function memberOf(raw: unknown): Member | undefined {
  const finding = asObject(raw);
  const vulnerability = asObject(finding?.vulnerability);
  const component = asObject(finding?.component);
  if (!finding || !vulnerability || !component || typeof component.name !== 'string' || typeof vulnerability.vulnId !== 'string') return undefined;
  const matrix = typeof vulnerability.matrix === 'string' ? vulnerability.matrix : typeof finding.matrix === 'string' ? finding.matrix : undefined;
  return { finding, vulnerability, vulnId: vulnerability.vulnId, ids: new Set([vulnerability.vulnId, ...aliasIds(vulnerability)]), matrix };
}

/** The component as DefectDojo's hash reads it: its name, then Python's `str()` of its version. */
function componentKey(finding: Json): string {
  const component = finding.component as Json;
  const version = component.version;
  return `${component.name as string}\u0000${version === undefined || version === null ? 'None' : String(version)}`;
}

const rankOf = (m: Member) => SOURCE_RANK[String(m.vulnerability.source)] ?? 3;
const severityRank = (v: unknown) => {
  const at = SEVERITY_RANK.indexOf(String(v).toUpperCase());
  return at < 0 ? SEVERITY_RANK.length : at;
};

/**
 * A finding as exported, with its own id added to its aliases when they lack it (see above);
 * unchanged otherwise, so an export that already names it is sent byte for byte.
 */
function withOwnId(member: Member): Json {
  if (member.vulnId === '' || aliasIds(member.vulnerability).has(member.vulnId)) return member.finding;
  const aliases = Array.isArray(member.vulnerability.aliases) ? member.vulnerability.aliases : [];
  return { ...member.finding, vulnerability: { ...member.vulnerability, aliases: [...aliases, { [aliasKeyOf(member.vulnId)]: member.vulnId }] } };
}

/** One finding for a group: the kept one, with every id of the group (its own too) as an alias and the group's worst severity. */
function merged(group: readonly Member[]): Json {
  const [kept, ...others] = [...group].sort((a, b) => rankOf(a) - rankOf(b) || a.vulnId.localeCompare(b.vulnId) || (a.matrix ?? '').localeCompare(b.matrix ?? ''));
  if (others.length === 0) return withOwnId(kept!);
  const ids = new Set(group.flatMap((m) => [...m.ids]));
  const worst = group.map((m) => m.vulnerability.severity).sort((a, b) => severityRank(a) - severityRank(b))[0];
  // A false positive in Dependency-Track is one analysis of one of the ids: the folded finding is
  // one only when every finding folded into it is.
  const allFalsePositive = group.every((m) => asObject(m.finding.analysis)?.state === 'FALSE_POSITIVE');
  const analysis = asObject(kept!.finding.analysis);
  return {
    ...kept!.finding,
    vulnerability: { ...kept!.vulnerability, severity: worst, aliases: [...ids].filter((id) => id !== '').sort().map((id) => ({ [aliasKeyOf(id)]: id })) },
    ...(analysis && analysis.state === 'FALSE_POSITIVE' && !allFalsePositive ? { analysis: { ...analysis, state: 'NOT_SET' } } : {}),
  };
}

/** The export with DefectDojo-alike findings folded (see above); a document that is not an FPF export is returned as it is. */
export function foldAliases(document: unknown): FoldedExport {
  const doc = asObject(document);
  const list = doc && Array.isArray(doc.findings) ? (doc.findings as unknown[]) : undefined;
  if (!doc || !list) return { document: doc ?? {}, exported: 0, findings: 0, foldedInto: new Map() };
  // Groups in the export's order; within a component, every group whose ids overlap a finding's is merged into one.
  type Slot = { readonly raw: unknown } | { readonly members: Member[]; readonly ids: Set<string> } | undefined;
  const slots: Slot[] = [];
  const byComponent = new Map<string, number[]>();
  for (const raw of list) {
    const member = memberOf(raw);
    if (!member) {
      slots.push({ raw });
      continue;
    }
    const key = componentKey(member.finding);
    const open = byComponent.get(key) ?? byComponent.set(key, []).get(key)!;
    const overlapping = open.filter((at) => [...member.ids].some((id) => (slots[at] as { ids: Set<string> }).ids.has(id)));
    if (overlapping.length === 0) {
      open.push(slots.push({ members: [member], ids: new Set(member.ids) }) - 1);
      continue;
    }
    const [first, ...rest] = overlapping as [number, ...number[]];
    const into = slots[first] as { members: Member[]; ids: Set<string> };
    into.members.push(member);
    for (const id of member.ids) into.ids.add(id);
    for (const at of rest) {
      const other = slots[at] as { members: Member[]; ids: Set<string> };
      into.members.push(...other.members);
      for (const id of other.ids) into.ids.add(id);
      slots[at] = undefined;
      open.splice(open.indexOf(at), 1);
    }
  }
  const foldedInto = new Map<string, string[]>();
  const findings: unknown[] = [];
  for (const slot of slots) {
    if (slot === undefined) continue;
    if ('raw' in slot) {
      findings.push(slot.raw);
      continue;
    }
    const finding = merged(slot.members);
    findings.push(finding);
    const keptMatrix = memberOf(finding)?.matrix;
    const others = [...new Set(slot.members.map((m) => m.matrix).filter((m): m is string => m !== undefined && m !== keptMatrix))];
    if (keptMatrix && others.length > 0) foldedInto.set(keptMatrix, others);
  }
  return { document: { ...doc, findings }, exported: list.length, findings: findings.length, foldedInto };
}
