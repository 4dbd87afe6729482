import { createApp } from '../../server/app.js';
import { KeySetRegistry, type KeySetOptions } from '../../server/auth/key-sets.js';
import type { Clock } from '../../server/clock.js';
import type { Env } from '../../server/config-error.js';
import type { BackendBounds } from '../../server/http/call-bounds.js';
import type { Fetch } from '../../server/http/outbound.js';
import { apiServer } from '../../server/http/client-errors.js';
import { BackendMetrics } from '../../server/metrics/backend-metrics.js';
import type { InstallationDirectory } from '../../server/platform/installations.js';
import { createMemoryStore } from '../../server/store/memory.js';
import type { Store } from '../../server/store/types.js';
import { capturedLogger } from './log-capture.js';
import { DEFAULT_AUDIENCE, TestIssuer } from './oidc-issuer.js';
import { listen } from './servers.js';

export interface Backend {
  readonly url: string;
  readonly issuer: TestIssuer;
  readonly store: Store;
  readonly env: Record<string, string | undefined>;
  readonly logs: ReturnType<typeof capturedLogger>;
  readonly keySets: KeySetRegistry;
  readonly metrics: BackendMetrics;
  close(): Promise<void>;
}

/**
 * The real backend (createApp) on loopback with a test issuer. The environment object is live:
 * tests change it between requests. Defaults let the issuer's default repository record.
 */
export async function startBackend(
  options: { env?: Env; clock?: Clock; store?: Store; keySets?: KeySetOptions; issuer?: TestIssuer; installations?: InstallationDirectory; bounds?: Partial<BackendBounds>; transport?: Fetch } = {},
): Promise<Backend> {
  const issuer = options.issuer ?? (await TestIssuer.start());
  const env: Record<string, string | undefined> = {
    OIDC_ISSUER: issuer.url,
    LEDGER_AUDIENCE: DEFAULT_AUDIENCE,
    LEDGER_ALLOWED_OWNERS: 'octo-org',
    ...options.env,
  };
  const store = options.store ?? createMemoryStore(options.clock);
  const logs = capturedLogger();
  const metrics = new BackendMetrics({ defaultMetrics: false });
  const keySets = new KeySetRegistry({ ...(options.clock ? { clock: options.clock } : {}), onFetch: metrics.keySetFetched, ...options.keySets });
  const app = createApp({
    env: () => env,
    store,
    logger: logs.logger,
    version: '0.0.0-test',
    keySets,
    metrics,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.installations ? { installations: options.installations } : {}),
    ...(options.bounds ? { bounds: options.bounds } : {}),
    ...(options.transport ? { transport: options.transport } : {}),
  });
  // As server/main.ts wires it: requests Node's parser refuses still get a JSON answer.
  const listening = await listen(apiServer(app));
  return {
    url: listening.url,
    issuer,
    store,
    env,
    logs,
    keySets,
    metrics,
    close: async () => {
      await listening.close();
      await store.close();
      if (!options.issuer) await issuer.close();
    },
  };
}

/** A clock tests move by hand. */
export function manualClock(startMs = Date.now()): Clock & { advance(ms: number): void } {
  let now = startMs;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}
