import type { Timers } from './timers.js';

export type ReadinessAnswer = { ready: true } | { ready: false; reason: 'configuration_invalid' | 'defectdojo_unreachable' | 'shutting_down'; problems?: readonly string[] };

export interface ReadinessOptions {
  /** Empty when the configuration is valid and every enabled source has what it needs. */
  readonly configProblems: readonly string[];
  /** One cheap authenticated DefectDojo call; rejects when DefectDojo did not answer 2xx. */
  readonly probe?: () => Promise<void>;
  readonly timers: Pick<Timers, 'now'>;
  /** How long a DefectDojo answer counts as recent. */
  readonly freshMs?: number;
}

export const DEFAULT_FRESH_MS = 5 * 60_000;

/**
 * `GET /readyz`: the configuration is valid and DefectDojo answered recently. A run's successful
 * reimport counts as an answer; when none is recent, one probe call is made (shared by
 * concurrent probes) rather than on every request.
 */
export class Readiness {
  private lastAnswerAt = Number.NEGATIVE_INFINITY;
  private probing?: Promise<boolean>;
  private stopping = false;

  constructor(private readonly options: ReadinessOptions) {}

  /** DefectDojo answered a call with 2xx. */
  defectDojoAnswered(): void {
    this.lastAnswerAt = this.options.timers.now();
  }

  shuttingDown(): void {
    this.stopping = true;
  }

  async check(): Promise<ReadinessAnswer> {
    if (this.stopping) return { ready: false, reason: 'shutting_down' };
    if (this.options.configProblems.length > 0 || !this.options.probe) {
      return { ready: false, reason: 'configuration_invalid', problems: this.options.configProblems };
    }
    if (this.options.timers.now() - this.lastAnswerAt <= (this.options.freshMs ?? DEFAULT_FRESH_MS)) return { ready: true };
    this.probing ??= this.options.probe().then(
      () => {
        this.defectDojoAnswered();
        return true;
      },
      () => false,
    );
    const probing = this.probing;
    const answered = await probing.finally(() => {
      if (this.probing === probing) this.probing = undefined;
    });
    return answered ? { ready: true } : { ready: false, reason: 'defectdojo_unreachable' };
  }
}
