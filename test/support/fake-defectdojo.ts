import { titlecase } from './titlecase.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { answerAfter, Faults, playFault, sendJson } from './faults.js';
import { listen, readBody, type Listening } from './servers.js';
import { releaseBehaviour, type Algorithm, type Release, type ReleaseBehaviour } from './defectdojo-releases.js';

export type DefectDojoRoute = 'reimport' | 'products' | 'findings' | 'finding' | 'finding_tags' | 'user_profile' | 'product_type' | 'product_types' | 'tests';

/** DefectDojo's scan types for the parsers this fake reads, as DefectDojo spells them (a release before a parser lacks it: `defectdojo-releases.ts`). */
export const KNOWN_SCAN_TYPES = [
  'Dependency Track Finding Packaging Format (FPF) Export',
  'Github SAST Scan',
  'Github Vulnerability Scan',
  'Github Secrets Detection Report Scan',
  'SonarQube Scan',
  'SonarQube Scan detailed',
] as const;

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
type Severity = (typeof SEVERITIES)[number];

/** What a parser stand-in reads from a report: the DefectDojo `Finding` fields that matter here. */
interface Parsed {
  readonly title: string;
  readonly severity: Severity;
  readonly active: boolean;
  readonly uniqueIdFromTool?: string;
  readonly vulnIdFromTool?: string;
  readonly componentName?: string;
  readonly componentVersion?: string;
  readonly filePath?: string;
  readonly line?: number;
  readonly cwe?: number;
  readonly vulnerabilityIds?: readonly string[];
  readonly description?: string;
  readonly cvssv3Score?: number;
  readonly cvssv3?: string;
  readonly epssScore?: number;
  readonly epssPercentile?: number;
  /** Set by a parser that reads the tool's own false-positive decision (FPF `analysis.state`). */
  readonly falseP?: boolean;
}

export interface FakeFinding extends Omit<Parsed, 'active'> {
  /** DefectDojo's `hash_code`, computed as its `compute_hash_code` does with the default settings. */
  readonly hashCode: string;
  /** Changes when the finding is re-created (`recreate`), as a new DefectDojo row would. */
  id: number;
  active: boolean;
  /** Stored lowercased, as DefectDojo's tag field does. */
  tags: string[];
  /** DefectDojo's status fields (`Finding` model); changed only through `setStatus` and the reimport. */
  isMitigated?: boolean;
  /** `mitigated`, epoch ms; null when not mitigated. */
  mitigated?: number | null;
  falseP?: boolean;
  outOfScope?: boolean;
  riskAccepted?: boolean;
  duplicate?: boolean;
  /** `last_status_update`, epoch ms: set by DefectDojo's `update_finding_status` on every status change. */
  lastStatusUpdate?: number;
}

/** The status fields a person changes in DefectDojo's UI or API. */
export type FindingStatusChange = Partial<Pick<FakeFinding, 'active' | 'isMitigated' | 'falseP' | 'outOfScope' | 'riskAccepted' | 'duplicate'>>;

/**
 * DefectDojo's `update_finding_status` (dojo/finding/helper.py), run on a save that changed a
 * status field: mitigating stamps `mitigated`, un-mitigating clears it; (re)activating clears
 * false positive, out of scope and mitigation; false positive or out of scope imply mitigated and
 * inactive; every such save stamps `last_status_update`.
 */
export function applyStatusChange(finding: FakeFinding, change: FindingStatusChange, now: number): void {
  const changed = (Object.keys(change) as (keyof FindingStatusChange)[]).filter((k) => change[k] !== undefined && Boolean(finding[k]) !== change[k]);
  Object.assign(finding, change);
  if (changed.includes('isMitigated')) finding.mitigated = finding.isMitigated ? (finding.mitigated ?? now) : null;
  if (finding.isMitigated && !finding.mitigated) finding.mitigated = now;
  if (changed.includes('active') && finding.active) {
    finding.falseP = false;
    finding.outOfScope = false;
    finding.isMitigated = false;
    finding.mitigated = null;
  }
  if ((changed.includes('falseP') || changed.includes('outOfScope')) && (finding.falseP || finding.outOfScope)) {
    finding.mitigated = finding.mitigated ?? now;
    finding.isMitigated = true;
    finding.active = false;
  }
  if (changed.length > 0) finding.lastStatusUpdate = now;
}

export interface FakeTest {
  readonly id: number;
  readonly product: string;
  readonly engagement: string;
  readonly scanType: string;
  readonly title: string | undefined;
  /** Keyed by `unique_id_from_tool`, else by `hash_code` (a later duplicate key gets `#<id>`). */
  readonly findings: Map<string, FakeFinding>;
  /** `update_test_meta`: each reimport writes what it sent, the empty string for what it did not. */
  version: string;
  buildId: string;
  commitHash: string;
  branchTag: string;
  /** The test's engagement id (TestSerializer's `engagement`). */
  readonly engagementId: number;
}

/** ApiFindingFilter's boolean filters on status fields, by query name. */
const STATUS_FILTERS = { false_p: 'falseP', risk_accepted: 'riskAccepted', is_mitigated: 'isMitigated', out_of_scope: 'outOfScope', duplicate: 'duplicate' } as const;

/** Test model column lengths: a longer value fails in the database, which DefectDojo answers with 500. */
const TEST_META_MAX = { version: 100, build_id: 150, commit_hash: 150, branch_tag: 150 } as const;
/** DRF's BooleanField: the words it reads as true or false; anything else is refused. */
const DRF_TRUE = new Set(['true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 'yes', 'Yes', 'YES', 'y', 'Y']);
const DRF_FALSE = new Set(['false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 'no', 'No', 'NO', 'n', 'N']);

export interface RecordedUpload {
  readonly fields: Record<string, string>;
  readonly filename: string;
  /** The uploaded report, kept unless `keepUploads` is off (the benchmark). */
  readonly text?: string;
  readonly bytes: number;
}

/** A parser's crash (KeyError, AttributeError…): DefectDojo's exception handler answers 500 without details. */
class ParserCrash extends Error {}
/** A parser's ValueError: DefectDojo answers 400 with the message (`{"message": "[\"…\"]"}`). */
class ParserValueError extends Error {}

/** settings.FILE_UPLOAD_TYPES of DefectDojo 3.2.0, which the reimport's file field allows (checked on the real server: `.fpf` is refused). */
const ALLOWED_EXTENSIONS = ['xml', 'csv', 'nessus', 'json', 'jsonl', 'html', 'js', 'zip', 'xlsx', 'txt', 'sarif', 'fpr', 'md', 'log', 'fvdl'];

/** What DefectDojo's `ErrorPageProductAnnouncement` adds as `pro` to error answers of its own exception handler (and to a reimport's 201). */
const PRO_NOTICE = 'Pro comes with support. Try today for free or email us at hello@defectdojo.com';

/** Python's `str()` of a one-string list, as `str(ValidationError(msg))` reads: quoted with ' unless the text holds one. */
function pythonList(text: string): string {
  const escaped = text.replace(/\\/g, '\\\\');
  return text.includes("'") && !text.includes('"') ? `["${escaped}"]` : `['${escaped.replace(/'/g, "\\'")}']`;
}

/** The alias keys DefectDojo's FPF parser reads into `vulnerability_ids`. */
const FPF_ALIAS_KEYS = ['cveId', 'sonatypeId', 'ghsaId', 'osvId', 'snykId', 'gsdId', 'vulnDbId'] as const;

function title(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1).toLowerCase();
}

function severityOf(value: unknown): Severity {
  const v = String(value ?? '').toLowerCase();
  if (v === 'moderate') return 'medium';
  return (SEVERITIES as readonly string[]).includes(v) ? (v as Severity) : 'info';
}

function findVulnerabilityAlerts(node: unknown): unknown {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findVulnerabilityAlerts(item);
      if (found) return found;
    }
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'vulnerabilityAlerts') return value;
      const found = findVulnerabilityAlerts(value);
      if (found) return found;
    }
  }
  return undefined;
}


