import type { DeploymentRecord } from '../store/types.js';
import { apiOptionalFields } from './fields.js';

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
    ...apiOptionalFields(record),
    notified: record.notified ?? {},
  };
}
