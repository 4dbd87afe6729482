import { isRefusal } from '../credentials.js';
import type { Timers } from '../../clock.js';

export type NotReadyReason = 'configuration_invalid' | 'defectdojo_unreachable' | 'defectdojo_unauthorized' | 'shutting_down';
export type ReadinessAnswer = { ready: true } | { ready: false; reason: NotReadyReason; problems?: readonly string[] };

export interface ReadinessOptions {
  /** Empty when the configuration is valid and every enabled source has what it needs. */
  readonly configProblems: readonly string[];
  /** One cheap authenticated DefectDojo call; rejects when DefectDojo did not answer 2xx. */
  readonly probe?: () => Promise<void>;
  readonly timers: Pick<Timers, 'now'>;
  /** How long a DefectDojo answer counts as recent. */
  readonly freshMs?: number;
  /** How long a failed probe is the answer, before DefectDojo is asked again. */
  readonly failureMs?: number;
}

const DEFAULT_FRESH_MS = 5 * 60_000;
/** A probe every few seconds at most while DefectDojo fails: not one call with the token per `/readyz`. */
const DEFAULT_FAILURE_MS = 10_000;

/** A refusal of the token (401/403) is told apart from DefectDojo not answering. */
function failureReason(err: unknown): NotReadyReason {
  return isRefusal(err) ? 'defectdojo_unauthorized' : 'defectdojo_unreachable';
}

/**
 * `GET /readyz`: the configuration is valid and DefectDojo answered recently. A run's successful
 * reimport counts as an answer; when none is recent, one probe call is made (shared by
 * concurrent probes) rather than on every request.
 */
export class Readiness {
  private lastAnswerAt = Number.NEGATIVE_INFINITY;
  private lastFailure?: { readonly at: number; readonly reason: NotReadyReason };
  private probing?: Promise<NotReadyReason | undefined>;
  private stopping = false;

  constructor(private readonly options: ReadinessOptions) {}

  /** DefectDojo answered a call with 2xx. */
  defectDojoAnswered(): void {
    this.lastAnswerAt = this.options.timers.now();
    this.lastFailure = undefined;
  }

  shuttingDown(): void {
    this.stopping = true;
  }

  async check(): Promise<ReadinessAnswer> {
    if (this.stopping) return { ready: false, reason: 'shutting_down' };
    if (this.options.configProblems.length > 0 || !this.options.probe) {
      return { ready: false, reason: 'configuration_invalid', problems: this.options.configProblems };
    }
    const now = this.options.timers.now();
    if (now - this.lastAnswerAt <= (this.options.freshMs ?? DEFAULT_FRESH_MS)) return { ready: true };
    if (this.lastFailure && now - this.lastFailure.at < (this.options.failureMs ?? DEFAULT_FAILURE_MS)) return { ready: false, reason: this.lastFailure.reason };
    this.probing ??= this.options.probe().then(
      () => {
        this.defectDojoAnswered();
        return undefined;
      },
      (err: unknown) => {
        const reason = failureReason(err);
        this.lastFailure = { at: this.options.timers.now(), reason };
        return reason;
      },
    );
    const probing = this.probing;
    const failed = await probing.finally(() => {
      if (this.probing === probing) this.probing = undefined;
    });
    return failed === undefined ? { ready: true } : { ready: false, reason: failed };
  }
}
