import { createHash } from 'node:crypto';
import { message } from '../../errors.js';
import type { Progress } from '../report.js';
import type { DefectDojoClient, ReimportRequest } from './client.js';
import type { ScanType } from './scan-types.js';

/**
 * The digest of a report is written on its DefectDojo test as the test's `build_id`
 * (`gatehouse:sha256:<64 hex>`): DefectDojo sets it on every reimport (`update_test_meta`), so it
 * is always the digest of the last report imported into that test, and no source has a build id
 * of its own to put there. The sync keeps no state: it reads the tests back.
 */
export const DIGEST_PREFIX = 'gatehouse:sha256:';

/** Where a report goes and how: a digest equal to the test's means the same report, sent the same way, to the same test. */
export type ReportTarget = Pick<ReimportRequest, 'scanType' | 'productName' | 'engagementName' | 'testTitle' | 'scan'> & {
  /** Reimport options that change what the same report does (`do_not_reactivate`). */
  readonly doNotReactivate: boolean;
};

/** The digest of a report held whole, with the target it is sent to. */
export function reportDigest(target: ReportTarget, content: Uint8Array): string {
  const hash = createHash('sha256');
  const { scan } = target;
  hash.update(
    JSON.stringify([
      target.scanType,
      target.productName,
      target.engagementName,
      target.testTitle,
      scan?.version ?? '',
      scan?.commitHash ?? '',
      scan?.branchTag ?? '',
      scan?.sourceCodeManagementUri ?? '',
      target.doNotReactivate,
    ]),
  );
  hash.update('\n');
  hash.update(content);
  return `${DIGEST_PREFIX}${hash.digest('hex')}`;
}

/**
 * The digests DefectDojo's tests hold, per scan type, read once per run: `GET /api/v2/tests/?scan_type=…`,
 * every page, keeping each engagement's newest test per title (the one a reimport names). A list
 * that cannot be read is said once and every report of the type is sent.
 */
export class ImportedDigests {
  private readonly byType = new Map<ScanType, Promise<ReadonlySet<string>>>();

  constructor(
    private readonly defectDojo: DefectDojoClient,
    private readonly progress: Pick<Progress, 'warn'>,
  ) {}

  /** Whether the last report imported into the test this target names had this digest. */
  async unchanged(scanType: ScanType, digest: string): Promise<boolean> {
    let digests = this.byType.get(scanType);
    if (!digests) {
      digests = this.load(scanType);
      this.byType.set(scanType, digests);
    }
    return (await digests).has(digest);
  }

  private async load(scanType: ScanType): Promise<ReadonlySet<string>> {
    try {
      const newest = new Map<string, { id: number; buildId: string }>();
      for (const test of await this.defectDojo.tests(scanType)) {
        const key = `${test.engagement}\u0000${test.title}`;
        const held = newest.get(key);
        if (!held || test.id > held.id) newest.set(key, { id: test.id, buildId: test.buildId });
      }
      return new Set([...newest.values()].map((t) => t.buildId).filter((b) => b.startsWith(DIGEST_PREFIX)));
    } catch (err) {
      this.progress.warn(`DefectDojo tests of "${scanType}" could not be listed (${message(err)}); every report of that type is sent`);
      return new Set();
    }
  }
}
