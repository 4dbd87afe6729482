import { Router } from 'express';
import { isJsonObject, parseJson } from '../http/json-body.js';
import { route } from '../http/routes.js';
import { BodySlots, slottedRawBody } from '../http/slotted-body.js';
import type { ReleasesService } from './releases.js';
import type { BrokerSettings } from './settings.js';
import { signRefusals, signRoute } from './sign-route.js';
import { tokenRefusals, tokenRoute, type TokenRouteDeps } from './token-route.js';
import { triggerAuth } from './trigger-auth.js';
import { handleDelivery, PayloadSignature, statedSignature, type WebhookDeps } from './webhook.js';
import { refuse } from '../errors.js';

/**
 * Webhook bodies are read before anyone is authenticated, so at most `readers` at once (others
 * wait, unread, for at most `waitMs`, and at most `maxWaiting` of them), and each within GitHub's
 * own 10 s delivery timeout: what a stranger can make the backend hold is 2 × 10 MB, however many
 * connections it opens. Push payloads stay well below `limit`; the platform itself caps deliveries
 * at 25 MB. Exported for the tests that pin these bounds without waiting them out.
 */
export const WEBHOOK_BODY = { readers: 2, maxWaiting: 64, limit: 10 * 1024 * 1024, waitMs: 10_000, readMs: 10_000 } as const;

export interface BrokerRouteDeps extends TokenRouteDeps, WebhookDeps {
  readonly releases: ReleasesService;
}

const header = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** `POST /token`, `POST /sign`, `GET /releases`, `POST /webhook`: thin handlers over the use cases. */
export function brokerRoutes(deps: BrokerRouteDeps): Router {
  const router = Router();

  route(router, '/token', { post: tokenRoute(deps) });
  router.use('/token', tokenRefusals(deps));

  route(router, '/sign', { post: signRoute(deps) });
  router.use('/sign', signRefusals(deps));

  route(router, '/releases', {
    get: [
      triggerAuth(deps.settings),
      async (req, res) => {
        res.json(await deps.releases.aggregate(res.locals.settings as BrokerSettings, req.log));
      },
    ],
  });

  const webhookSlots = new BodySlots(WEBHOOK_BODY.readers, WEBHOOK_BODY.maxWaiting);
  route(router, '/webhook', {
    post: [
      (req, res, next) => {
        const settings = deps.settings();
        if (!settings.webhookSecret) throw refuse('webhook_disabled');
        // No body is read for a request that cannot carry a valid signature.
        const stated = statedSignature(header(req.headers['x-hub-signature-256']));
        if (!stated) {
          res.set('Connection', 'close');
          throw refuse('invalid_signature');
        }
        res.locals.settings = settings;
        res.locals.stated = stated;
        res.locals.signature = new PayloadSignature(settings.webhookSecret);
        next();
      },
      slottedRawBody({
        slots: webhookSlots,
        limit: WEBHOOK_BODY.limit,
        waitMs: WEBHOOK_BODY.waitMs,
        readMs: WEBHOOK_BODY.readMs,
        busy: (retryAfterSeconds) => refuse('webhook_busy', {}, { headers: { 'Retry-After': String(retryAfterSeconds) } }),
        onChunk: (req, chunk) => (req.res!.locals.signature as PayloadSignature).update(chunk),
      }),
      async (req, res) => {
        const settings = res.locals.settings as BrokerSettings & { webhookSecret: string };
        // Only the raw bytes count: nothing is parsed before the signature holds.
        if (!(res.locals.signature as PayloadSignature).matches(res.locals.stated as Buffer)) {
          throw refuse('invalid_signature');
        }
        const event = header(req.headers['x-github-event']);
        const id = header(req.headers['x-github-delivery']);
        if (!event || !id || id.length > 100) {
          throw refuse('invalid_request', { message: 'X-GitHub-Event and X-GitHub-Delivery are required' });
        }
        const payload = parseJson(req.rawBody);
        if (!isJsonObject(payload)) {
          throw refuse('invalid_request', { message: 'the payload must be a JSON object' });
        }
        const log = req.log.child({ delivery: id, event });
        res.json(await handleDelivery(deps, settings, { event, id, raw: req.rawBody!, payload }, log));
      },
    ],
  });

  return router;
}
