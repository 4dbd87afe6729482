import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../../config-error.js';
import { createLogger } from '../../logger.js';
import { packageVersion } from '../../version.js';
import type { ParsedArgs } from '../args.js';
import type { SyncIo } from '../command.js';
import { loadSyncConfig } from '../config.js';
import { mongoLocks } from './locks-mongo.js';
import { memoryLocks, type SourceLocks } from './locks.js';
import { assemble, checkServiceConfig, listenSyncApp } from './start.js';
import { realTimers } from './timers.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_CONFIG = 2;
/** How long a running sync may go on after SIGTERM; the chart's termination grace is longer. */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 120;

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new ConfigError(name, `must be a whole number from 0 to ${max}`);
  return Number(raw);
}

/**
 * The MongoDB driver loads only when MONGODB_URI is set: in the command-line bundle it is a chunk
 * of its own (about 1.6 MB), so the service chunk stays under 2 MB and in-memory mode never parses it.
 * The import names the package itself, so the chunk holds only the driver and keeps the id of its
 * name: importing our own module that imports the driver made webpack split the driver into a
 * second, unnamed chunk whose id changed between builds, and dist/ could not equal a fresh build.
 */
async function locksFor(env: NodeJS.ProcessEnv, onLost: (source: string) => void): Promise<SourceLocks> {
  const uri = env.MONGODB_URI?.trim();
  if (!uri) return memoryLocks();
  const driver = await import(/* webpackChunkName: "mongodb" */ 'mongodb');
  return mongoLocks(uri, { onLost }, driver);
}

/**
 * `gatehouse-sync serve`. Mode deployment: every enabled source on its schedule, the HTTP
 * surface on PORT, until SIGTERM or SIGINT; an invalid configuration keeps the process up and
 * not ready, so the orchestrator shows why. Mode cronjob: every enabled source once, then the
 * exit status (0 all succeeded, 1 one failed, 2 invalid configuration).
 */
export async function serveCommand(args: ParsedArgs, env: NodeJS.ProcessEnv, io: SyncIo, signals: Pick<NodeJS.Process, 'once' | 'off'> = process): Promise<number> {
  const logger = createLogger({ level: env.LOG_LEVEL?.trim() || 'info', service: 'gatehouse-sync' });
  let port: number;
  let graceMs: number;
  try {
    port = whole(env, 'PORT', 8080, 65535);
    graceMs = whole(env, 'SYNC_SHUTDOWN_GRACE_SECONDS', DEFAULT_SHUTDOWN_GRACE_SECONDS, 86_400) * 1000;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`gatehouse-sync: invalid configuration:\n  - ${err.setting} ${err.message}`);
    return EXIT_CONFIG;
  }
  const config = checkServiceConfig(() => loadSyncConfig({ ...(args.configFile ? { file: args.configFile } : {}), env }));
  const mode = config.mode ?? 'deployment';
  if (config.problems.length > 0) {
    if (mode === 'cronjob') {
      io.err(`gatehouse-sync: invalid configuration:\n${config.problems.map((p) => `  - ${p}`).join('\n')}`);
      return EXIT_CONFIG;
    }
    logger.error({ problems: config.problems }, 'invalid configuration: nothing is scheduled and /readyz answers 503 until it is fixed');
  }
  const locks = await locksFor(env, (source) => logger.error({ source }, 'the lock of a running sync was taken over: another process may be running the same source'));
  const version = packageVersion();
  const triggerToken = env.SYNC_TRIGGER_TOKEN?.trim() || undefined;
  const assembled = assemble({
    config,
    options: args.options,
    locks,
    logger,
    timers: realTimers,
    pacerClock: { now: () => Date.now(), sleep: (ms) => sleep(ms) },
    version,
    ...(triggerToken ? { triggerToken } : {}),
  });
  const { service } = assembled;

  if (mode === 'cronjob') {
    const started = await Promise.all(service!.sources.map((source) => service!.start(source, 'once').then((answer) => ({ source, answer }))));
    let ok = true;
    for (const { source, answer } of started) {
      if (answer.outcome === 'started') ok = (await answer.finished).ok && ok;
      else {
        ok = false;
        logger.error({ source, outcome: answer.outcome }, 'not run: another run of this source holds its lock');
      }
    }
    await locks.close();
    return ok ? EXIT_OK : EXIT_FAILED;
  }

  if (!triggerToken) logger.warn('SYNC_TRIGGER_TOKEN is not set: POST /sync/{source} and /metrics answer anyone who can reach the port');
  const host = env.HOST?.trim() || undefined;
  let listening;
  try {
    listening = await listenSyncApp(assembled, { logger, version, ...(triggerToken ? { triggerToken } : {}) }, port, host);
  } catch (err) {
    logger.fatal({ err }, 'cannot listen');
    await locks.close();
    return EXIT_FAILED;
  }
  assembled.schedule();
  const nextRuns = Object.fromEntries(Object.entries(assembled.scheduler.nextRuns()).map(([s, at]) => [s, at?.toISOString() ?? null]));
  logger.info({ address: listening.server.address(), version, mode, locks: locks.kind, sources: service?.sources ?? [], next_runs: nextRuns, issue_push: assembled.issuePush }, 'gatehouse-sync listening');

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    signals.once('SIGTERM', () => resolve('SIGTERM'));
    signals.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info({ signal, running: service?.inProgress ?? 0, grace_ms: graceMs }, 'shutting down: no new runs; running ones may finish');
  assembled.scheduler.stop();
  assembled.readiness.shuttingDown();
  const finished = service ? await service.stop(graceMs) : true;
  if (!finished) logger.warn({ running: service?.inProgress }, 'grace period over: stopping with runs unfinished; the next run repeats their work');
  await new Promise<void>((resolve) => {
    listening.server.close(() => resolve());
    listening.server.closeIdleConnections();
    setTimeout(() => listening.server.closeAllConnections(), 5000).unref();
  });
  await locks.close().catch(() => undefined);
  logger.info('stopped');
  return finished ? EXIT_OK : EXIT_FAILED;
}