/**
 * Each parser as DefectDojo's behaves on the inputs that matter here, including where it crashes
 * (a null `security_severity_level`, a missing alert `id`, a null list) and what it deduplicates on.
 */
const PARSERS: Record<string, (data: unknown, release: ReleaseBehaviour) => Parsed[]> = {
  // dojo/tools/dependency_track/parser.py: the title "<name>:<version> affected by: <vulnId> (<source>)";
  // `vulnerability_ids` the vulnId and every alias under the seven keys it reads (so a GHSA and its
  // CVE share a hash, as on the real server); before 2.57.3 the aliases alone when there are any,
  // else the vulnId of an NVD finding only; the `matrix` as unique id from 2.56.0; a missing node is
  // a ValueError (answered 400); an analysis of FALSE_POSITIVE makes the finding a mitigated false
  // positive; suppression is not read.
  'Dependency Track Finding Packaging Format (FPF) Export': (data, release) => {
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ParserCrash('not an FPF document');
    const findings = (data as { findings?: unknown }).findings;
    if (!Array.isArray(findings) || findings.length === 0) return [];
    type Fpf = { matrix?: string; component?: { name?: string; version?: string | null }; vulnerability?: { vulnId?: string; uuid?: string; source?: string; severity?: string; cweId?: number | null; matrix?: string; aliases?: Record<string, string>[] | null }; analysis?: { state?: string } };
    return findings.map((f: Fpf) => {
      const { component, vulnerability } = f;
      if (!vulnerability) throw new ParserValueError("Missing 'vulnerability' node from finding!");
      if (vulnerability.vulnId === undefined) throw new ParserValueError("Missing 'vulnId' node from vulnerability!");
      if (vulnerability.source === undefined) throw new ParserValueError("Missing 'source' node from vulnerability!");
      if (!component) throw new ParserValueError("Missing 'component' node from finding!");
      if (component.name === undefined) throw new ParserValueError("Missing 'name' node from component!");
      const version = component.version ?? undefined;
      const uid = release.fpfUniqueId ? (vulnerability.matrix ?? f.matrix) : undefined;
      const aliases = new Set<string>();
      for (const alias of vulnerability.aliases ?? []) for (const key of FPF_ALIAS_KEYS) if (alias?.[key]) aliases.add(alias[key]);
      // Before 2.57.3: `if aliases: ids = aliases else: [vulnId] if source.upper() == "NVD" else None`.
      const ids = !release.fpfIdsFromAliases ? new Set([vulnerability.vulnId, ...aliases]) : (vulnerability.aliases ?? []).length > 0 ? aliases : String(vulnerability.source).toUpperCase() === 'NVD' ? new Set([vulnerability.vulnId]) : new Set<string>();
      const falseP = f.analysis?.state === 'FALSE_POSITIVE';
      return {
        title: `${component.name}:${version ?? ''} affected by: ${vulnerability.vulnId} (${vulnerability.source})`,
        severity: severityOf(vulnerability.severity),
        active: !falseP,
        ...(falseP ? { falseP } : {}),
        ...(uid ? { uniqueIdFromTool: uid } : {}),
        ...(vulnerability.uuid ? { vulnIdFromTool: vulnerability.uuid } : {}),
        componentName: component.name,
        ...(version !== undefined ? { componentVersion: version } : {}),
        cwe: vulnerability.cweId ?? 1035,
        vulnerabilityIds: [...ids],
      };
    });
  },
  // The parser reads rule and most_recent_instance.location; the alert number is unique_id_from_tool from 2.57.0.
  'Github SAST Scan': (data, release) => {
    if (!Array.isArray(data)) throw new ParserCrash('Invalid SAST report format, expected a JSON list of alerts.');
    type Sast = { number?: number; state?: string; rule?: Record<string, unknown>; most_recent_instance?: { location?: { path?: string; start_line?: number } } };
    return data.map((alert: Sast) => {
      const rule = alert.rule ?? {};
      const level = 'security_severity_level' in rule ? rule.security_severity_level : 'Info';
      if (typeof level !== 'string') throw new ParserCrash("'NoneType' object has no attribute 'title'");
      const location = alert.most_recent_instance?.location ?? {};
      return {
        title: `${String(rule.description)} (${String(rule.id)})`,
        severity: severityOf(title(level)),
        active: alert.state === 'open',
        ...(release.sastUniqueId && alert.number !== undefined && alert.number !== null ? { uniqueIdFromTool: String(alert.number) } : {}),
        ...(typeof rule.id === 'string' ? { vulnIdFromTool: rule.id } : {}),
        ...(location.path ? { filePath: location.path } : {}),
        ...(typeof location.start_line === 'number' ? { line: location.start_line } : {}),
      };
    });
  },
  // The GraphQL shape: `id` is unique_id_from_tool (alerts sharing one are merged),
  // `vulnerableRequirements` the component version, `cvssSeverities.cvssV3` before the deprecated
  // `cvss`, `epss` as an object.
  'Github Vulnerability Scan': (data) => {
    if (!data || typeof data !== 'object' || !('data' in data)) throw new ParserValueError('Invalid report format, expected a GitHub RepositoryVulnerabilityAlert GraphQL query response.');
    const alerts = findVulnerabilityAlerts((data as { data: unknown }).data) as { nodes?: unknown } | undefined;
    if (!alerts) throw new ParserValueError("Invalid report, no 'vulnerabilityAlerts' node found");
    const nodes = alerts.nodes;
    if (!Array.isArray(nodes)) throw new ParserCrash("'NoneType' object is not iterable");
    type Node = { id?: string; state?: string; vulnerableManifestPath?: string; vulnerableRequirements?: string; securityVulnerability: { severity?: string; package?: { name?: string }; advisory: Record<string, any> } };
    const dupes = new Map<string, Parsed>();
    for (const alert of nodes as Node[]) {
      if (alert.id === undefined) throw new ParserCrash("KeyError: 'id'");
      const advisory = alert.securityVulnerability?.advisory;
      if (!advisory || typeof advisory.summary !== 'string' || !('description' in advisory)) throw new ParserCrash("KeyError: 'summary'");
      for (const list of ['references', 'identifiers'] as const) if (list in advisory && !Array.isArray(advisory[list])) throw new ParserCrash("'NoneType' object is not iterable");
      if (dupes.has(alert.id)) continue;
      const ids = ((advisory.identifiers ?? []) as { value?: string }[]).map((i) => i.value).filter((v): v is string => Boolean(v));
      const cwe = /^CWE-(\d+)$/.exec(String(advisory.cwes?.nodes?.[0]?.cweId ?? ''));
      const req = alert.vulnerableRequirements ?? '';
      const cvss = advisory.cvssSeverities ? advisory.cvssSeverities.cvssV3 : advisory.cvss;
      const epss = advisory.epss ?? {};
      dupes.set(alert.id, {
        title: advisory.summary,
        severity: severityOf(alert.securityVulnerability.severity ?? 'MODERATE'),
        active: alert.state !== 'FIXED' && alert.state !== 'DISMISSED',
        uniqueIdFromTool: alert.id,
        description: String(advisory.description),
        ...(alert.vulnerableManifestPath ? { filePath: alert.vulnerableManifestPath } : {}),
        ...(req ? { componentVersion: req.startsWith('= ') ? req.slice(2) : req } : {}),
        ...(alert.securityVulnerability.package?.name ? { componentName: alert.securityVulnerability.package.name } : {}),
        ...(cwe ? { cwe: Number(cwe[1]) } : {}),
        ...(ids.length ? { vulnerabilityIds: ids } : {}),
        ...(typeof cvss?.score === 'number' ? { cvssv3Score: cvss.score } : {}),
        ...(typeof cvss?.vectorString === 'string' ? { cvssv3: cvss.vectorString } : {}),
        ...(typeof epss.percentage === 'number' ? { epssScore: epss.percentage } : {}),
        ...(typeof epss.percentile === 'number' ? { epssPercentile: epss.percentile } : {}),
      });
    }
    return [...dupes.values()];
  },
  // DefectDojo's SonarQube parser in detailed mode on the sonar-report JSON: it recognises the
  // shape by truthy date, projectName and hotspotKeys (anything else yields no finding), reads
  // each issue's fields by key (a missing one crashes), and deduplicates on the issue key.
  'SonarQube Scan detailed': (data) => {
    const doc = data as { date?: unknown; projectName?: unknown; hotspotKeys?: unknown; rules?: Record<string, unknown>; issues?: Record<string, unknown>[] };
    const truthy = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));
    if (!doc || !truthy(doc.date) || !truthy(doc.projectName) || !truthy(doc.hotspotKeys)) return [];
    if (!doc.rules || typeof doc.rules !== 'object') throw new ParserCrash("KeyError: 'rules'");
    if (!Array.isArray(doc.issues)) throw new ParserCrash("KeyError: 'issues'");
    const sonarSeverity = (v: string): Severity => ({ blocker: 'critical', critical: 'high', major: 'medium', minor: 'low', high: 'high', medium: 'medium', low: 'low' })[v.toLowerCase()] as Severity ?? 'info';
    const rules = doc.rules as Record<string, { htmlDesc?: unknown }>;
    return doc.issues.map((issue) => {
      for (const key of ['key', 'line', 'message', 'description', 'component', 'severity', 'rule']) if (!(key in issue)) throw new ParserCrash(`KeyError: '${key}'`);
      // The CWE: the first "CWE-<n>" in the rule key followed by the texts of the rule's htmlDesc links.
      const html = rules[String(issue.rule)]?.htmlDesc;
      const links = typeof html === 'string' ? [...html.matchAll(/<a\b[^>]*>([^<]*)<\/a>/gi)].map((m) => m[1]) : [];
      const cwe = /CWE-([0-9]*)/i.exec([String(issue.rule), ...links].join('\n'))?.[1];
      if (!/^\d+$/.test(String(issue.line))) throw new ParserCrash('invalid literal for int()');
      return {
        uniqueIdFromTool: String(issue.key),
        title: String(issue.description),
        severity: sonarSeverity(String(issue.severity)),
        active: true,
        filePath: String(issue.component),
        line: Number(issue.line),
        description: String(issue.message),
        cwe: cwe ? Number(cwe) : 0,
      };
    });
  },
  // dojo/tools/github_secrets_detection_report/parser.py: the title "Exposed Secret Detected: <display
  // name>", a description of "**Key**: value" lines, the first location's file and line, the alert
  // number as vuln_id_from_tool; no unique id.
  'Github Secrets Detection Report Scan': (data) => {
    if (!Array.isArray(data)) throw new ParserCrash('Invalid GitHub secrets detection report format, expected a JSON list of alerts.');
    type Secret = { number?: number; state?: string; secret_type?: string; secret_type_display_name?: string; validity?: string; publicly_leaked?: boolean; html_url?: string; first_location_detected?: { path?: string; start_line?: number } };
    return data.map((alert: Secret) => {
      const display = alert.secret_type_display_name ?? alert.secret_type ?? 'Unknown';
      const state = alert.state ?? 'open';
      const validity = alert.validity ?? 'unknown';
      const severity: Severity = state === 'resolved' ? 'info' : validity === 'active' && alert.publicly_leaked ? 'critical' : validity === 'active' ? 'high' : 'medium';
      const location = alert.first_location_detected ?? {};
      const description = [
        ...(alert.html_url ? [`**GitHub Alert**: [${alert.html_url}](${alert.html_url})`] : []),
        `**Secret Type**: ${display}`,
        `**Alert State**: ${state}`,
        ...(location.path ? [`**File Path**: ${location.path}`, ...(location.start_line ? [`**Line**: ${location.start_line}`] : [])] : []),
      ].join('\n\n');
      return {
        title: `Exposed Secret Detected: ${display}`,
        severity,
        active: true,
        description,
        ...(alert.number ? { vulnIdFromTool: String(alert.number) } : {}),
        ...(location.path ? { filePath: location.path } : {}),
        ...(typeof location.start_line === 'number' ? { line: location.start_line } : {}),
      };
    });
  },
};

