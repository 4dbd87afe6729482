import { createHash, createHmac } from 'node:crypto';
import pLimit from 'p-limit';
import { secretsEqual } from '../auth/secrets.js';
import type { Logger } from '../logger.js';
import type { AppClients } from '../platform/clients.js';
import { PlatformError } from '../platform/errors.js';
import { mintRepositoryToken, type RepositoryTokenDeps } from '../platform/repository-token.js';
import type { KeyValueStore } from '../store/types.js';
import { appClientFor } from './platform.js';
import type { BrokerSettings } from './settings.js';
import { refuse } from '../errors.js';

/** A delivery seen within this window does nothing the second time. */
const DELIVERY_DEDUPE_MS = 86_400_000;
const NAMESPACE = 'webhook-delivery';
/** Update-branch calls in flight at once for one push. */
const CONCURRENCY = 4;
const UPDATE_PERMISSIONS = { contents: 'write', pull_requests: 'write' } as const;

export interface WebhookDeps extends RepositoryTokenDeps {
  readonly clients: AppClients;
  readonly keyValues: KeyValueStore;
  /** A person revoked the App (`github_app_authorization`): ends their console sessions; how many. */
  readonly authorizationRevoked?: (userId: string) => Promise<number>;
}

export interface Delivery {
  readonly event: string;
  readonly id: string;
  readonly raw: Buffer;
  readonly payload: Record<string, unknown>;
}

export interface PushResult {
  readonly ok: true;
  readonly event: 'push';
  readonly branch: string | null;
  readonly updated: number[];
  readonly failed: number[];
}

/** The digest an `X-Hub-Signature-256: sha256=<hex>` header states, or undefined when it is not one. */
export function statedSignature(header: string | undefined): Buffer | undefined {
  const given = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '')?.[1];
  return given ? Buffer.from(given, 'hex') : undefined;
}

/** HMAC-SHA256 of the raw body, fed as it arrives, compared with the stated digest in constant time. */
export class PayloadSignature {
  private readonly hmac: ReturnType<typeof createHmac>;

  constructor(secret: string) {
    this.hmac = createHmac('sha256', secret);
  }

  update(chunk: Buffer): this {
    this.hmac.update(chunk);
    return this;
  }

  matches(stated: Buffer | undefined): boolean {
    const expected = this.hmac.digest();
    return stated !== undefined && secretsEqual(stated, expected);
  }
}

/** `X-Hub-Signature-256` checked over a whole body at once. */
export function signatureValid(secret: string, raw: Buffer, header: string | undefined): boolean {
  return new PayloadSignature(secret).update(raw).matches(statedSignature(header));
}

/**
 * Claims the delivery; null when its id, or the same signed body under another id, was seen in
 * the last 24 hours (a replay: the signature covers the body, not the delivery header).
 * Otherwise the keys it claimed, to release if the delivery then fails.
 */
async function claimDelivery(deps: WebhookDeps, delivery: Delivery, log: Logger): Promise<string[] | null> {
  const now = new Date(deps.clock.now());
  const until = new Date(now.getTime() + DELIVERY_DEDUPE_MS);
  const digest = createHash('sha256').update(delivery.raw).digest('hex');
  const idKey = `id:${delivery.id}`;
  const byId = await deps.keyValues.claim(NAMESPACE, idKey, { event: delivery.event }, until, now);
  let byBody: boolean;
  try {
    byBody = await deps.keyValues.claim(NAMESPACE, `sha256:${digest}`, { id: delivery.id }, until, now);
  } catch (err) {
    if (byId) await releaseClaims(deps, [idKey], log);
    throw err;
  }
  return byId && byBody ? [idKey, `sha256:${digest}`] : null;
}

/**
 * A delivery answered with an error was not handled, so its redelivery (same id, same body) must
 * not be taken for a replay: its claims end now. Best effort: with the store down they stay.
 */
async function releaseClaims(deps: WebhookDeps, keys: readonly string[], log: Logger): Promise<void> {
  const now = new Date(deps.clock.now());
  try {
    for (const key of keys) await deps.keyValues.put(NAMESPACE, key, { released: true }, now);
  } catch (err) {
    log.warn({ err }, 'failed delivery still marked seen: a redelivery within 24 hours is ignored');
  }
}

/** A verified delivery: dedupe, then only `push` acts. */
export async function handleDelivery(deps: WebhookDeps, settings: BrokerSettings, delivery: Delivery, log: Logger): Promise<Record<string, unknown>> {
  const claimed = await claimDelivery(deps, delivery, log);
  if (!claimed) {
    log.info({ delivery: delivery.id, event: delivery.event }, 'duplicate delivery ignored');
    return { ok: true, duplicate: true, delivery: delivery.id };
  }
  if (INSTALLATION_EVENTS.has(delivery.event)) forgetInstallation(deps, settings, delivery.payload);
  try {
    if (delivery.event === 'github_app_authorization' && deps.authorizationRevoked) {
      return await endSessions(deps.authorizationRevoked, delivery.payload, log);
    }
    if (delivery.event !== 'push') return { ok: true, ignored: delivery.event };
    return { ...(await updateBranches(deps, settings, delivery.payload, log)) };
  } catch (err) {
    await releaseClaims(deps, claimed, log);
    throw err;
  }
}

