import { reportListenFailure } from '../../startup/checks.js';
import { packageVersion } from '../../version.js';
import type { ParsedArgs } from '../args.js';
import { systemClock } from '../../clock.js';
import type { SyncIo } from '../command.js';
import { loadSyncConfig } from '../config.js';
import { serviceLogger, serviceSecrets } from './log.js';
import { mongoLocks } from './locks-mongo.js';
import { memoryLocks, type SourceLocks } from './locks.js';
import { checkServiceProcess } from './process-settings.js';
import { assemble, checkServiceConfig, listenSyncApp } from './start.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_CONFIG = 2;

/**
 * The MongoDB driver loads only when MONGODB_URI is set: in the command-line bundle it is a chunk
 * of its own (about 1.6 MB), so the service chunk stays under 2 MB and in-memory mode never parses it.
 * The import names the package itself, so the chunk holds only the driver and keeps the id of its
 * name: importing our own module that imports the driver made webpack split the driver into a
 * second, unnamed chunk whose id changed between builds, and dist/ could not equal a fresh build.
 */
const loadDriver = () => import(/* webpackChunkName: "mongodb" */ 'mongodb');

async function locksFor(mongoUri: string | undefined, onLost: (key: string) => void): Promise<SourceLocks> {
  if (!mongoUri) return memoryLocks();
  return mongoLocks(mongoUri, { onLost }, await loadDriver());
}

/**
 * `gatehouse-sync serve`. Mode deployment: every enabled source on its schedule, the HTTP
 * surface on PORT, until SIGTERM or SIGINT; an invalid configuration keeps the process up and
 * not ready, so the orchestrator shows why. Mode cronjob: every enabled source once, then the
 * exit status (0 all succeeded, 1 one failed, 2 invalid configuration). An unusable process
 * setting (PORT, HOST, LOG_LEVEL, SYNC_SHUTDOWN_GRACE_SECONDS, MONGODB_URI) exits 2 in either mode.
 */
export async function serveCommand(args: ParsedArgs, env: NodeJS.ProcessEnv, io: SyncIo, signals: Pick<NodeJS.Process, 'once' | 'off'> = process): Promise<number> {
  const checked = await checkServiceProcess(env, loadDriver);
  const config = checkServiceConfig(() => loadSyncConfig({ ...(args.configFile ? { file: args.configFile } : {}), env }));
  const mode = config.mode ?? 'deployment';
  // A process setting stops it in either mode; the sync configuration's problems are listed too, so one look shows them all.
  if (!checked.ok || (config.problems.length > 0 && mode === 'cronjob')) {
    const problems = [...(checked.ok ? [] : checked.problems.map((p) => p.message)), ...config.problems];
    io.err(`gatehouse-sync: invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return EXIT_CONFIG;
  }
  const { port, host, logLevel, graceMs, mongoUri } = checked.value;
  // Every line scrubbed of the configured secrets, whatever logged it (an upstream may echo one).
  const logger = serviceLogger({ level: logLevel, secrets: serviceSecrets(config.loaded, env) });
  if (config.problems.length > 0) {
    logger.error({ problems: config.problems }, 'invalid configuration: nothing is scheduled and /readyz answers 503 until it is fixed');
  }
  // A key is a source, or an issue push's product or repository (`issue-push:…`).
  const locks = await locksFor(mongoUri, (key) => logger.error({ lock: key }, 'the lock of a running sync or issue push was taken over: another process may be doing the same work'));
  const version = packageVersion();
  const triggerToken = env.SYNC_TRIGGER_TOKEN?.trim() || undefined;
  const webhookSecret = env.SYNC_DEPENDENCY_TRACK_WEBHOOK_SECRET?.trim() || undefined;
  const assembled = assemble({
    config,
    options: args.options,
    locks,
    logger,
    timers: systemClock,
    pacerClock: systemClock,
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
  let listening;
  try {
    listening = await listenSyncApp(assembled, { logger, version, ...(triggerToken ? { triggerToken } : {}), ...(webhookSecret ? { webhookSecret } : {}) }, port, host);
  } catch (err) {
    reportListenFailure(logger, err as NodeJS.ErrnoException);
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
