import type { RequestHandler } from 'express';
import { presentsBearer } from '../auth/bearer.js';
import type { BrokerSettings } from './settings.js';
import { refuse } from '../errors.js';

/**
 * `Authorization: Bearer <PROCESS_TRIGGER_SECRET>` for `/releases` (`/sign` has its own,
 * `signAuth`): the route is off (`503 releases_disabled`) while the secret is unset, and
 * `401 unauthorized` for a missing or wrong bearer. Runs before the body is read, so an
 * unauthenticated caller learns nothing about validation.
 */
export function triggerAuth(settings: () => BrokerSettings): RequestHandler {
  return (req, res, next) => {
    const current = settings();
    if (!current.triggerSecret) throw refuse('releases_disabled');
    if (!presentsBearer(req.headers, current.triggerSecret)) {
      throw refuse('unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    res.locals.settings = current;
    next();
  };
}
