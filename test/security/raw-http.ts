import { request, type IncomingHttpHeaders } from 'node:http';
import { createLogger } from '../../server/logger.js';
import { DEFAULT_OPTIONS } from '../../server/sync/options.js';
import { loadSyncConfig } from '../../server/sync/config.js';
import { memoryLocks } from '../../server/sync/service/locks.js';
import { assemble, checkServiceConfig, listenSyncApp, type Assembled } from '../../server/sync/service/start.js';
import { systemClock } from '../../server/clock.js';
import { startAttacker, type Attacker } from './world.js';

export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  readonly body: Record<string, unknown> | undefined;
}

export interface RawRequest {
  readonly method?: string;
  /** Arrays send the header once per value. */
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Buffer;
  /** Sends the body in chunks with no Content-Length (Transfer-Encoding: chunked). */
  readonly chunked?: boolean;
}

/**
 * One request over a fresh connection with node:http, so headers, bytes and framing are exactly
 * what the test says (fetch would normalise some of them). An answer that arrives before the body
 * is fully written (a limit hit early) still counts as the answer.
 */
export function send(url: string, options: RawRequest = {}): Promise<RawAnswer> {
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (body !== undefined && !options.chunked) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    let answered = false;
    // The path goes out exactly as written: a URL parser would resolve `%2e%2e` and the like first.
    const { protocol, hostname, port, origin } = new URL(url);
    const path = url.slice(origin.length) || '/';
    const req = request({ protocol, hostname, port, path, method: options.method ?? 'POST', headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: Record<string, unknown> | undefined;
        try {
          parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (body !== undefined && options.chunked) {
      for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
    } else if (body !== undefined) {
      req.write(body);
    }
    req.end();
  });
}

export const SYNC_TRIGGER = 'sync-trigger-attack-suite-0123456789';

/**
 * The sync service's HTTP surface as `serve` builds it, with SYNC_TRIGGER_TOKEN set. Its
 * Dependency-Track and DefectDojo point at a counting server: any request reaching it means a run
 * started (or a probe ran) that the test did not ask for.
 */
export interface SyncSurface {
  readonly url: string;
  readonly upstream: Attacker;
  readonly assembled: Assembled;
  close(): Promise<void>;
}

export async function startSyncSurface(): Promise<SyncSurface> {
  const upstream = await startAttacker();
  const config = checkServiceConfig(() =>
    loadSyncConfig({
      env: {
        SYNC_DEPENDENCYTRACK_URL: upstream.url,
        SYNC_DEFECTDOJO_URL: upstream.url,
        SYNC_GITHUB_ENABLED: 'false',
        DEPENDENCY_TRACK_API_KEY: 'dt-key-attack-suite',
        DEFECTDOJO_TOKEN: 'dd-token-attack-suite',
      },
    }),
  );
  const logger = createLogger({ level: 'silent' });
  const assembled = assemble({
    config,
    options: { ...DEFAULT_OPTIONS, retries: 0 },
    locks: memoryLocks(),
    logger,
    timers: systemClock,
    pacerClock: { now: () => Date.now(), sleep: async () => undefined },
    version: 'attack',
    triggerToken: SYNC_TRIGGER,
  });
  const listening = await listenSyncApp(assembled, { logger, version: 'attack', triggerToken: SYNC_TRIGGER }, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${listening.port}`,
    upstream,
    assembled,
    close: async () => {
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        listening.server.closeAllConnections();
      });
      await assembled.service?.stop(2000);
      await upstream.close();
    },
  };
}
