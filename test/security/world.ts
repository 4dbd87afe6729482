import type { IncomingMessage } from 'node:http';
import { createMinimalApp } from '../../server/minimal/app.js';
import { manualClock } from '../support/backend.js';
import { startBroker, type BrokerHarness } from '../support/broker.js';
import { FakeGitHub } from '../support/fake-github.js';
import { call, type JsonAnswer } from '../support/http.js';
import { capturedLogger } from '../support/log-capture.js';
import { TestIssuer } from '../support/oidc-issuer.js';
import { listen, type Listening } from '../support/servers.js';

export const LEDGER_AUDIENCE = 'gatehouse-ledger';
export const BROKER_AUDIENCE = 'gatehouse-broker';

/** A repository of another owner on which the primary app is also installed (owner-confusion variants). */
export const OTHER_REPO = { owner: 'evil-org', repo: 'app', id: 555, installation: 31338 } as const;
/** The enterprise instance's repository. */
export const ENTERPRISE_REPO = { owner: 'corp', repo: 'service', id: 4242, installation: 5 } as const;

/** A loopback server standing in for an attacker: it answers anything and counts what reaches it. */
export interface Attacker {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startAttacker(): Promise<Attacker> {
  const requests: string[] = [];
  const listening = await listen((req: IncomingMessage, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
  });
  return { url: listening.url, requests, close: () => listening.close() };
}

/**
 * Every token consumer at once, all real: the backend (ledger and main broker) and the minimal
 * broker on loopback, sharing one live environment and one hand-moved clock; a primary and an
 * enterprise issuer, each with its fake platform; and an attacker server that must never be called.
 */
export interface TokenWorld {
  readonly clock: ReturnType<typeof manualClock>;
  readonly broker: BrokerHarness;
  readonly primary: TestIssuer;
  readonly enterprise: TestIssuer;
  readonly github: FakeGitHub;
  readonly ghe: FakeGitHub;
  readonly minimal: { readonly url: string; readonly logs: ReturnType<typeof capturedLogger> };
  readonly attacker: Attacker;
  /** Every log line written so far by both processes. */
  logText(): string;
  /** Platform calls so far on both fake platforms. */
  platformCalls(): number;
  close(): Promise<void>;
}

export async function startTokenWorld(): Promise<TokenWorld> {
  // A whole second plus half of one, so "exactly at the boundary" is exact after jose floors it.
  const clock = manualClock(Math.floor(Date.now() / 1000) * 1000 + 500);
  const broker = await startBroker({ clock });
  const github = broker.github;
  github.addInstallation(OTHER_REPO.installation, OTHER_REPO.owner);
  github.addRepo(`${OTHER_REPO.owner}/${OTHER_REPO.repo}`, OTHER_REPO.id, OTHER_REPO.installation);

  const enterprise = await TestIssuer.start();
  const ghe = await FakeGitHub.start({ appId: '77', prefix: '/api/v3' });
  ghe.addInstallation(ENTERPRISE_REPO.installation, ENTERPRISE_REPO.owner);
  ghe.addRepo(`${ENTERPRISE_REPO.owner}/${ENTERPRISE_REPO.repo}`, ENTERPRISE_REPO.id, ENTERPRISE_REPO.installation);
  Object.assign(broker.backend.env, {
    ENTERPRISE_OIDC_ISSUER: enterprise.url,
    ENTERPRISE_API_BASE: ghe.apiBase,
    ENTERPRISE_APP_ID: ghe.appId,
    ENTERPRISE_APP_PRIVATE_KEY: ghe.privateKeyPem,
  });

  const minimalLogs = capturedLogger();
  const minimalServer: Listening = await listen(
    createMinimalApp({ env: () => broker.backend.env, logger: minimalLogs.logger, version: 'test', clock }),
  );
  const attacker = await startAttacker();

  return {
    clock,
    broker,
    primary: broker.issuer,
    enterprise,
    github,
    ghe,
    minimal: { url: minimalServer.url, logs: minimalLogs },
    attacker,
    logText: () => broker.backend.logs.text() + minimalLogs.text(),
    platformCalls: () => github.calls.length + ghe.calls.length,
    close: async () => {
      await minimalServer.close();
      await attacker.close();
      await broker.close();
      await ghe.close();
      await enterprise.close();
    },
  };
}

export type ConsumerId = 'ledger POST' | 'ledger GET' | 'broker' | 'minimal';

/** Who a token claims to be, and so what the brokers are asked to mint for. */
export interface Target {
  readonly owner: string;
  readonly repo: string;
}

export const DEFAULT_TARGET: Target = { owner: 'octo-org', repo: 'octo-repo' };

export interface Consumer {
  readonly id: ConsumerId;
  /** The audience this consumer accepts (tokens are minted for it unless a variant says otherwise). */
  readonly audience: string;
  send(token: string, target: Target): Promise<JsonAnswer>;
}

let deliveries = 0;

export function consumers(world: TokenWorld): Consumer[] {
  const backend = world.broker.backend.url;
  return [
    {
      id: 'ledger POST',
      audience: LEDGER_AUDIENCE,
      send: (token) =>
        call(`${backend}/v1/deployments`, { token, json: { delivery_id: `attack-${++deliveries}`, environment: 'production', status: 'success' } }),
    },
    { id: 'ledger GET', audience: LEDGER_AUDIENCE, send: (token) => call(`${backend}/v1/deployments`, { token }) },
    { id: 'broker', audience: BROKER_AUDIENCE, send: (oidcToken, t) => call(`${backend}/token`, { json: { oidcToken, owner: t.owner, repo: t.repo } }) },
    { id: 'minimal', audience: BROKER_AUDIENCE, send: (oidcToken, t) => call(`${world.minimal.url}/token`, { json: { oidcToken, owner: t.owner, repo: t.repo } }) },
  ];
}
