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
 * get a level from `rule.severity` instead of crashing the import. Identity is the alert number.
 */
export function codeScanningReport(alerts: readonly unknown[]): unknown[] {
  return alerts.map((raw) => {
    const alert = asObject(raw);
    const rule = asObject(alert.rule);
    const level = asString(rule.security_severity_level) ?? LEVEL_FROM_SEVERITY[asString(rule.severity) ?? ''] ?? 'info';
    return { ...alert, rule: { ...rule, security_severity_level: level } };
  });
}

/** GraphQL's severity words, which the parser maps (MODERATE → Medium). */
function graphqlSeverity(value: unknown): string {
  const severity = (asString(value) ?? 'moderate').toUpperCase();
  return severity === 'MEDIUM' ? 'MODERATE' : severity;
}

/**
 * Dependabot, for "Github Vulnerability Scan", which reads the GraphQL `vulnerabilityAlerts`
 * shape. The parser merges alerts with the same `id`, so each gets a stable one of its own
 * (`dependabot/<number>`); lists are left out rather than sent as null, which the parser cannot
 * iterate.
 */
export function dependabotReport(repository: { fullName: string; htmlUrl: string }, alerts: readonly unknown[]): unknown {
  const nodes = alerts.map((raw) => {
    const alert = asObject(raw);
    const advisory = asObject(alert.security_advisory);
    const vulnerability = asObject(alert.security_vulnerability);
    const dependency = asObject(alert.dependency);
    const pkg = asObject(vulnerability.package ?? dependency.package);
    const cvss = asObject(advisory.cvss);
    const cwes = asList(advisory.cwes).filter((c) => asString(c.cwe_id));
    const identifiers = asList(advisory.identifiers).filter((i) => asString(i.value));
    const references = asList(advisory.references).filter((r) => asString(r.url));
    const patched = asString(asObject(vulnerability.first_patched_version).identifier);
    return {
      id: `dependabot/${String(alert.number)}`,
      number: String(alert.number),
      state: (asString(alert.state) ?? 'open').toUpperCase(),
      createdAt: asString(alert.created_at),
      ...(asString(dependency.manifest_path) ? { vulnerableManifestPath: dependency.manifest_path } : {}),
      ...(asString(alert.html_url) ? { url: alert.html_url } : {}),
      securityVulnerability: {
        severity: graphqlSeverity(vulnerability.severity ?? advisory.severity),
        package: { name: asString(pkg.name) ?? 'unknown', ecosystem: asString(pkg.ecosystem) },
        ...(asString(vulnerability.vulnerable_version_range) ? { vulnerableVersionRange: vulnerability.vulnerable_version_range } : {}),
        ...(patched ? { firstPatchedVersion: { identifier: patched } } : {}),
        advisory: {
          ghsaId: asString(advisory.ghsa_id),
          summary: asString(advisory.summary) ?? asString(advisory.ghsa_id) ?? `Dependabot alert ${String(alert.number)}`,
          description: typeof advisory.description === 'string' ? advisory.description : '',
          ...(identifiers.length ? { identifiers: identifiers.map((i) => ({ type: i.type, value: i.value })) } : {}),
          ...(references.length ? { references: references.map((r) => ({ url: r.url })) } : {}),
          ...(typeof cvss.score === 'number' || asString(cvss.vector_string) ? { cvss: { score: typeof cvss.score === 'number' ? cvss.score : null, vectorString: asString(cvss.vector_string) ?? null } } : {}),
          ...(cwes.length ? { cwes: { nodes: cwes.map((c) => ({ cweId: c.cwe_id, name: c.name })) } } : {}),
        },
      },
    };
  });
  return { data: { repository: { nameWithOwner: repository.fullName, url: repository.htmlUrl, vulnerabilityAlerts: { nodes } } } };
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
