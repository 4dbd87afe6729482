import { collect, ConfigError, type Checked, type Env } from '../../config-error.js';
import { checkListenSettings, type ListenSettings } from '../../startup/checks.js';
import { mongoUriProblem, type MongoClientClass } from '../../store/mongo-uri.js';
import { LOCKS_APP_NAME } from './locks-mongo.js';

/** How long a running sync may go on after SIGTERM; the chart's termination grace is longer. */
const DEFAULT_SHUTDOWN_GRACE_SECONDS = 120;
const MAX_SHUTDOWN_GRACE_SECONDS = 86_400;

/** What the service process itself needs, apart from the sync configuration. */
export interface ServiceProcessSettings extends ListenSettings {
  readonly graceMs: number;
  /** Set: locks are MongoDB leases. */
  readonly mongoUri?: string;
}

function graceSeconds(env: Env): number {
  const raw = env.SYNC_SHUTDOWN_GRACE_SECONDS?.trim();
  if (!raw) return DEFAULT_SHUTDOWN_GRACE_SECONDS;
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_SHUTDOWN_GRACE_SECONDS) {
    throw new ConfigError('SYNC_SHUTDOWN_GRACE_SECONDS', `must be a whole number from 0 to ${MAX_SHUTDOWN_GRACE_SECONDS}`);
  }
  return Number(raw);
}

/**
 * PORT, HOST, LOG_LEVEL, SYNC_SHUTDOWN_GRACE_SECONDS and the syntax of MONGODB_URI, every
 * problem at once. Unlike the sync configuration, these stop the process in either mode: it
 * cannot listen, log or lock without them. `loadDriver` is called only when MONGODB_URI is set
 * (the command-line bundle keeps the driver in a chunk of its own).
 */
export async function checkServiceProcess(env: Env, loadDriver: () => Promise<{ MongoClient: MongoClientClass }>): Promise<Checked<ServiceProcessSettings>> {
  const problems: ConfigError[] = [];
  const listen = checkListenSettings(env, problems);
  const grace = collect(problems, () => graceSeconds(env));
  const mongoUri = env.MONGODB_URI?.trim() || undefined;
  if (mongoUri) {
    const mongo = mongoUriProblem(mongoUri, (await loadDriver()).MongoClient, LOCKS_APP_NAME);
    if (mongo) problems.push(mongo);
  }
  if (!listen || grace === undefined || problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { ...listen, graceMs: grace * 1000, ...(mongoUri ? { mongoUri } : {}) } };
}
