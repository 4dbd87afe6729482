import type { Logger } from '../logger.js';
import type { RetryPolicy } from '../http/retry.js';
import type { GitHubClient } from '../github/client.js';
import type { GithubTarget } from '../github/targets.js';
import type { Severity } from './finding.js';
import type { GithubPacers } from './pacer.js';
import type { PushLockOptions, PushLocks } from './push-locks.js';

/** What issue push reads from and writes to DefectDojo (the sync's DefectDojo client is one). */
export interface FindingStore {
  /** Pages of the product's active findings of these severities that no issue is linked to yet. */
  openFindings(product: string, severities: readonly string[]): AsyncIterable<unknown[]>;
  /** Pages of the product's findings linked to an issue (tagged `issue:`). */
  linkedFindings(product: string): AsyncIterable<unknown[]>;
  addFindingTags(id: number, tags: readonly string[]): Promise<void>;
}

/** What issue push and the issue lifecycle work with (the service wires them). */
export interface IssuePushDeps {
  readonly defectDojo: FindingStore;
  /** DefectDojo's web address, for the link back from each issue. */
  readonly defectDojoUrl: string;
  /** Public platform first, then enterprise instances. */
  readonly targets: readonly GithubTarget[];
  readonly clientFor: (target: GithubTarget) => GitHubClient;
  /** The pacers of the target's account, shared by everything in the process that creates issues. */
  readonly pacersFor: (target: GithubTarget) => GithubPacers;
  /** The locks runs use (MongoDB with MONGODB_URI): one push at a time per product and per repository. */
  readonly locks: PushLocks;
  readonly lockWait: PushLockOptions;
  readonly minSeverity: Severity;
  readonly maxIssuesPerRun: number;
  readonly retry: RetryPolicy;
  readonly log: Pick<Logger, 'info' | 'warn'>;
}
