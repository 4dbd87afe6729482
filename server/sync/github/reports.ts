// GitHub's REST alert lists, rewritten into documents DefectDojo's GitHub parsers accept, so that
// each alert stays one finding across reimports.

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const asString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const asList = (value: unknown): Json[] => (Array.isArray(value) ? value.map(asObject) : []);

/** `rule.severity` (error, warning, note) as a security level: the gate's own mapping. */
const LEVEL_FROM_SEVERITY: Record<string, string> = { error: 'high', warning: 'medium', note: 'low' };

/**
 * Code scanning, for "Github SAST Scan". The parser calls `.title()` on
 * `rule.security_severity_level`, which is null for rules without a security severity: those
 * get a level from `rule.severity` instead of crashing the import.
 *
 * Identity is the alert number. The parser makes it `unique_id_from_tool`, but DefectDojo's
 * default hash for this scan type is rule id (`vuln_id_from_tool`), severity, file and line, and
 * its reimport matches on either: two alerts of one rule on one line became one finding. The
 * alert number goes into the rule id (`js/sql-injection #12`), which makes every alert's hash its
 * own; the finding title then reads "<rule description> (js/sql-injection #12)".
 */
export function codeScanningReport(alerts: readonly unknown[]): unknown[] {
  return alerts.map((raw) => {
    const alert = asObject(raw);
    const rule = asObject(alert.rule);
    const level = asString(rule.security_severity_level) ?? LEVEL_FROM_SEVERITY[asString(rule.severity) ?? ''] ?? 'info';
    const id = `${asString(rule.id) ?? asString(rule.name) ?? 'rule'} #${String(alert.number)}`;
    return { ...alert, rule: { ...rule, id, security_severity_level: level } };
  });
}

/** GraphQL's severity words, which the parser maps (MODERATE → Medium). */
function graphqlSeverity(value: unknown): string {
  const severity = (asString(value) ?? 'moderate').toUpperCase();
  return severity === 'MEDIUM' ? 'MODERATE' : severity;
}

/**
 * What DefectDojo already holds for a Dependabot alert (by `unique_id_from_tool`,
 * `dependabot/<number>`): the fields of DefectDojo's default hash for "Github Vulnerability Scan"
 * that GitHub may change on an existing alert.
 */
export interface KnownAlert {
  readonly title: string;
  /** DefectDojo's word: Critical, High, Medium, Low, Info. */
  readonly severity: string;
  readonly vulnerabilityIds: readonly string[];
}

/** DefectDojo's severity as the GraphQL word the parser maps back to it. */
const fromDefectDojoSeverity = (severity: string): string => (severity.toLowerCase() === 'medium' ? 'MODERATE' : severity.toUpperCase());

/** EPSS as GitHub sends it: an object, or (in GitHub's own examples) a list of one, with numbers or numeric strings. */
function epssOf(value: unknown): { percentage?: number; percentile?: number } | undefined {
  const entry = asObject(Array.isArray(value) ? value[0] : value);
  const number = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
  const percentage = number(entry.percentage);
  const percentile = number(entry.percentile);
  if (percentage === undefined && percentile === undefined) return undefined;
  return { ...(percentage !== undefined ? { percentage } : {}), ...(percentile !== undefined ? { percentile } : {}) };
}

/** `{score, vector_string}` as the GraphQL `{score, vectorString}`, or undefined when it holds neither. */
function cvssOf(value: unknown): { score: number | null; vectorString: string | null } | undefined {
  const cvss = asObject(value);
  const vectorString = asString(cvss.vector_string) ?? null;
  // The deprecated `cvss` says "none" as score 0 without a vector.
  const score = typeof cvss.score === 'number' && (cvss.score > 0 || vectorString !== null) ? cvss.score : null;
  return score !== null || vectorString !== null ? { score, vectorString } : undefined;
}

/**
 * Whether DefectDojo's stored title is this text. DefectDojo title-cases a title when it saves a
 * finding (`titlecase()` in `Finding.save`), which changes letter case only (and rejoins words
 * with single spaces), and its hash is casefolded: a title that differs only so is the same.
 */
function sameTitle(stored: string, text: string): boolean {
  const fold = (t: string) => t.replace(/[\t ]/g, ' ').replace(/[\r\n]+/g, '\n').toUpperCase().toLowerCase();
  return fold(stored) === fold(text);
}

export interface DependabotReport {
  readonly document: unknown;
  /** Alert numbers whose severity, summary or identifiers changed on GitHub and were kept as DefectDojo has them. */
  readonly kept: readonly string[];
}

/**
 * Dependabot, for "Github Vulnerability Scan", which reads the GraphQL `vulnerabilityAlerts`
 * shape. The parser merges alerts with the same `id`, so each gets a stable one of its own
 * (`dependabot/<number>`); lists are left out rather than sent as null, which the parser cannot
 * iterate.
 *
 * DefectDojo's default identity for this scan type is a hash of title (the advisory summary),
 * severity, package, identifiers and manifest: when GitHub re-rates an advisory, edits its
 * summary or adds a CVE, the hash changes and the reimport closes the finding and opens a new
 * one, losing its triage. An alert DefectDojo already holds (`known`) is therefore sent with the
 * values DefectDojo has, so the alert number stays the identity.
 *
 * CVSS: the parser reads `cvssSeverities.cvssV3` before the deprecated `cvss`; GitHub's
 * `cvss_severities` may hold only a v4 score, which the parser has no field for, so v4 goes into
 * the description. The vulnerable range becomes `vulnerableRequirements`, which the parser makes
 * the component version (the REST API gives no installed version).
 */
