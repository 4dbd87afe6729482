import type { DeploymentRecord } from '../store/types.js';
import type { DeploymentRequest } from './schema.js';

/** Optional record fields: name in the API (snake_case) → name in the store. One table, both directions. */
const OPTIONAL_FIELDS = {
  target: 'target',
  version: 'version',
  url: 'url',
  commit: 'commit',
  run_url: 'runUrl',
  actor: 'actor',
  verified: 'verified',
  duration_ms: 'durationMs',
  committed_at: 'committedAt',
} as const satisfies Partial<Record<keyof DeploymentRequest, keyof DeploymentRecord>>;

type OptionalApiField = keyof typeof OPTIONAL_FIELDS;
type OptionalStoredField = (typeof OPTIONAL_FIELDS)[OptionalApiField];
const ENTRIES = Object.entries(OPTIONAL_FIELDS) as [OptionalApiField, OptionalStoredField][];

/** The optional fields present in a request, under their stored names. */
export function storedOptionalFields(request: DeploymentRequest): Partial<Pick<DeploymentRecord, OptionalStoredField>> {
  return Object.fromEntries(ENTRIES.filter(([api]) => request[api] !== undefined).map(([api, stored]) => [stored, request[api]]));
}

/** The optional fields present in a record, under their API names; instants as ISO 8601 UTC text. */
export function apiOptionalFields(record: DeploymentRecord): Record<string, unknown> {
  return Object.fromEntries(
    ENTRIES.filter(([, stored]) => record[stored] !== undefined).map(([api, stored]) => {
      const value = record[stored];
      return [api, value instanceof Date ? value.toISOString() : value];
    }),
  );
}
