import pLimit from 'p-limit';
import { retryTransient } from '../http/call-errors.js';
import { message } from '../errors.js';
import type { IssuePushDeps } from './deps.js';

/** Products listed at once. */
const LISTING_CONCURRENCY = 4;

/**
 * What `list` pages hold for each product, read by `read` (undefined: left out), in product order:
 * a few products at once, each listing retried while its failure may pass. A product that still
 * cannot be listed is warned about (`what` names the listing), counted by `onFailure`, and adds nothing.
 */
export async function perProduct<T>(
  products: readonly string[],
  deps: Pick<IssuePushDeps, 'retry' | 'log'>,
  what: string,
  list: (product: string) => AsyncIterable<readonly unknown[]>,
  read: (product: string, raw: unknown) => T | undefined,
  onFailure: () => void,
): Promise<T[]> {
  const limit = pLimit(LISTING_CONCURRENCY);
  const found = await Promise.all(
    products.map((product) =>
      limit(async () => {
        try {
          return await retryTransient(async () => {
            const items: T[] = [];
            for await (const page of list(product)) {
              for (const raw of page) {
                const item = read(product, raw);
                if (item !== undefined) items.push(item);
              }
            }
            return items;
          }, deps.retry);
        } catch (err) {
          onFailure();
          deps.log.warn({ product, err: message(err) }, `${what} could not be listed`);
          return [];
        }
      }),
    ),
  );
  return found.flat();
}
