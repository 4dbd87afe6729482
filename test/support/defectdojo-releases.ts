/**
 * Where the DefectDojo releases the sync supports differ for it, each read from DefectDojo's own
 * code at the release tags (and checked on the real 2.45.0, 2.58.4 and 3.2.0: docs/sync.md,
 * "DefectDojo releases"). The fake (`fake-defectdojo.ts`) behaves as the release it is started as.
 */

/** A release as `major.minor.patch`. */
export type Release = `${number}.${number}.${number}`;

/** The releases the project's tests play; any other `x.y.z` works too. */
export const RELEASES = { '2.45': '2.45.0', '2.56': '2.56.0', '2.57': '2.57.2', '2.58': '2.58.4', '3.2': '3.2.0' } as const satisfies Record<string, Release>;

export type Algorithm = 'hash_code' | 'unique_id_from_tool' | 'unique_id_from_tool_or_hash_code' | 'legacy';

export interface ReleaseBehaviour {
  readonly release: Release;
  /** The scan types the release has a parser for (the reimport answers 400 "is not a valid choice" for any other). */
  readonly scanTypes: ReadonlySet<string>;
  /**
   * The `statistics.delta` key of untouched findings: `left untouched` until 2.45.x, renamed
   * `untouched` in 2.46.0 (DefectDojo #12193; `IMPORT_ACTIONS` in dojo/models.py).
   */
  readonly untouchedKey: 'untouched' | 'left untouched';
  /**
   * The FPF parser's `vulnerability_ids` before 2.57.3 (DefectDojo #14748): the aliases alone when
   * there are any, else `[vulnId]` for an NVD finding and none for any other source. From 2.57.3,
   * `vulnId` and every alias.
   */
  readonly fpfIdsFromAliases: boolean;
  /** The FPF parser sets `unique_id_from_tool` (the `matrix`) from 2.56.0; before, none. */
  readonly fpfUniqueId: boolean;
  /** The GitHub SAST parser sets `unique_id_from_tool` (the alert number) from 2.57.0. */
  readonly sastUniqueId: boolean;
  /** `DEDUPLICATION_ALGORITHM_PER_PARSER` (dojo/settings/settings.dist.py) for the scan types the fake reads. */
  readonly algorithms: Readonly<Record<string, Algorithm>>;
  /** Error answers (and a reimport's 201) carry the `pro` advertisement from 2.47.0 (`ErrorPageProductAnnouncement`). */
  readonly proNotice: boolean;
}

function parse(release: string): [number, number, number] {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(release);
  if (!m) throw new Error(`not a DefectDojo release: ${release}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Whether `release` is `since` or later. */
export function atLeast(release: string, since: string): boolean {
  const [a, b] = [parse(release), parse(since)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
}

const FPF = 'Dependency Track Finding Packaging Format (FPF) Export';
const SAST = 'Github SAST Scan';
const SECRETS = 'Github Secrets Detection Report Scan';

export function releaseBehaviour(release: Release): ReleaseBehaviour {
  const from = (since: string) => atLeast(release, since);
  return {
    release,
    scanTypes: new Set([
      FPF,
      'Github Vulnerability Scan',
      'SonarQube Scan',
      'SonarQube Scan detailed',
      // dojo/tools/github_secrets_detection_report/ and dojo/tools/github_sast/ first ship in these tags.
      ...(from('2.51.0') ? [SECRETS] : []),
      ...(from('2.52.0') ? [SAST] : []),
    ]),
    untouchedKey: from('2.46.0') ? 'untouched' : 'left untouched',
    fpfIdsFromAliases: !from('2.57.3'),
    fpfUniqueId: from('2.56.0'),
    sastUniqueId: from('2.57.0'),
    algorithms: {
      [FPF]: from('2.56.0') ? 'unique_id_from_tool_or_hash_code' : 'hash_code',
      [SAST]: from('2.57.0') ? 'unique_id_from_tool_or_hash_code' : 'hash_code',
      'Github Vulnerability Scan': 'hash_code',
      'SonarQube Scan detailed': 'unique_id_from_tool',
      'SonarQube Scan': 'hash_code',
      'SonarQube API Import': 'hash_code',
    },
    proNotice: from('2.47.0'),
  };
}
