import { HTTP_ERRORS, refusalsOf } from '../../http/errors.js';

/**
 * Every error the sync service's HTTP surface answers, with its HTTP status: its one catalogue
 * (docs/sync-service.md). Routes refuse by code (`refuse('run_in_progress')`).
 */
export const SYNC_SERVICE_ERRORS = {
  ...HTTP_ERRORS,
  unauthorized: 401,
  unknown_source: 404,
  run_in_progress: 409,
  not_ready: 503,
  configuration_invalid: 503,
  shutting_down: 503,
} as const satisfies Record<string, number>;

/** A refusal of the sync service, by code. */
export const refuse = refusalsOf(SYNC_SERVICE_ERRORS);