/**
 * `github_app_authorization` (action `revoked`): the person (`sender`) revoked the App, so every
 * console session of theirs ends now, on every replica (sessions live in the store). A failure
 * answers an error, so GitHub's redelivery tries again.
 */
async function endSessions(end: (userId: string) => Promise<number>, payload: Record<string, unknown>, log: Logger): Promise<Record<string, unknown>> {
  const sender = payload.sender as { id?: unknown; login?: unknown } | undefined;
  if (payload.action !== 'revoked' || typeof sender?.id !== 'number' || !Number.isSafeInteger(sender.id)) {
    throw refuse('invalid_request', { message: 'a github_app_authorization payload needs action "revoked" and sender.id' });
  }
  const ended = await end(String(sender.id));
  log.info({ user_id: String(sender.id), login: typeof sender.login === 'string' ? sender.login : undefined, sessions_ended: ended }, 'App authorization revoked: console sessions ended');
  return { ok: true, event: 'github_app_authorization', sessions_ended: ended };
}

/** Events after which cached installation lookups may be wrong (installed, removed, repositories changed). */
const INSTALLATION_EVENTS = new Set(['installation', 'installation_repositories']);

/**
 * Forgets the cached lookups an installation event makes stale, so a repository the app was just
 * installed on is not refused from the "not installed" cache. Nothing is answered differently:
 * for the sender the event is still only acknowledged.
 */
function forgetInstallation(deps: WebhookDeps, settings: BrokerSettings, payload: Record<string, unknown>): void {
  // Without a usable app nothing was cached for it, and the event is acknowledged all the same.
  if (!settings.primary.ok || !settings.primary.value.apiBase.ok || !settings.primary.value.app.ok) return;
  const { apiBase, app } = settings.primary.value;
  const installation = payload.installation as { id?: unknown } | undefined;
  const names = ['repositories', 'repositories_added', 'repositories_removed'].flatMap((field) => {
    const list = payload[field];
    return Array.isArray(list) ? list.map((r: { full_name?: unknown }) => r?.full_name).filter((n): n is string => typeof n === 'string') : [];
  });
  const id = typeof installation?.id === 'number' ? installation.id : undefined;
  deps.installations.forgetInstallation(apiBase.value, app.value.appId, id, names);
}

function pushTarget(payload: Record<string, unknown>): { branch: string | null; owner: string; repo: string; repositoryId: number; installationId?: number } {
  const ref = payload.ref;
  const repository = payload.repository as { id?: unknown; full_name?: unknown } | undefined;
  const installation = payload.installation as { id?: unknown } | undefined;
  const [owner, repo, ...rest] = typeof repository?.full_name === 'string' ? repository.full_name.split('/') : [];
  if (typeof ref !== 'string' || !owner || !repo || rest.length > 0 || typeof repository?.id !== 'number') {
    throw refuse('invalid_request', { message: 'a push payload needs ref, repository.id and repository.full_name' });
  }
  return {
    branch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null,
    owner,
    repo,
    repositoryId: repository.id,
    ...(typeof installation?.id === 'number' && installation.id > 0 ? { installationId: installation.id } : {}),
  };
}

/**
 * `push` with `AUTO_UPDATE_BRANCHES` on: every open pull request based on the pushed branch gets
 * update-branch with its current head as `expected_head_sha` (a head that moved meanwhile is left
 * alone). One refusing pull request is listed in `failed`; it never fails the delivery.
 */
async function updateBranches(deps: WebhookDeps, settings: BrokerSettings, payload: Record<string, unknown>, log: Logger): Promise<PushResult> {
  const target = pushTarget(payload);
  const result: PushResult = { ok: true, event: 'push', branch: target.branch, updated: [], failed: [] };
  // Tag pushes and branch deletions have no pull requests to update.
  if (!target.branch || payload.deleted === true || !settings.autoUpdateBranches) return result;
  if (!settings.primary.ok) throw refuse('misconfigured', {}, { cause: settings.primary.error });
  const app = appClientFor(deps.clients, settings.primary.value);

  let token;
  try {
    token = await mintRepositoryToken(deps, app, target, UPDATE_PERMISSIONS);
  } catch (err) {
    throw refuse('update_branch_failed', { message: 'no token could be minted for the repository' }, { cause: err });
  }
  const client = app.withToken(token.token);
  try {
    const pulls = [];
    for await (const pull of client.openPullRequests(target.owner, target.repo, target.branch)) pulls.push(pull);
    const limit = pLimit(CONCURRENCY);
    await Promise.all(
      pulls.map((pull) =>
        limit(async () => {
          try {
            await client.updateBranch(target.owner, target.repo, pull.number, pull.headSha);
            result.updated.push(pull.number);
          } catch (err) {
            if (!(err instanceof PlatformError)) throw err;
            result.failed.push(pull.number);
            log.warn({ pull_request: pull.number, status: err.status, platform_message: err.message }, 'update-branch refused');
          }
        }),
      ),
    );
  } catch (err) {
    if (err instanceof PlatformError) {
      throw refuse('update_branch_failed', { message: 'open pull requests could not be listed' }, { cause: err });
    }
    throw err;
  } finally {
    await client.revoke().catch(() => {});
  }
  result.updated.sort((a, b) => a - b);
  result.failed.sort((a, b) => a - b);
  log.info({ repository: `${target.owner}/${target.repo}`, branch: target.branch, updated: result.updated, failed: result.failed }, 'branches updated');
  return result;
}