// DefectDojo's default deduplication settings (dojo/settings/settings.dist.py) for these scan types.
// A scan type without fields gets the legacy hash; one without an algorithm, legacy matching.
const HASHCODE_FIELDS_PER_SCANNER: Record<string, readonly string[]> = {
  'Dependency Track Finding Packaging Format (FPF) Export': ['component_name', 'component_version', 'vulnerability_ids'],
  'Github SAST Scan': ['vuln_id_from_tool', 'severity', 'file_path', 'line'],
  'Github Vulnerability Scan': ['title', 'severity', 'component_name', 'vulnerability_ids', 'file_path'],
  'SonarQube Scan': ['cwe', 'severity', 'file_path'],
  'SonarQube API Import': ['title', 'file_path', 'line'],
};
/** HASHCODE_ALLOWS_NULL_CWE entries that are False: a cwe of 0 falls back to the legacy hash. */
const NULL_CWE_REFUSED = new Set(['SonarQube Scan']);
/** Python's `str()` of a field that may be None. */
const py = (value: unknown): string => (value === undefined || value === null ? 'None' : String(value));

/** `Finding.compute_hash_code`: the configured fields concatenated, casefolded, SHA-256. */
export function hashCodeOf(scanType: string, f: Parsed): string {
  const fields = HASHCODE_FIELDS_PER_SCANNER[scanType];
  const cwe = f.cwe ?? 0;
  let text: string;
  if (!fields || (cwe === 0 && NULL_CWE_REFUSED.has(scanType))) {
    text = f.title + String(cwe) + py(f.line) + py(f.filePath) + (f.description ?? '');
  } else {
    const value: Record<string, () => string> = {
      title: () => f.title,
      severity: () => title(f.severity),
      file_path: () => py(f.filePath),
      line: () => py(f.line),
      cwe: () => String(cwe),
      vuln_id_from_tool: () => py(f.vulnIdFromTool),
      component_name: () => py(f.componentName),
      component_version: () => py(f.componentVersion),
      vulnerability_ids: () => [...new Set(f.vulnerabilityIds ?? [])].sort().join(''),
    };
    text = fields.map((name) => value[name]!()).join('');
  }
  return createHash('sha256').update(text.toLowerCase().trim()).digest('hex');
}

