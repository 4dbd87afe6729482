import type { CallerIdentity } from '../auth/verifier.js';
import { refuse } from '../errors.js';

/**
 * Step 4 of the ledger's verification, the real access control: every repository on the
 * platform can obtain a token that passes steps 1–3. The owner must be allowed (an empty list
 * allows no one) and must agree with the `repository` claim; logins compare case-insensitively.
 */
export function authorizeOwner(caller: CallerIdentity, allowedOwners: ReadonlySet<string>): void {
  const owner = caller.repositoryOwner.toLowerCase();
  if (!allowedOwners.has(owner)) throw refuse('forbidden', { reason: 'owner_not_allowed' });
  const repositoryOwner = caller.repository.split('/')[0]!.toLowerCase();
  if (repositoryOwner !== owner) throw refuse('forbidden', { reason: 'owner_mismatch' });
}
