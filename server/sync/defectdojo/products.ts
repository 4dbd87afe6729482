import type { RetryPolicy } from '../../http/retry.js';
import { retryTransient } from '../../http/call-errors.js';
import { message } from '../../errors.js';
import type { Progress } from '../report.js';
import type { DefectDojoClient, KnownProduct } from './client.js';

/**
 * DefectDojo's products for one run (each reimport then knows whether to name a product type),
 * or undefined when they could not be listed: each reimport then looks its product up itself.
 */
export async function productDirectory(defectDojo: DefectDojoClient, retry: RetryPolicy, progress: Progress): Promise<ReadonlyMap<string, KnownProduct> | undefined> {
  try {
    return await retryTransient(() => defectDojo.productDirectory(), retry);
  } catch (err) {
    progress.warn(`DefectDojo products could not be listed (${message(err)}); each product is looked up before its reimport`);
    return undefined;
  }
}