/**
 * One page of a DRF list, limit/offset paging as DefectDojo answers it (`limit` defaults to the
 * view's page size). `next` is absolute and on another host, as behind a proxy: the request's
 * query with the next offset.
 */
function sendPage<T>(res: ServerResponse, url: URL, all: readonly T[], defaultLimit: number, shape: (entry: T) => unknown = (entry) => entry): void {
  const limit = Number(url.searchParams.get('limit') ?? defaultLimit);
  const offset = Number(url.searchParams.get('offset') ?? '0');
  const next = new URLSearchParams(url.searchParams);
  next.set('offset', String(offset + limit));
  sendJson(res, 200, {
    count: all.length,
    next: offset + limit < all.length ? `https://defectdojo.internal${url.pathname}?${next}` : null,
    previous: null,
    results: all.slice(offset, offset + limit).map(shape),
    prefetch: {},
  });
}

/**
 * The candidates of one reimport, indexed by hash code and unique id: the benchmark reimports
 * thousands of findings, and a scan of the test per finding made the fake, not the sync, the cost.
 */
class Candidates {
  private readonly byHash = new Map<string, FakeFinding[]>();
  private readonly byUid = new Map<string, FakeFinding[]>();
  private readonly all: FakeFinding[] = [];

  constructor(findings: Iterable<FakeFinding>) {
    for (const f of findings) this.add(f);
  }

  add(f: FakeFinding): void {
    this.all.push(f);
    const put = (map: Map<string, FakeFinding[]>, key: string | undefined) => key !== undefined && (map.get(key) ?? map.set(key, []).get(key)!).push(f);
    put(this.byHash, f.hashCode);
    put(this.byUid, f.uniqueIdFromTool);
  }

  /** What DefectDojo's matching for `algorithm` would consider, a superset of the matches. */
  of(algorithm: Algorithm, incoming: FakeFinding): Iterable<FakeFinding> {
    const hash = algorithm === 'hash_code' || algorithm === 'unique_id_from_tool_or_hash_code' ? (this.byHash.get(incoming.hashCode) ?? []) : [];
    const uid = algorithm === 'unique_id_from_tool' || algorithm === 'unique_id_from_tool_or_hash_code' ? (incoming.uniqueIdFromTool === undefined ? [] : (this.byUid.get(incoming.uniqueIdFromTool) ?? [])) : [];
    return algorithm === 'legacy' ? this.all : new Set([...hash, ...uid]);
  }
}

/** The reimporter's `match_finding_to_candidate_reimport`: every candidate of the algorithm, oldest first. */
function matchesOf(algorithm: Algorithm, incoming: FakeFinding, candidates: Iterable<FakeFinding>): FakeFinding[] {
  const found = [...candidates].filter((c) => {
    const byHash = c.hashCode === incoming.hashCode;
    const byUid = incoming.uniqueIdFromTool !== undefined && c.uniqueIdFromTool === incoming.uniqueIdFromTool;
    if (algorithm === 'hash_code') return byHash;
    if (algorithm === 'unique_id_from_tool') return byUid;
    if (algorithm === 'unique_id_from_tool_or_hash_code') return byHash || byUid;
    return c.title.toLowerCase() === incoming.title.toLowerCase() && c.severity === incoming.severity;
  });
  return found.sort((a, b) => a.id - b.id);
}

type Bucket = Record<'active' | 'verified' | 'duplicate' | 'false_p' | 'out_of_scope' | 'is_mitigated' | 'risk_accepted' | 'total', number>;

function statisticsOf(findings: Iterable<{ severity: Severity; active: boolean }>): Record<Severity | 'total', Bucket> {
  const empty = (): Bucket => ({ active: 0, verified: 0, duplicate: 0, false_p: 0, out_of_scope: 0, is_mitigated: 0, risk_accepted: 0, total: 0 });
  const out = { info: empty(), low: empty(), medium: empty(), high: empty(), critical: empty(), total: empty() };
  for (const f of findings) {
    for (const bucket of [out[f.severity], out.total]) {
      bucket.total++;
      if (f.active) bucket.active++;
      else bucket.is_mitigated++;
    }
  }
  return out;
}

/**
 * A loopback fake of DefectDojo's REST API v2 parts the sync uses: `POST /api/v2/reimport-scan/`
 * (multipart, checked as DefectDojo's serializer checks it; the report read by a stand-in of the
 * named parser; product, engagement and test created on demand; old findings closed; the 201
 * body with `statistics`) and `GET /api/v2/products/`. `Authorization: Token <key>` only. It
 * behaves as one DefectDojo release (`release`, 3.2.0 unless started as another), where releases
 * differ (`defectdojo-releases.ts`).
 */
export class FakeDefectDojo {
  readonly faults = new Faults<DefectDojoRoute>();
  readonly calls: { route: DefectDojoRoute | 'unknown'; url: string; authorization: string | undefined; method?: string }[] = [];
  readonly uploads: RecordedUpload[] = [];
  readonly tests: FakeTest[] = [];
  /** The tests of each product, engagement and scan type, oldest first: what a reimport looks in. */
  private readonly testsByContext = new Map<string, FakeTest[]>();
  readonly products = new Map<string, { id: number; productType: string }>();
  /** Engagements by product and name, as the reimport creates them. */
  readonly engagements = new Map<string, { id: number; sourceCodeManagementUri: string | null }>();
  /** DefectDojo's clock (epoch ms), for `mitigated` and `last_status_update`. */
  now: () => number = () => Date.now();
  /** The scan types this server knows (the release's parsers); remove one to play a DefectDojo without it. */
  readonly scanTypes: Set<string>;
  /** DD_SCAN_FILE_MAX_SIZE (MB), 100 by default. */
  scanFileMaxMb = 100;
  /** Reimports refused because their body came chunked. */
  refusedChunked = 0;
  /** Every answer leaves this long after its request arrived (`answerAfter`). */
  delayMs = 0;
  keepUploads = true;
  /** Most reimports in flight at once. */
  peakInFlight = 0;
  private inFlight = 0;
  private nextId = 1;

