import type { DeploymentRecord } from '../store/types.js';

/** The API shape of a stored record (snake_case, ISO timestamps, absent fields omitted). */
export function deploymentView(record: DeploymentRecord): Record<string, unknown> {
  return {
    deployment_id: record.deploymentId,
    repository: record.repository,
    recorded_at: record.recordedAt.toISOString(),
    delivery_id: record.deliveryId,
    environment: record.environment,
    status: record.status,
    mode: record.mode,
    ...(record.target === undefined ? {} : { target: record.target }),
    ...(record.version === undefined ? {} : { version: record.version }),
    ...(record.url === undefined ? {} : { url: record.url }),
    ...(record.commit === undefined ? {} : { commit: record.commit }),
    ...(record.runUrl === undefined ? {} : { run_url: record.runUrl }),
    ...(record.actor === undefined ? {} : { actor: record.actor }),
    ...(record.verified === undefined ? {} : { verified: record.verified }),
    ...(record.durationMs === undefined ? {} : { duration_ms: record.durationMs }),
    notified: record.notified ?? {},
  };
}
