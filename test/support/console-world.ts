import { startBackend, type Backend } from './backend.js';
import { FakeGitHubUser, type FakePerson, type FakeRepository } from './fake-github-user.js';
import type { Clock } from '../../server/clock.js';
import type { Store } from '../../server/store/types.js';

/*
 * The console's world for tests: the real backend on loopback with the console on, a GitHub fake
 * for sign-in and the user-token REST calls, three repositories of an allowed owner with records
 * in the ledger (recorded through the ledger's own API with OIDC tokens), one of another owner,
 * and a person who can reach two of the three.
 */

export const CLIENT_ID = 'Iv23liConsoleTest01';
export const CLIENT_SECRET = 'console-test-client-secret-8c1f';
export const SESSION_KEY = 'c0'.repeat(32);
export const WEBHOOK_SECRET = 'console-test-webhook-secret';

export const REPOSITORIES: readonly FakeRepository[] = [
  { id: 710001, owner: 'octo-org', name: 'web-app' },
  { id: 710002, owner: 'octo-org', name: 'payments' },
  { id: 710003, owner: 'octo-org', name: 'secret-project' },
  { id: 710004, owner: 'elsewhere-org', name: 'tool' },
];

/** Sees web-app and payments of octo-org (not secret-project), and tool of an owner this Gatehouse does not serve. */
export const MONA: FakePerson = { id: 583231, login: 'mona', access: new Map([[31, [710001, 710002]], [32, [710004]]]), admin: new Set([710001]) };
export const HUBOT: FakePerson = { id: 9919, login: 'hubot', access: new Map([[31, [710001]]]) };

export interface ConsoleWorld {
  readonly backend: Backend;
  readonly github: FakeGitHubUser;
  readonly store: Store;
  close(): Promise<void>;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Records of the last 90 days through `POST /v1/deployments` (the ledger stamps `recorded_at` with its clock). */
export async function seedDeployments(backend: Backend, clock: { set(ms: number): void }, now: number): Promise<void> {
  const plan: { repo: FakeRepository; environment: string; hoursAgo: number; status: string; leadHours?: number }[] = [];
  const [web, payments, secret] = REPOSITORIES;
  for (let day = 88; day >= 0; day -= 3) {
    // Every fourth production deployment fails, and a success two hours later restores it.
    const fails = (88 - day) % 12 === 0;
    plan.push({ repo: web!, environment: 'production', hoursAgo: day * 24 + 5, status: fails ? 'failure' : 'success', leadHours: 20 });
    if (fails) plan.push({ repo: web!, environment: 'production', hoursAgo: day * 24 + 3, status: 'success', leadHours: 22 });
    plan.push({ repo: web!, environment: 'staging', hoursAgo: day * 24 + 7, status: 'success', leadHours: 2 });
  }
  for (let day = 40; day >= 1; day -= 7) plan.push({ repo: payments!, environment: 'production', hoursAgo: day * 24, status: day === 33 ? 'rolled-back' : 'success' });
  plan.push({ repo: secret!, environment: 'production', hoursAgo: 30, status: 'success', leadHours: 1 });
  plan.sort((a, b) => b.hoursAgo - a.hoursAgo);
  let n = 0;
  for (const p of plan) {
    const at = now - p.hoursAgo * HOUR;
    clock.set(at);
    const token = await backend.issuer.mint({ repository: `${p.repo.owner}/${p.repo.name}`, repository_id: String(p.repo.id), repository_owner: p.repo.owner }, { nowMs: at });
    const res = await fetch(`${backend.url}/v1/deployments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        delivery_id: `seed-${n++}`,
        environment: p.environment,
        status: p.status,
        version: `1.${n}.0`,
        commit: (n * 7919).toString(16).padStart(40, 'a'),
        run_url: `https://github.com/${p.repo.owner}/${p.repo.name}/actions/runs/${9000 + n}`,
        ...(p.leadHours === undefined ? {} : { committed_at: new Date(at - p.leadHours * HOUR).toISOString() }),
      }),
    });
    if (res.status !== 201) throw new Error(`seeding: ${res.status} ${await res.text()}`);
  }
  clock.set(now);
}

/** A clock tests set: the backend's `now` (records, windows, sessions). */
export function settableClock(start = Date.now()): Clock & { set(ms: number): void; advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

export async function startConsoleWorld(options: { clock: ReturnType<typeof settableClock>; now: number; expiring?: boolean }): Promise<ConsoleWorld> {
  let consoleUrl = '';
  const github = await FakeGitHubUser.start({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, callbackUrl: () => `${consoleUrl}/console/callback`, repositories: REPOSITORIES });
  github.addPerson(MONA);
  github.addPerson(HUBOT);
  github.expiring = options.expiring ?? true;
  const backend = await startBackend({
    clock: options.clock,
    env: {
      LEDGER_ALLOWED_OWNERS: 'octo-org',
      FORGE_APP_CLIENT_ID: CLIENT_ID,
      FORGE_APP_CLIENT_SECRET: CLIENT_SECRET,
      CONSOLE_SESSION_KEY: SESSION_KEY,
      FORGE_WEB_BASE: github.url,
      FORGE_API_BASE: github.url,
      FORGE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  });
  // The backend's address is known once it listens; settings are read per request.
  consoleUrl = backend.url;
  backend.env.CONSOLE_URL = backend.url;
  backend.env.LEDGER_JWKS_DOCUMENT = JSON.stringify(backend.issuer.jwks());
  await seedDeployments(backend, options.clock, options.now);
  return {
    backend,
    github,
    store: backend.store,
    close: async () => {
      await backend.close();
      await github.close();
    },
  };
}

/** Cookies as a browser keeps them for one origin (enough for these tests: name → value, removal on Max-Age=0). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** A request as a browser makes it: this jar's cookies sent, its answer's cookies kept, no redirect followed. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: this.header() } });
    this.take(res);
    return res;
  }

  /** Follows redirects across the backend and the GitHub fake (cookies go to the backend only, as they would). */
  async follow(url: string, backendUrl: string): Promise<Response> {
    let next = url;
    for (let hops = 0; hops < 10; hops++) {
      const res = next.startsWith(backendUrl) ? await this.fetch(next) : await fetch(next, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) return res;
      next = new URL(location, next).href;
    }
    throw new Error('too many redirects');
  }
}

export const sessionCookieName = 'gatehouse_session';
export { DAY, HOUR };
