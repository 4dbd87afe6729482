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
