import { GraphqlResponseError } from '@octokit/graphql';
import type { ActionOctokit } from '../../shared/github.js';

/** GraphQL answered, but not with a login: whose comments are the gate's cannot be told. */
export class IdentityUnknown extends Error {
  override readonly name = 'IdentityUnknown';
}

/**
 * Who a token writes as: a name without GitHub's `[bot]` suffix, and whether it is a bot. REST
 * names the Actions token's author `github-actions[bot]` (type `Bot`), GraphQL's comment authors
 * `github-actions`: both are the same author here. A user `renovate` is not the bot `renovate[bot]`.
 */
export interface Identity {
  readonly name: string;
  readonly bot: boolean;
}

function identityOf(login: string, bot: boolean): Identity {
  return { name: login.replace(/\[bot\]$/i, '').toLowerCase(), bot: bot || /\[bot\]$/i.test(login) };
}

/** Who the token is (exported for the schema check of every GraphQL document sent). */
export const VIEWER_QUERY = 'query { viewer { login } }';

/**
 * The token's identity, from GraphQL's `viewer` (REST's `GET /user` refuses installation tokens).
 * An installation token (`ghs_`, the Actions token among them) always writes as its app's bot.
 */
export async function tokenIdentity(octokit: ActionOctokit, token: string): Promise<Identity> {
  let login: unknown;
  try {
    login = (await octokit.graphql<{ viewer?: { login?: unknown } }>(VIEWER_QUERY)).viewer?.login;
  } catch (err) {
    if (err instanceof GraphqlResponseError) throw new IdentityUnknown(`GraphQL answered ${String(err.errors?.[0]?.type ?? 'an error')}`);
    throw err;
  }
  if (typeof login !== 'string' || login === '') throw new IdentityUnknown('GraphQL named no viewer');
  return identityOf(login, token.startsWith('ghs_'));
}

/** Whether a comment's author (REST `user`, GraphQL `author`) is the token's identity. */
export function writtenBy(identity: Identity, author: { readonly login?: string; readonly type?: string; readonly __typename?: string } | null | undefined): boolean {
  if (!author?.login) return false;
  const them = identityOf(author.login, author.type === 'Bot' || author.__typename === 'Bot');
  return them.name === identity.name && them.bot === identity.bot;
}
