import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { KeySetOptions } from '../../server/auth/key-sets.js';
import type { Clock } from '../../server/clock.js';
import type { Env } from '../../server/config-error.js';
import type { BackendBounds } from '../../server/http/call-bounds.js';
import type { Fetch } from '../../server/http/outbound.js';
import type { InstallationDirectory } from '../../server/platform/installations.js';
import type { Store } from '../../server/store/types.js';
import { startBackend, type Backend } from './backend.js';
import { FakeGitHub } from './fake-github.js';
import { call, type JsonAnswer } from './http.js';
import { TestIssuer } from './oidc-issuer.js';

export const BROKER_AUDIENCE = 'gatehouse-broker';
export const REPO = 'octo-org/octo-repo';
export const REPO_ID = 123456789;
export const INSTALLATION_ID = 31337;

export interface BrokerHarness {
  readonly backend: Backend;
  readonly issuer: TestIssuer;
  readonly github: FakeGitHub;
  readonly triggerSecret: string;
  readonly webhookSecret: string;
  /** An OIDC token of the default repository for the broker's audience. */
  oidc(overrides?: Record<string, unknown>, options?: Parameters<TestIssuer['mint']>[1]): Promise<string>;
  token(body: unknown): Promise<JsonAnswer>;
  close(): Promise<void>;
}

/**
 * The real backend with a test issuer and a fake GitHub on loopback, the app installed on the
 * issuer's default repository. The environment object is live (tests change it between requests).
 */
export async function startBroker(
  options: { env?: Env; clock?: Clock; store?: Store; installations?: InstallationDirectory; keySets?: KeySetOptions; bounds?: Partial<BackendBounds>; transport?: Fetch } = {},
): Promise<BrokerHarness> {
  const issuer = await TestIssuer.start();
  const github = await FakeGitHub.start();
  github.addInstallation(INSTALLATION_ID, 'octo-org');
  github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
  const triggerSecret = randomBytes(16).toString('hex');
  const webhookSecret = randomBytes(16).toString('hex');
  const backend = await startBackend({
    issuer,
    env: {
      FORGE_API_BASE: github.apiBase,
      FORGE_APP_ID: github.appId,
      FORGE_APP_PRIVATE_KEY: github.privateKeyPem,
      PROCESS_TRIGGER_SECRET: triggerSecret,
      FORGE_WEBHOOK_SECRET: webhookSecret,
      ...options.env,
    },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.installations ? { installations: options.installations } : {}),
    ...(options.keySets ? { keySets: options.keySets } : {}),
    ...(options.bounds ? { bounds: options.bounds } : {}),
    ...(options.transport ? { transport: options.transport } : {}),
  });
  return {
    backend,
    issuer,
    github,
    triggerSecret,
    webhookSecret,
    oidc: (overrides = {}, mintOptions = {}) => issuer.mint({ aud: BROKER_AUDIENCE, ...overrides }, mintOptions),
    token: (body) => call(`${backend.url}/token`, { json: body }),
    close: async () => {
      await backend.close();
      await github.close();
      await issuer.close();
    },
  };
}

/** The `X-Hub-Signature-256` value GitHub would send for these bytes. */
export function hubSignature(secret: string, raw: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

/**
 * A `push` delivery payload for the default repository, in GitHub's shape. Every real push differs
 * at least in its new head, so each call's body is unique (identical bodies are replays).
 */
export function pushPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ref: 'refs/heads/main',
    before: '1'.repeat(40),
    after: randomUUID().replace(/-/g, '').padEnd(40, '0'),
    created: false,
    deleted: false,
    repository: { id: REPO_ID, name: 'octo-repo', full_name: REPO, owner: { login: 'octo-org', name: 'octo-org' } },
    installation: { id: INSTALLATION_ID, node_id: 'MDIz' },
    sender: { login: 'octocat' },
    ...overrides,
  };
}