  private constructor(
    private readonly listening: Listening,
    readonly token: string,
    /** What this release does where releases differ. */
    readonly behaviour: ReleaseBehaviour,
  ) {
    this.scanTypes = new Set(KNOWN_SCAN_TYPES.filter((t) => behaviour.scanTypes.has(t)));
  }

  static async start(token = 'dd-api-token-0123456789abcdef', options: { release?: Release } = {}): Promise<FakeDefectDojo> {
    let fake: FakeDefectDojo | undefined;
    const listening = await listen((req, res) => void fake!.handle(req, res));
    fake = new FakeDefectDojo(listening, token, releaseBehaviour(options.release ?? '3.2.0'));
    return fake;
  }

  /** The release this fake behaves as. */
  get release(): Release {
    return this.behaviour.release;
  }

  /** `pro`, as the release's exception handler adds it to an error answer. */
  private pro(): { pro?: string[] } {
    return this.behaviour.proNotice ? { pro: [PRO_NOTICE] } : {};
  }

  get url(): string {
    return this.listening.url;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  count(route: DefectDojoRoute): number {
    return this.calls.filter((c) => c.route === route).length;
  }

  testOf(product: string, scanType: string, testTitle?: string): FakeTest | undefined {
    return this.tests.find((t) => t.product === product && t.scanType === scanType && (testTitle === undefined || t.title === testTitle));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const route: DefectDojoRoute | 'unknown' =
      url.pathname === '/api/v2/reimport-scan/'
        ? 'reimport'
        : url.pathname === '/api/v2/products/'
          ? 'products'
          : url.pathname === '/api/v2/findings/'
            ? 'findings'
            : /^\/api\/v2\/findings\/\d+\/$/.test(url.pathname)
              ? 'finding'
              : /^\/api\/v2\/findings\/\d+\/tags\/$/.test(url.pathname)
                ? 'finding_tags'
                : url.pathname === '/api/v2/user_profile/'
                  ? 'user_profile'
                  : /^\/api\/v2\/product_types\/\d+\/$/.test(url.pathname)
                    ? 'product_type'
                    : url.pathname === '/api/v2/product_types/'
                      ? 'product_types'
                      : url.pathname === '/api/v2/tests/'
                        ? 'tests'
                        : 'unknown';
    this.calls.push({ route, url: url.pathname + url.search, authorization: req.headers.authorization, method: req.method ?? 'GET' });
    if (route === 'reimport') {
      this.peakInFlight = Math.max(this.peakInFlight, ++this.inFlight);
      // In flight until answered: with a delay the answer leaves after this handler has returned.
      res.once('close', () => this.inFlight--);
    }
    answerAfter(res, this.delayMs);
    if (route !== 'unknown' && (await playFault(this.faults.take(route), req, res))) return;
    const auth = req.headers.authorization;
    // DRF answers 403, not 401: DefectDojo's first authentication class (session) has no
    // WWW-Authenticate header to offer (REST_FRAMEWORK settings; seen on the real server).
    if (!auth) return sendJson(res, 403, { detail: 'Authentication credentials were not provided.' });
    if (auth !== `Token ${this.token}`) return sendJson(res, 403, { detail: 'Invalid token.' });
    if (route === 'products' && req.method === 'GET') return this.listProducts(url, res);
    // UserProfileView: the token's user (IsAuthenticated only), in UserProfileSerializer's shape.
    if (route === 'user_profile' && req.method === 'GET') {
      return sendJson(res, 200, {
        user: { id: 2, username: 'gatehouse-sync', first_name: '', last_name: '', email: '', is_active: true, is_superuser: false },
        user_contact_info: null,
        global_role: null,
        dojo_group_member: [],
        product_type_member: [],
        product_member: [],
      });
    }
    if (route === 'product_type' && req.method === 'GET') return this.productType(Number(url.pathname.split('/')[4]), res);
    if (route === 'product_types' && req.method === 'GET') return this.listProductTypes(url, res);
    if (route === 'reimport' && req.method === 'POST') return await this.reimport(req, res);
    if (route === 'findings' && req.method === 'GET') return this.listFindings(url, res);
    if (route === 'tests' && req.method === 'GET') return this.listTests(url, res);
    if (route === 'finding' && req.method === 'PATCH') return await this.patchFinding(Number(url.pathname.split('/')[4]), req, res);
    if (route === 'finding_tags' && (req.method === 'GET' || req.method === 'POST')) return await this.findingTags(Number(url.pathname.split('/')[4]), req, res);
    if (route === 'finding_tags') return sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` });
    return sendJson(res, 404, { detail: 'Not found.' });
  }

  private listProducts(url: URL, res: ServerResponse): void {
    const name = (url.searchParams.get('name') ?? '').toLowerCase();
    // `prod_type` is the product type's id, as DefectDojo's ProductSerializer gives it.
    const all = [...this.products.entries()].filter(([n]) => n.toLowerCase().includes(name)).map(([n, p]) => ({ id: p.id, name: n, prod_type: this.productTypeId(p.productType) }));
    sendPage(res, url, all, 20);
  }

  /** Product types get ids as they are first named. */
  private readonly productTypeIds = new Map<string, number>();

  private productTypeId(name: string): number {
    let id = this.productTypeIds.get(name);
    if (id === undefined) this.productTypeIds.set(name, (id = this.nextId++));
    return id;
  }

  /** `GET /api/v2/product_types/`, limit/offset paging. */
  private listProductTypes(url: URL, res: ServerResponse): void {
    for (const { productType } of this.products.values()) this.productTypeId(productType);
    const all = [...this.productTypeIds.entries()].map(([name, id]) => ({ id, name, description: null, critical_product: false, key_product: false }));
    sendPage(res, url, all, 20);
  }

  /** `GET /api/v2/product_types/{id}/`. */
  private productType(id: number, res: ServerResponse): void {
    const name = [...this.productTypeIds.entries()].find(([, i]) => i === id)?.[0];
    if (name === undefined) return sendJson(res, 404, { detail: 'No Product_Type matches the given query.' });
    sendJson(res, 200, { id, name, description: null, critical_product: false, key_product: false });
  }

  /** Every finding with its test, for assertions. */
  findings(): { finding: FakeFinding; test: FakeTest }[] {
    return this.tests.flatMap((test) => [...test.findings.values()].map((finding) => ({ finding, test })));
  }

  /**
   * The findings of a product come back as new rows: new ids, no tags. What a reimport does to
   * findings it cannot match (for example after its test was deleted and re-created).
   */
  recreate(product: string): void {
    for (const { finding, test } of this.findings()) {
      if (test.product !== product) continue;
      finding.id = this.nextId++;
      finding.tags = [];
    }
  }

  /** A status change made in DefectDojo (by a person, or its API), with DefectDojo's side effects. */
  setStatus(id: number, change: FindingStatusChange): FakeFinding {
    const found = this.findingById(id);
    if (!found) throw new Error(`no finding ${id}`);
    applyStatusChange(found.finding, change, this.now());
    return found.finding;
  }

  /** `GET /api/v2/tests/` (ApiTestFilter: exact `scan_type`, `title`, `engagement`, `build_id`), in TestSerializer's shape. */
  private listTests(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const all = this.tests
      .filter((t) => q.get('scan_type') === null || t.scanType === q.get('scan_type'))
      .filter((t) => q.get('title') === null || t.title === q.get('title'))
      .filter((t) => q.get('engagement') === null || String(t.engagementId) === q.get('engagement'))
      .filter((t) => q.get('build_id') === null || t.buildId === q.get('build_id'))
      .sort((a, b) => a.id - b.id);
    sendPage(res, url, all, 25, (t) => ({
      id: t.id,
      tags: [],
      test_type_name: t.scanType,
      finding_groups: [],
      title: t.title ?? null,
      description: null,
      target_start: '2026-11-01T00:00:00Z',
      target_end: '2026-11-01T00:00:00Z',
      estimated_time: null,
      actual_time: null,
      percent_complete: 100,
      updated: '2026-11-01T00:00:00Z',
      created: '2026-11-01T00:00:00Z',
      version: t.version,
      build_id: t.buildId,
      commit_hash: t.commitHash,
      branch_tag: t.branchTag,
      scan_type: t.scanType,
      engagement: t.engagementId,
      lead: null,
      test_type: 1,
      environment: null,
      api_scan_configuration: null,
      notes: [],
      files: [],
    }));
  }

  /** Which product a finding id belongs to. */
  private findingById(id: number): { finding: FakeFinding; test: FakeTest } | undefined {
    return this.findings().find((f) => f.finding.id === id);
  }

  private findingJson({ finding, test }: { finding: FakeFinding; test: FakeTest }): unknown {
    return {
      id: finding.id,
      tags: finding.tags,
      title: finding.title,
      severity: title(finding.severity),
      numerical_severity: `S${4 - SEVERITIES.indexOf(finding.severity)}`,
      active: finding.active,
      verified: false,
      is_mitigated: finding.isMitigated ?? false,
      mitigated: finding.mitigated ? new Date(finding.mitigated).toISOString() : null,
      false_p: finding.falseP ?? false,
      out_of_scope: finding.outOfScope ?? false,
      risk_accepted: finding.riskAccepted ?? false,
      duplicate: finding.duplicate ?? false,
      last_status_update: finding.lastStatusUpdate === undefined ? null : new Date(finding.lastStatusUpdate).toISOString(),
      description: finding.description ?? finding.title,
      mitigation: null,
      component_name: finding.componentName ?? null,
      component_version: finding.componentVersion ?? null,
      file_path: finding.filePath ?? null,
      line: finding.line ?? null,
      cwe: finding.cwe ?? 0,
      vulnerability_ids: (finding.vulnerabilityIds ?? []).map((v) => ({ vulnerability_id: v })),
      unique_id_from_tool: finding.uniqueIdFromTool ?? null,
      hash_code: finding.hashCode,
      vuln_id_from_tool: finding.vulnIdFromTool ?? null,
      cvssv3: finding.cvssv3 ?? null,
      cvssv3_score: finding.cvssv3Score ?? null,
      epss_score: finding.epssScore ?? null,
      epss_percentile: finding.epssPercentile ?? null,
      test: test.id,
      found_by: [test.id],
    };
  }

  /** `GET /api/v2/findings/` with the filters issue push uses, limit/offset paging and an absolute `next` on another host. */
  private listFindings(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const product = q.get('product_name')?.toLowerCase();
    const active = q.get('active');
    const severities = q.get('severity')?.split(',');
    const notTag = q.get('not_tag')?.toLowerCase();
    const tag = q.get('tag')?.toLowerCase();
    const uid = q.get('unique_id_from_tool')?.toLowerCase();
    if (active !== null && !['true', 'false'].includes(active)) return sendJson(res, 400, { active: ['Select a valid choice.'], message: 'active' });
    for (const name of Object.keys(STATUS_FILTERS)) {
      const value = q.get(name);
      if (value !== null && !['true', 'false'].includes(value)) return sendJson(res, 400, { [name]: ['Select a valid choice.'], message: name });
    }
    const all = this.findings()
      .filter(({ test }) => product === undefined || test.product.toLowerCase() === product)
      .filter(({ finding }) => active === null || String(finding.active) === active)
      .filter(({ finding }) => !severities || severities.includes(title(finding.severity)))
      .filter(({ finding }) => !notTag || !finding.tags.some((t) => t.includes(notTag)))
      .filter(({ finding }) => !tag || finding.tags.some((t) => t.includes(tag)))
      // ApiFindingFilter's BooleanFilters on the status fields.
      .filter(({ finding }) => (Object.entries(STATUS_FILTERS) as [string, keyof FakeFinding][]).every(([name, field]) => q.get(name) === null || String(Boolean(finding[field])) === q.get(name)))
      // icontains, as ApiFindingFilter declares it.
      .filter(({ finding }) => uid === undefined || (finding.uniqueIdFromTool ?? '').toLowerCase().includes(uid))
      .sort((a, b) => SEVERITIES.indexOf(b.finding.severity) - SEVERITIES.indexOf(a.finding.severity) || a.finding.id - b.finding.id);
    sendPage(res, url, all, 25, (f) => this.findingJson(f));
  }

  /** `PATCH /api/v2/findings/{id}/`: `tags` replaces the list, lowercased; DefectDojo's tag validation. */
  private async patchFinding(id: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const found = this.findingById(id);
    if (!found) return sendJson(res, 404, { detail: 'No Finding matches the given query.' });
    let body: { tags?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as { tags?: unknown };
    } catch {
      return sendJson(res, 400, { message: 'JSON request content is malformed' });
    }
    if (body.tags !== undefined) {
      if (!Array.isArray(body.tags) || !body.tags.every((t) => typeof t === 'string')) return sendJson(res, 400, { tags: ['Expected a list of items.'] });
      const bad = body.tags.find((t: string) => /[ ,'"]/.test(t) || t.length > 255);
      if (bad !== undefined) return sendJson(res, 400, { tags: [`Invalid tag: '${bad}'. Tags should not contain spaces, commas, or quotes.`] });
      found.finding.tags = [...new Set(body.tags.map((t: string) => t.toLowerCase()))];
    }
    sendJson(res, 200, this.findingJson(found));
  }

  /**
   * `GET|POST /api/v2/findings/{id}/tags/` as DefectDojo's `FindingViewSet.tags` action: the POST
   * body is `TagSerializer` (`{"tags": [...]}`, required, a list of strings, or a JSON list as a
   * string), each tag split on commas and validated like `tag_validator`; new tags are appended to
   * the finding's (lowercased, duplicates dropped) without touching anything else of the finding
   * (no save of other fields, so no JIRA push). The answer is 200 with `{"tags": [...]}`.
   */
  private async findingTags(id: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const found = this.findingById(id);
    if (!found) return sendJson(res, 404, { detail: 'No Finding matches the given query.' });
    if (req.method === 'POST') {
      let body: { tags?: unknown };
      try {
        body = JSON.parse(await readBody(req)) as { tags?: unknown };
      } catch {
        return sendJson(res, 400, { detail: 'JSON parse error - Expecting value: line 1 column 1 (char 0)' });
      }
      let tags = body?.tags;
      if (tags === undefined) return sendJson(res, 400, { tags: ['This field is required.'] });
      if (typeof tags === 'string') {
        try {
          tags = tags === '' ? [] : JSON.parse(tags);
        } catch {
          return sendJson(res, 400, { tags: ['Invalid json list. A tag list submitted in string form must be valid json.'] });
        }
      }
      if (!Array.isArray(tags)) return sendJson(res, 400, { tags: [`Expected a list of items but got type "${typeof tags === 'object' ? 'dict' : typeof tags}".`] });
      if (!tags.every((t) => typeof t === 'string')) return sendJson(res, 400, { tags: ['All list items must be of string type.'] });
      const parts = (tags as string[]).flatMap((t) => t.match(/(?:"[^"]*"|[^",]+)/g) ?? []);
      const bad = parts.find((t) => /[ ,'"]/.test(t));
      if (bad !== undefined) return sendJson(res, 400, { tags: [`Invalid tag: '${bad}'. Tags should not contain spaces, commas, or quotes.`] });
      for (const tag of parts.map((t) => t.toLowerCase())) if (!found.finding.tags.includes(tag)) found.finding.tags.push(tag);
    }
    sendJson(res, 200, { tags: found.finding.tags });
  }

  private async reimport(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Behind DefectDojo's nginx and uWSGI a chunked request body reaches Django empty: the
    // serializer then sees no field at all, and scan_type is the one it requires.
    if (req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] === undefined) {
      await readBody(req);
      this.refusedChunked++;
      return sendJson(res, 400, { scan_type: ['This field is required.'], message: "{'scan_type': [ErrorDetail(string='This field is required.', code='required')]}" });
    }
    let form: FormData;
    try {
      form = await new Response(Readable.toWeb(req) as ReadableStream, { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    } catch {
      return sendJson(res, 400, { detail: 'Multipart form parse error - Invalid boundary in multipart: None' });
    }
    const fields: Record<string, string> = {};
    let file: File | undefined;
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') fields[key] = value;
      else if (key === 'file') file = value;
    }
    const errors: Record<string, string[]> = {};
    const scanType = fields.scan_type;
    if (!scanType) errors.scan_type = ['This field is required.'];
    else if (!this.scanTypes.has(scanType)) errors.scan_type = [`"${scanType}" is not a valid choice.`];
    for (const name of ['do_not_reactivate', 'auto_create_context', 'close_old_findings', 'deduplication_on_engagement']) {
      if (fields[name] !== undefined && !DRF_TRUE.has(fields[name]!) && !DRF_FALSE.has(fields[name]!)) errors[name] = ['Must be a valid boolean.'];
    }
    // serializers.URLField(max_length=600): Django's URLValidator (http, https, ftp, ftps).
    const scm = fields.source_code_management_uri;
    if (scm !== undefined && (!URL.canParse(scm) || !/^(https?|ftps?):$/.test(new URL(scm).protocol) || !new URL(scm).hostname)) errors.source_code_management_uri = ['Enter a valid URL.'];
    else if (scm !== undefined && scm.length > 600) errors.source_code_management_uri = ['Ensure this field has no more than 600 characters.'];
    // FileExtensionValidator(allowed_extensions=settings.FILE_UPLOAD_TYPES) on the serializer's file field.
    if (!file) errors.file = ['No file was submitted.'];
    else if (!ALLOWED_EXTENSIONS.includes(file.name.split('.').pop()!.toLowerCase())) {
      errors.file = [`File extension “${file.name.split('.').pop()}” is not allowed. Allowed extensions are: ${ALLOWED_EXTENSIONS.join(', ')}.`];
    }
    if (Object.keys(errors).length > 0) {
      // DRF's field errors, plus the "message" and "pro" DefectDojo's exception handler adds.
      const code = (text: string) => (text.endsWith('is not a valid choice.') ? 'invalid_choice' : text.startsWith('This field is required') ? 'required' : 'invalid');
      const detail = Object.entries(errors).map(([k, v]) => `'${k}': [ErrorDetail(string='${v[0]}', code='${code(v[0]!)}')]`).join(', ');
      return sendJson(res, 400, { ...errors, message: `{${detail}}`, ...this.pro() });
    }
    if (file!.size / 1048576 > this.scanFileMaxMb) {
      return sendJson(res, 400, { message: pythonList(`Report file is too large. Maximum supported size is ${this.scanFileMaxMb} MB`), ...this.pro() });
    }
    const auto = DRF_TRUE.has(fields.auto_create_context ?? 'false');
    const existingProduct = fields.product_name === undefined ? undefined : this.products.get(fields.product_name);
    // AutoCreateContextManager's checks are serializers.ValidationError: DRF answers a bare JSON list of strings.
    if (!existingProduct && !auto) return sendJson(res, 400, [`Product "${fields.product_name ?? ''}" does not exist`]);
    if (!fields.product_name) return sendJson(res, 400, ['product_name parameter missing']);
    if (!fields.engagement_name) return sendJson(res, 400, ['engagement_name parameter missing']);
    if (existingProduct && fields.product_type_name && existingProduct.productType !== fields.product_type_name) {
      return sendJson(res, 400, [`The fetched product has a conflict with the supplied product type name: existing product type name - ${existingProduct.productType} vs supplied product type name - ${fields.product_type_name}`]);
    }
    if (!existingProduct && !fields.product_type_name) return sendJson(res, 400, [`Product "${fields.product_name}" does not exist and no product_type_name provided to create the new product in`]);

    for (const [name, max] of Object.entries(TEST_META_MAX)) {
      if ((fields[name]?.length ?? 0) > max) return sendJson(res, 500, { message: 'Internal server error, check logs for details', ...this.pro() });
    }
    const text = await file!.text();
    this.uploads.push({ fields, filename: file!.name, bytes: Buffer.byteLength(text), ...(this.keepUploads ? { text } : {}) });
    let parsed: Parsed[];
    try {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        // json.JSONDecodeError is a ValueError: the importer turns it into a ValidationError (400).
        throw new ParserValueError('Expecting value: line 1 column 1 (char 0)');
      }
      parsed = PARSERS[scanType!]!(data, this.behaviour);
    } catch (err) {
      // BaseImporter.parse_findings: a ValueError becomes a django ValidationError, answered 400 as
      // {"message": str(error)}; any other exception is a 500 without details.
      if (err instanceof ParserValueError) return sendJson(res, 400, { message: pythonList(err.message), ...this.pro() });
      return sendJson(res, 500, { message: 'Internal server error, check logs for details', ...this.pro() });
    }

    if (!existingProduct) this.products.set(fields.product_name, { id: this.nextId++, productType: fields.product_type_name! });
    // get_target_test_if_exists: the newest test of the engagement with this scan type and, when
    // test_title is given, this title; without it, whatever its title.
    const context = `${fields.product_name}\u0000${fields.engagement_name}\u0000${scanType}`;
    const inContext = this.testsByContext.get(context) ?? this.testsByContext.set(context, []).get(context)!;
    let test = inContext.filter((t) => (fields.test_title ? t.title === fields.test_title : true)).at(-1);
    // A new test comes from an import, which never closes old findings, and whose statistics
    // have `after` only (ReImportScanSerializer.process_scan in dojo/api_v2/serializers.py sets
    // `before` and `delta` only for a test that existed; seen on the real server).
    const isNewTest = test === undefined;
    const closeOld = test !== undefined && !DRF_FALSE.has(fields.close_old_findings ?? 'true');
    if (!test) {
      // get_or_create_engagement: source_code_management_uri is written only when it creates the engagement.
      const engagementKey = `${fields.product_name}\u0000${fields.engagement_name}`;
      let engagement = this.engagements.get(engagementKey);
      if (!engagement) this.engagements.set(engagementKey, (engagement = { id: this.nextId++, sourceCodeManagementUri: scm ?? null }));
      test = {
        id: this.nextId++,
        product: fields.product_name,
        engagement: fields.engagement_name,
        engagementId: engagement.id,
        scanType: scanType!,
        title: fields.test_title,
        findings: new Map(),
        version: '',
        buildId: '',
        commitHash: '',
        branchTag: '',
      };
      this.tests.push(test);
      inContext.push(test);
    }
    // update_test_meta: a field left out arrives as "" and is written, since "".isspace() is False.
    const meta = (name: string) => (fields[name] !== undefined && fields[name]!.trim() === '' && fields[name] !== '' ? undefined : (fields[name] ?? ''));
    test.version = meta('version') ?? test.version;
    test.buildId = meta('build_id') ?? test.buildId;
    test.commitHash = meta('commit_hash') ?? test.commitHash;
    test.branchTag = meta('branch_tag') ?? test.branchTag;
    const before = statisticsOf([...test.findings.values()].map((f) => ({ ...f })));
    const created: FakeFinding[] = [];
    const reactivated: FakeFinding[] = [];
    const untouched: FakeFinding[] = [];
    const closed: FakeFinding[] = [];
    /** The reimporter's `unchanged_items` and `reactivated_items`: what close_old_findings leaves alone. */
    const kept = new Set<FakeFinding>();
    const seen = new Set<FakeFinding>();
    const now = this.now();
    const doNotReactivate = DRF_TRUE.has(fields.do_not_reactivate ?? 'false');
    const algorithm: Algorithm = this.behaviour.algorithms[scanType!] ?? 'legacy';
    // Candidates: the test's findings, and those this report created before (add_new_finding_to_candidates).
    const candidates = new Candidates(test.findings.values());
    for (const finding of parsed) {
      const incoming: FakeFinding = { ...finding, hashCode: hashCodeOf(scanType!, finding), id: 0, tags: [] };
      // An import (the reimport created the test) matches nothing: every finding of the report is
      // created, alike ones too (DefectDojo 3.2.0 imported its npm sample as 22 active findings).
      const [existing] = isNewTest ? [] : matchesOf(algorithm, incoming, candidates.of(algorithm, incoming));
      if (!existing) {
        // Finding.save title-cases the title (after the hash was computed from the parser's own).
        const falseP = incoming.falseP === true;
        const f: FakeFinding = { ...incoming, title: titlecase(incoming.title.slice(0, 511)), id: this.nextId++, isMitigated: falseP, mitigated: falseP ? now : null, lastStatusUpdate: now };
        const key = f.uniqueIdFromTool ?? f.hashCode;
        test.findings.set(test.findings.has(key) ? `${key}#${f.id}` : key, f);
        candidates.add(f);
        created.push(f);
        kept.add(f);
        seen.add(f);
        continue;
      }
      if (seen.has(existing)) continue;
      seen.add(existing);
      // process_matched_finding: special statuses first, then mitigated, then active.
      if (existing.falseP || existing.outOfScope || existing.riskAccepted) {
        // The report's finding carries none of these flags: only an inactive risk acceptance is kept as
        // unchanged; a false positive stays as it is (already mitigated, so close_old_findings skips it).
        if (existing.riskAccepted && !existing.active) {
          kept.add(existing);
          untouched.push(existing);
        }
      } else if (existing.isMitigated) {
        if (!finding.active) {
          kept.add(existing);
          untouched.push(existing);
        } else if (!doNotReactivate) {
          // Un-mitigated; a duplicate stays inactive.
          applyStatusChange(existing, { isMitigated: false, ...(existing.duplicate ? {} : { active: true }) }, now);
          kept.add(existing);
          reactivated.push(existing);
        }
        // do_not_reactivate: left mitigated, and not counted (the reimporter "continues" past it).
      } else {
        kept.add(existing);
        untouched.push(existing);
      }
    }
    if (closeOld) {
      for (const f of test.findings.values()) {
        // close_old_findings: every finding of the test the report did not keep, unless already mitigated.
        if (kept.has(f) || (f.isMitigated && f.mitigated)) continue;
        applyStatusChange(f, { isMitigated: true, active: false }, now);
        closed.push(f);
      }
    }
    const after = statisticsOf(test.findings.values());
    const product = this.products.get(fields.product_name)!;
    sendJson(res, 201, {
      scan_type: scanType,
      product_type_name: fields.product_type_name,
      product_name: fields.product_name,
      engagement_name: fields.engagement_name,
      test_title: fields.test_title ?? null,
      auto_create_context: true,
      close_old_findings: fields.close_old_findings !== 'false',
      deduplication_on_engagement: fields.deduplication_on_engagement === 'true',
      test: test.id,
      test_id: test.id,
      product_id: product.id,
      statistics: isNewTest
        ? { after }
        : {
            before,
            // IMPORT_ACTIONS' labels, lowercased: "left untouched" until 2.45.x.
            delta: { created: statisticsOf(created), closed: statisticsOf(closed), reactivated: statisticsOf(reactivated), [this.behaviour.untouchedKey]: statisticsOf(untouched) },
            after,
          },
      ...(this.behaviour.proNotice ? { pro: [`Did you know, Pro has an automated no-code connector for ${scanType}? Try today for free or email us at hello@defectdojo.com`] } : {}),
    });
  }
}
