import type { RequestHandler } from 'express';
import { presentsBearer } from '../auth/bearer.js';
import type { BrokerSettings } from './settings.js';
import { refuse } from '../errors.js';

/**
 * `Authorization: Bearer <PROCESS_TRIGGER_SECRET>` for `/sign` and `/releases`: the route is off
 * (`503 <disabledCode>`) while the secret is unset, and `401 unauthorized` for a missing or wrong
 * bearer. Runs before the body is read, so an unauthenticated caller learns nothing about validation.
 */
export function triggerAuth(settings: () => BrokerSettings, disabledCode: 'releases_disabled' | 'sign_disabled'): RequestHandler {
  return (req, res, next) => {
    const current = settings();
    if (!current.triggerSecret) throw refuse(disabledCode);
    if (!presentsBearer(req.headers, current.triggerSecret)) {
      throw refuse('unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    res.locals.settings = current;
    next();
  };
}
