import { v7 as uuidv7 } from 'uuid';
import type { CallerIdentity } from '../auth/verifier.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { DeploymentRecord, InsertOutcome, Store } from '../store/types.js';
import type { ChatSink } from './chat-sink.js';
import { storedOptionalFields } from './fields.js';
import { DEFAULT_MODE, type DeploymentRequest } from './schema.js';
import type { LedgerSettings } from './settings.js';

const DAY_MS = 86_400_000;

export interface RecordDeploymentDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly chat: ChatSink;
  readonly logger: Logger;
}

/** Notifies each configured sink; the map has one entry per configured sink. */
async function notifySinks(deps: RecordDeploymentDeps, settings: LedgerSettings, record: DeploymentRecord) {
  const notified: Record<string, boolean> = {};
  if (settings.chatWebhookUrl) notified.chat = await deps.chat.notify(record, settings.chatWebhookUrl);
  return notified;
}

/**
 * Ledger rules 1–3: a first-seen `delivery_id` is stored under the caller's repository and each
 * configured sink is notified once; a repeated one stores and sends nothing and returns the
 * original record. The repository always comes from the token, never from the body.
 */
export async function recordDeployment(
  deps: RecordDeploymentDeps,
  settings: LedgerSettings,
  caller: CallerIdentity,
  request: DeploymentRequest,
): Promise<InsertOutcome> {
  const now = new Date(deps.clock.now());
  const candidate: DeploymentRecord = {
    // Time-ordered and monotonic within the process, so equal timestamps still list in arrival order.
    deploymentId: uuidv7(),
    repositoryId: caller.repositoryId,
    repository: caller.repository,
    deliveryId: request.delivery_id,
    environment: request.environment,
    status: request.status,
    mode: request.mode ?? DEFAULT_MODE,
    ...storedOptionalFields(request),
    recordedAt: now,
    expireAt: new Date(now.getTime() + settings.retentionDays * DAY_MS),
  };

  const outcome = await deps.store.deployments.insert(candidate, now);
  if (outcome.duplicate) return outcome;

  const notified = await notifySinks(deps, settings, outcome.record);
  try {
    await deps.store.deployments.setNotified(outcome.record.repositoryId, outcome.record.deploymentId, notified);
  } catch (err) {
    // The record is stored and the notification went out; only its bookkeeping is missing.
    deps.logger.warn({ err, deployment_id: outcome.record.deploymentId }, 'notification outcome not saved');
  }
  return { duplicate: false, record: { ...outcome.record, notified } };
}
