import type { Logger } from '../logger.js';
import type { RetryPolicy } from '../http/retry.js';
import type { Severity } from '../sync/config.js';
import type { DefectDojoClient } from '../sync/defectdojo/client.js';
import type { GithubClient } from '../sync/github/client.js';
import type { GithubTarget } from '../sync/github/targets.js';
import type { SourceLocks } from '../sync/service/locks.js';
import type { GithubPacers } from './pacer.js';
import type { PushLockOptions } from './push-locks.js';

/** What issue push and the issue lifecycle work with (the service wires them). */
export interface IssuePushDeps {
  readonly defectDojo: DefectDojoClient;
  /** DefectDojo's web address, for the link back from each issue. */
  readonly defectDojoUrl: string;
  /** Public platform first, then enterprise instances. */
  readonly targets: readonly GithubTarget[];
  readonly clientFor: (target: GithubTarget) => GithubClient;
  /** The pacers of the target's account, shared by everything in the process that creates issues. */
  readonly pacersFor: (target: GithubTarget) => GithubPacers;
  /** The locks runs use (MongoDB with MONGODB_URI): one push at a time per product and per repository. */
  readonly locks: SourceLocks;
  readonly lockWait: PushLockOptions;
  readonly minSeverity: Severity;
  readonly maxIssuesPerRun: number;
  readonly retry: RetryPolicy;
  readonly log: Pick<Logger, 'info' | 'warn'>;
}
