import type { RequestListener } from 'node:http';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { DeploymentRecord } from '../store/types.js';

/** The metric prefix of every Gatehouse process (the sync service uses it too). */
const PREFIX = 'gatehouse_';

/**
 * Environment names come from callers: past this many distinct ones, further names count under
 * `other`, so a caller cannot grow the series without bound. Repository names are never labels.
 */
export const MAX_ENVIRONMENT_LABELS = 50;
const OTHER_ENVIRONMENT = 'other';

/** Label of a request that matched no route: its path is the caller's and would be unbounded. */
const UNMATCHED = 'unmatched';

/**
 * The backend's Prometheus metrics, on a registry of its own (as the sync service's: never
 * prom-client's global one), so a test or a second app in one process starts from zero.
 */
export class BackendMetrics {
  readonly registry = new Registry();
  private readonly deployments: Counter<'status' | 'environment'>;
  private readonly duplicates: Counter;
  private readonly chat: Counter<'outcome'>;
  private readonly tokens: Counter<'outcome'>;
  private readonly keySets: Counter<'result'>;
  private readonly auditFailures: Counter<'route'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private readonly environments = new Set<string>();

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.deployments = new Counter({
      name: `${PREFIX}ledger_deployments_total`,
      help: `Deployments recorded (first-seen records), by status and environment (environments past the first ${MAX_ENVIRONMENT_LABELS} count as "${OTHER_ENVIRONMENT}")`,
      labelNames: ['status', 'environment'],
      registers,
    });
    this.duplicates = new Counter({ name: `${PREFIX}ledger_duplicates_total`, help: 'Deliveries answered as duplicates (nothing stored or sent)', registers });
    this.chat = new Counter({ name: `${PREFIX}ledger_chat_notifications_total`, help: 'Chat notifications, by outcome (sent, failed)', labelNames: ['outcome'], registers });
    this.tokens = new Counter({
      name: `${PREFIX}token_requests_total`,
      help: 'POST /token answers, by outcome: minted, or the error code answered',
      labelNames: ['outcome'],
      registers,
    });
    this.keySets = new Counter({ name: `${PREFIX}key_set_fetches_total`, help: "Fetches of an issuer's key set, by result (ok, failed)", labelNames: ['result'], registers });
    this.auditFailures = new Counter({
      name: `${PREFIX}audit_write_failures_total`,
      help: 'Token audit records that could not be written, by route (/token, /sign)',
      labelNames: ['route'],
      registers,
    });
    this.durations = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time from a request’s arrival to the end of its answer, by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    // Series that alerts read exist from the first scrape.
    for (const outcome of ['sent', 'failed']) this.chat.inc({ outcome }, 0);
    for (const result of ['ok', 'failed']) this.keySets.inc({ result }, 0);
    this.tokens.inc({ outcome: 'minted' }, 0);
    for (const route of ['/token', '/sign']) this.auditFailures.inc({ route }, 0);
    this.duplicates.inc(0);
  }

  /** A `POST /v1/deployments` answered: a first-seen record (and its chat outcome), or a duplicate. */
  deploymentAnswered(record: DeploymentRecord, duplicate: boolean): void {
    if (duplicate) {
      this.duplicates.inc();
      return;
    }
    this.deployments.inc({ status: record.status, environment: this.environmentLabel(record.environment) });
    const chat = record.notified?.chat;
    if (chat !== undefined) this.chat.inc({ outcome: chat ? 'sent' : 'failed' });
  }

  /** `POST /token` answered: `minted`, or the error code of the answer. */
  readonly tokenAnswered = (outcome: string): void => {
    this.tokens.inc({ outcome });
  };

  /** A token audit record of `route` could not be written. */
  readonly auditWriteFailed = (route: string): void => {
    this.auditFailures.inc({ route });
  };

  readonly keySetFetched = (result: 'ok' | 'failed'): void => {
    this.keySets.inc({ result });
  };

  /** Times every request of `listener`. The route label is Express's matched route path, else `unmatched`. */
  timed(listener: RequestListener): RequestListener {
    return (req, res) => {
      const started = performance.now();
      res.once('close', () => {
        const matched = (req as { route?: { path?: unknown } }).route?.path;
        const route = typeof matched === 'string' ? matched : UNMATCHED;
        this.durations.observe({ method: req.method ?? 'UNKNOWN', route, status: String(res.statusCode) }, (performance.now() - started) / 1000);
      });
      listener(req, res);
    };
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private environmentLabel(environment: string): string {
    if (this.environments.has(environment)) return environment;
    if (this.environments.size >= MAX_ENVIRONMENT_LABELS) return OTHER_ENVIRONMENT;
    this.environments.add(environment);
    return environment;
  }
}
