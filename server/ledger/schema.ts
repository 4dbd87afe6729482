import { z } from 'zod';
import { hasControlCharacter } from '../http/control-characters.js';
import { countParameter, isoInstant } from '../http/validation.js';

export const STATUSES = ['success', 'failure', 'skipped', 'rolled-back'] as const;
export const TARGETS = ['object-store-cdn', 'function-zip', 'iac-wrapper', 'other'] as const;
export const DEFAULT_MODE = 'deploy';
export const HISTORY_DEFAULT_LIMIT = 20;
const HISTORY_MAX_LIMIT = 100;
export const FIGURES_DEFAULT_DAYS = 30;
const FIGURES_MAX_DAYS = 365;
export const CURSOR_REFUSED = 'must be a "next" value this service returned for this repository (cursors made under another LEDGER_CURSOR_KEY, or by a restarted process without one, are refused: start again without cursor)';

/** Free text that ends up in a chat message: bounded, no control characters. */
const text = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !hasControlCharacter(s), 'must not contain control characters');

/** Notifications render these as links, so only http(s), and no credentials inside. */
const link = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((s) => {
    if (!/^https?:\/\//i.test(s) || /\s/.test(s) || hasControlCharacter(s)) return false;
    try {
      const url = new URL(s);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'must be an http or https URL without credentials');

/** Body of `POST /v1/deployments`. Unknown fields (`repository` among them) are refused, never dropped. */
export const deploymentRequest = z.strictObject({
  delivery_id: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  environment: text(100),
  status: z.enum(STATUSES),
  target: z.enum(TARGETS).optional(),
  mode: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be a short lowercase word (a-z, 0-9, -; at most 32 characters)')
    .optional(),
  version: text(200).optional(),
  url: link.optional(),
  commit: text(200).optional(),
  run_url: link.optional(),
  actor: text(100).optional(),
  verified: z.boolean().optional(),
  duration_ms: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  committed_at: isoInstant.optional(),
});
export type DeploymentRequest = z.infer<typeof deploymentRequest>;

/** Query of `GET /v1/deployments`. There is no `repository` parameter: the token names it. */
export const historyQuery = z
  .strictObject({
    environment: text(100).optional(),
    limit: countParameter(HISTORY_MAX_LIMIT).optional(),
    since: isoInstant.optional(),
    until: isoInstant.optional(),
    // Checked against the ledger's cursor key by `listDeployments`.
    cursor: z.string().max(300, CURSOR_REFUSED).optional(),
  })
  // zod runs an object's refinement even when a field failed: compared only once both parsed.
  .refine((q) => !(q.since instanceof Date) || !(q.until instanceof Date) || q.since.getTime() <= q.until.getTime(), { path: ['since'], message: 'must not be after until' });
export type HistoryQuery = z.infer<typeof historyQuery>;

/** Query of `GET /v1/deployments/metrics`: refused with 422 as the history query is. */
export const figuresQuery = z.strictObject({
  environment: text(100).optional(),
  days: countParameter(FIGURES_MAX_DAYS, 'whole number of days').optional(),
});
export type FiguresRequest = z.infer<typeof figuresQuery>;

/** `GET /v1/environments` takes no parameter; any one (`repository` among them) is refused. */
export const environmentsQuery = z.strictObject({});
