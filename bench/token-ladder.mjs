// The /token limit (bench/bare-mint.mjs) with parts of the brokers swapped in, named by
// BENCH_PARTS (comma list), each from build/ as the brokers run it:
//   verify  the brokers' OIDC verification (pinned issuers, remote key set, claim rules) instead of jose alone;
//   mint    their mint (app client, installation cache, permission rules, bounded platform call) instead of one request;
//   io      their body reading and answer (limits, refusals, API headers) instead of the bare ones;
//   log     the minimal broker's one outcome line (pino, synchronous write).
// bench/token-parts.ts measures each beside the limit: what every part costs under load.
import { createServer } from 'node:http';
import { KeySetRegistry } from '../build/server/auth/key-sets.js';
import { OidcVerifier } from '../build/server/auth/verifier.js';
import { brokerSettingsSource, issuerMapOf } from '../build/server/broker/settings.js';
import { systemClock } from '../build/server/clock.js';
import { environmentSnapshot } from '../build/server/env-snapshot.js';
import { backendBounds } from '../build/server/http/call-bounds.js';
import { parseJson } from '../build/server/http/json-body.js';
import { readBody, sendJson, TOKEN_BODY_LIMIT } from '../build/server/http/plain.js';
import { createLogger } from '../build/server/logger.js';
import { parseRequest } from '../build/server/minimal/token.js';
import { AppClients } from '../build/server/platform/clients.js';
import { InstallationDirectory } from '../build/server/platform/installations.js';
import { mintRepositoryToken } from '../build/server/platform/repository-token.js';
import { bareMinter, bareVerifier } from './bare-parts.mjs';

const parts = new Set((process.env.BENCH_PARTS ?? '').split(',').filter(Boolean));
const bareVerify = bareVerifier(process.env);
const bareMint = await bareMinter(process.env);

// The brokers' parts read the broker settings from the environment, as the brokers do.
const settings = brokerSettingsSource(environmentSnapshot());
const verifier = new OidcVerifier(new KeySetRegistry({ clock: systemClock }), systemClock);
const bounds = backendBounds();
const clients = new AppClients({ bounds: bounds.platform, commitBounds: bounds.commit, userAgent: 'gatehouse-token-ladder' });
const installations = new InstallationDirectory();
const logger = createLogger();

/** `{repository, repositoryId, issuer}` of the verified token. */
async function verify(token) {
  if (!parts.has('verify')) {
    const { payload } = await bareVerify(token);
    return { repository: payload.repository, repositoryId: payload.repository_id, issuer: payload.iss };
  }
  const current = settings();
  return verifier.verify(token, { issuers: issuerMapOf(current.platforms.value), audiences: current.audiences });
}

async function mint(caller) {
  if (!parts.has('mint')) return bareMint();
  const current = settings();
  const platform = current.platforms.value.get(caller.issuer);
  const app = clients.for(platform.apiBase.value, platform.app.value);
  const [owner, repo] = caller.repository.split('/');
  const minted = await mintRepositoryToken({ installations, clock: systemClock }, app, { owner, repo, repositoryId: Number(caller.repositoryId) }, current.tokenPermissions.value);
  return { token: minted.token, expires_at: minted.expiresAt };
}

async function body(req) {
  if (parts.has('io')) return parseRequest(parseJson(await readBody(req, TOKEN_BODY_LIMIT)));
  // The limit's reading, in a promise (so slightly more than the limit's, never less).
  const chunks = [];
  await new Promise((resolve, reject) => req.on('data', (c) => chunks.push(c)).on('end', resolve).on('error', reject));
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const server = createServer(async (req, res) => {
  try {
    const { oidcToken } = await body(req);
    const caller = await verify(oidcToken);
    const minted = await mint(caller);
    const answer = { token: minted.token, expires_at: minted.expires_at, repository: caller.repository };
    if (parts.has('log')) logger.info({ outcome: 'mint_ok' });
    if (parts.has('io')) sendJson(res, 200, answer);
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  } catch {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"refused"}');
  }
});
server.listen({ port: 0, host: '127.0.0.1' }, () => {
  console.log(JSON.stringify({ msg: 'token ladder listening', address: server.address() }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