export function dependabotReport(
  repository: { fullName: string; htmlUrl: string },
  alerts: readonly unknown[],
  known: ReadonlyMap<string, KnownAlert> = new Map(),
): DependabotReport {
  const kept: string[] = [];
  const nodes = alerts.map((raw) => {
    const alert = asObject(raw);
    const advisory = asObject(alert.security_advisory);
    const vulnerability = asObject(alert.security_vulnerability);
    const dependency = asObject(alert.dependency);
    const pkg = asObject(vulnerability.package ?? dependency.package);
    const severities = asObject(advisory.cvss_severities);
    const cvssV3 = cvssOf(severities.cvss_v3);
    const cvssV4 = cvssOf(severities.cvss_v4);
    // Also as `cvss`, for parsers before DefectDojo 2.52.0, which read only that key.
    const cvss = cvssOf(advisory.cvss) ?? cvssV3;
    const epss = epssOf(advisory.epss);
    const cwes = asList(advisory.cwes).filter((c) => asString(c.cwe_id));
    const references = asList(advisory.references).filter((r) => asString(r.url));
    const patched = asString(asObject(vulnerability.first_patched_version).identifier);
    const range = asString(vulnerability.vulnerable_version_range);
    const id = `dependabot/${String(alert.number)}`;
    let severity = graphqlSeverity(vulnerability.severity ?? advisory.severity);
    let summary = asString(advisory.summary) ?? asString(advisory.ghsa_id) ?? `Dependabot alert ${String(alert.number)}`;
    let identifiers = asList(advisory.identifiers)
      .filter((i) => asString(i.value))
      .map((i) => ({ type: i.type, value: i.value as string }));
    const held = known.get(id);
    if (held) {
      const heldSeverity = fromDefectDojoSeverity(held.severity);
      const heldIds = [...new Set(held.vulnerabilityIds)].sort();
      const sentIds = [...new Set(identifiers.map((i) => i.value))].sort();
      // Sent as DefectDojo holds it only when it differs: an unchanged alert keeps GitHub's own
      // identifiers (order and types), so its report is the same bytes run after run.
      if (heldSeverity !== severity || !sameTitle(held.title, summary) || heldIds.join('\n') !== sentIds.join('\n')) {
        kept.push(String(alert.number));
        severity = heldSeverity;
        summary = held.title;
        identifiers = heldIds.map((value) => ({ type: value.split('-')[0] ?? '', value }));
      }
    }
    const description = [
      typeof advisory.description === 'string' ? advisory.description : '',
      ...(cvssV4 ? [`CVSS v4: ${cvssV4.score ?? ''} ${cvssV4.vectorString ?? ''}`.trim()] : []),
    ]
      .filter((line) => line !== '')
      .join('\n\n');
    return {
      id,
      number: String(alert.number),
      state: (asString(alert.state) ?? 'open').toUpperCase(),
      createdAt: asString(alert.created_at),
      ...(asString(dependency.manifest_path) ? { vulnerableManifestPath: dependency.manifest_path } : {}),
      ...(range ? { vulnerableRequirements: range } : {}),
      ...(asString(alert.html_url) ? { url: alert.html_url } : {}),
      securityVulnerability: {
        severity,
        package: { name: asString(pkg.name) ?? 'unknown', ecosystem: asString(pkg.ecosystem) },
        ...(range ? { vulnerableVersionRange: range } : {}),
        ...(patched ? { firstPatchedVersion: { identifier: patched } } : {}),
        advisory: {
          ghsaId: asString(advisory.ghsa_id),
          summary,
          description,
          ...(identifiers.length ? { identifiers } : {}),
          ...(references.length ? { references: references.map((r) => ({ url: r.url })) } : {}),
          ...(cvssV3 ? { cvssSeverities: { cvssV3 } } : {}),
          ...(cvss ? { cvss } : {}),
          ...(epss ? { epss } : {}),
          ...(cwes.length ? { cwes: { nodes: cwes.map((c) => ({ cweId: c.cwe_id, name: c.name })) } } : {}),
        },
      },
    };
  });
  return { document: { data: { repository: { nameWithOwner: repository.fullName, url: repository.htmlUrl, vulnerabilityAlerts: { nodes } } } }, kept };
}

/**
 * Secret scanning, for "Github Secrets Detection Report Scan". That parser sets no unique id, so
 * DefectDojo matches its findings by title and severity and would fold every alert of one secret
 * type into one finding: the alert number goes into the display name, which makes the title. The
 * secret itself is never sent, even if an answer carried it.
 */
export function secretScanningReport(alerts: readonly unknown[]): unknown[] {
  return alerts.map((raw) => {
    const { secret: _secret, ...alert } = asObject(raw);
    const display = asString(alert.secret_type_display_name) ?? asString(alert.secret_type) ?? 'secret';
    return { ...alert, secret_type_display_name: `${display} (alert #${String(alert.number)})` };
  });
}
