import type { RequestHandler, Router } from 'express';
import { methodNotAllowed } from './errors.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type MethodHandlers = Partial<Record<Method, RequestHandler[]>>;

/**
 * Registers the handlers of one path and answers every other method with
 * `405 method_not_allowed` and an `Allow` header (HEAD follows GET, as in Express).
 */
export function route(router: Router, path: string, handlers: MethodHandlers): void {
  const r = router.route(path);
  const allowed: string[] = [];
  for (const [method, chain] of Object.entries(handlers) as [Method, RequestHandler[]][]) {
    r[method](...chain);
    allowed.push(method.toUpperCase());
    if (method === 'get') allowed.push('HEAD');
  }
  r.all(() => {
    throw methodNotAllowed(allowed);
  });
}
