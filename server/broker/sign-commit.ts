import { fingerprint } from '../auth/fingerprint.js';
import { hasControlCharacter } from '../http/control-characters.js';
import { AppError } from '../http/errors.js';
import { isJsonObject, present } from '../http/json-body.js';
import type { Logger } from '../logger.js';
import type { AppClients } from '../platform/clients.js';
import { PlatformError } from '../platform/errors.js';
import type { CommitOnBranch } from '../platform/github-app.js';
import { parseFullName } from '../github/identifiers.js';
import { mintRepositoryToken, type RepositoryToken, type RepositoryTokenDeps } from '../platform/repository-token.js';
import { hashedToken } from '../audit/record.js';
import { appClientFor } from './platform.js';
import type { PlatformSettings } from './settings.js';
import { refuse } from '../errors.js';

export interface SignDeps extends RepositoryTokenDeps {
  readonly clients: AppClients;
}

/** `/sign` ignores `TOKEN_PERMISSIONS`: its token can write contents and nothing else. */
const SIGN_PERMISSIONS = { contents: 'write' } as const;
const MAX_FILE_CHANGES = 1000;

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

const invalid = (message: string): AppError => refuse('invalid_request', { message });

/**
 * Canonical base64 (RFC 4648 §3.5), as strict decoders such as Ruby's `strict_decode64` demand:
 * exactly the strings a decode and re-encode give back unchanged. The decoder skips what is not
 * in the alphabet and the encoder pads with zero bits, so anything else comes back different.
 */
const isBase64 = (s: string): boolean => Buffer.from(s, 'base64').toString('base64') === s;

/** A repository-relative path: no absolute path, no `.`/`..` segment, no backslash or control character. */
function isSafePath(path: unknown): path is string {
  if (typeof path !== 'string' || path.length === 0 || path.length > 4096) return false;
  if (path.startsWith('/') || path.includes('\\') || hasControlCharacter(path)) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/**
 * A branch name git and the platform accept (a subset of `git check-ref-format`). Git itself
 * only refuses ASCII controls; C1 and the line separators are refused here too, as in paths.
 */
function isBranchName(branch: string): boolean {
  return (
    branch.length <= 255 &&
    !/[ ~^:?*[\\]/.test(branch) &&
    !hasControlCharacter(branch) &&
    !branch.includes('..') &&
    !branch.includes('@{') &&
    !branch.startsWith('/') &&
    !branch.endsWith('/') &&
    !branch.endsWith('.lock') &&
    !branch.startsWith('-')
  );
}

function list<T>(value: unknown, field: string, parse: (entry: unknown, index: number) => T): T[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${field} must be an array`);
  if (value.length > MAX_FILE_CHANGES) throw invalid(`${field} may hold at most ${MAX_FILE_CHANGES} entries`);
  return value.map(parse);
}

/** The spec's validation table, in order: body, required fields, repository, shapes, file changes. */
export function parseSignRequest(body: unknown): CommitOnBranch {
  if (!isJsonObject(body)) throw invalid('the body must be a JSON object');
  const { repo, branch, expected_head_oid: expectedHeadOid, message } = body;
  const headline = isJsonObject(message) ? message.headline : undefined;
  if (!present(repo) || !present(branch) || !present(expectedHeadOid) || !present(headline)) {
    if (present(message) && !isJsonObject(message)) throw invalid('message must be an object');
    throw refuse('missing_required_fields', { message: 'repo, branch, expected_head_oid and message.headline are required' });
  }
  const pair = typeof repo === 'string' ? parseFullName(repo) : undefined;
  if (!pair) throw refuse('invalid_repo', { message: 'repo must be owner/name' });
  const { owner, name } = pair;
  if (typeof branch !== 'string' || !isBranchName(branch)) throw invalid('branch is not a valid branch name');
  if (typeof expectedHeadOid !== 'string' || !OID.test(expectedHeadOid.toLowerCase())) throw invalid('expected_head_oid must be a full commit id');
  const bodyText = (message as Record<string, unknown>).body;
  if (typeof headline !== 'string' || (bodyText !== undefined && bodyText !== null && typeof bodyText !== 'string')) {
    throw invalid('message.headline and message.body must be strings');
  }
  const additions = list(body.additions, 'additions', (entry, i) => {
    if (!isJsonObject(entry) || !isSafePath(entry.path)) throw invalid(`additions[${i}].path must be a relative path inside the repository`);
    if (typeof entry.contents !== 'string' || !isBase64(entry.contents)) throw invalid(`additions[${i}].contents must be base64`);
    return { path: entry.path, contents: entry.contents };
  });
  const deletions = list(body.deletions, 'deletions', (entry, i) => {
    if (!isJsonObject(entry) || !isSafePath(entry.path)) throw invalid(`deletions[${i}].path must be a relative path inside the repository`);
    return { path: entry.path };
  });
  if (additions.length === 0 && deletions.length === 0) throw refuse('no_file_changes');
  return {
    repositoryNameWithOwner: `${owner}/${name}`,
    branchName: branch,
    expectedHeadOid: expectedHeadOid.toLowerCase(),
    message: { headline, ...(typeof bodyText === 'string' && bodyText ? { body: bodyText } : {}) },
    additions,
    deletions,
  };
}

/**
 * `POST /sign`: an app-attributed, platform-signed commit through `createCommitOnBranch`, made
 * with the app of `platform` (the primary one for the trigger secret, the token issuer's for an
 * OIDC caller). The platform refuses the write when the branch moved past `expectedHeadOid`, so
 * retries are safe. `repositoryId` (an OIDC caller's verified `repository_id` claim) narrows the
 * token by id, as `/token` does, so a name deleted and registered again names nothing writable;
 * the trigger secret's holder names the repository by name only.
 */
export async function signCommit(
  deps: SignDeps,
  platform: PlatformSettings,
  commit: CommitOnBranch,
  log: Logger,
  options: { readonly repositoryId?: number; readonly minted?: (token: RepositoryToken) => void } = {},
): Promise<Record<string, unknown>> {
  const { repositoryId } = options;
  const app = appClientFor(deps.clients, platform);
  const [owner, repo] = commit.repositoryNameWithOwner.split('/') as [string, string];

  let token;
  try {
    token = await mintRepositoryToken(deps, app, { owner, repo, ...(repositoryId === undefined ? {} : { repositoryId }) }, SIGN_PERMISSIONS);
  } catch (err) {
    throw refuse('installation_token_failed', {}, { cause: err });
  }
  options.minted?.(token);
  const client = app.withToken(token.token);
  try {
    const created = await client.createCommitOnBranch(commit);
    log.info({ repository: commit.repositoryNameWithOwner, branch: commit.branchName, commit: created.oid, token_sha256: fingerprint(token.token), hashed_token: hashedToken(token.token) }, 'commit signed');
    return created;
  } catch (err) {
    if (err instanceof PlatformError) {
      throw refuse('sign_failed', { message: err.message }, { cause: err });
    }
    throw err;
  } finally {
    // Single-use token: revoked at once rather than left valid for an hour.
    await client.revoke().catch(() => {});
  }
}
