/** DefectDojo parser names (`scan_type`), exactly as DefectDojo spells them. */
export const SCAN_TYPES = {
  dependencyTrack: 'Dependency Track Finding Packaging Format (FPF) Export',
  codeScanning: 'Github SAST Scan',
  dependabot: 'Github Vulnerability Scan',
  secretScanning: 'Github Secrets Detection Report Scan',
  /** Deduplicates on the issue key, unlike "SonarQube Scan" (CWE, severity, file). */
  sonarQube: 'SonarQube Scan detailed',
} as const;

export type ScanType = (typeof SCAN_TYPES)[keyof typeof SCAN_TYPES];

/** The fixed engagement of each source inside a product (one product per project or repository). */
export const ENGAGEMENTS = {
  dependencytrack: 'Dependency-Track',
  github: 'GitHub',
  sonarqube: 'SonarQube',
} as const;

/**
 * The oldest DefectDojo release that parses each report as the sync shapes it: the later of the
 * parser's first release and 2.6.0 (reimport with `auto_create_context`). Read from DefectDojo's
 * history (the tag first holding the parser). Used to explain a server's refusal of a scan type.
 */
export const MINIMUM_DEFECTDOJO_VERSION: Readonly<Record<ScanType, string>> = {
  [SCAN_TYPES.dependencyTrack]: '2.6.0',
  [SCAN_TYPES.codeScanning]: '2.52.0',
  [SCAN_TYPES.dependabot]: '2.6.0',
  [SCAN_TYPES.secretScanning]: '2.51.0',
  [SCAN_TYPES.sonarQube]: '2.6.0',
};
