// The parts of the /token limit (bench/bare-mint.mjs), shared with bench/token-ladder.mjs so that
// the ladder's unswapped parts are the limit's own code. Nothing here imports the project.
import { createPrivateKey } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';

/** jose's verification of the token against the key set, issuer and audience in `env` (BENCH_*): jose's own result. */
export function bareVerifier(env) {
  const keys = createLocalJWKSet(JSON.parse(env.BENCH_JWKS));
  const options = { algorithms: ['RS256'], issuer: env.BENCH_ISSUER, audience: env.BENCH_AUDIENCE };
  return (token) => jwtVerify(token, keys, options);
}

/** One mint POST to the platform fake with Node's own HTTP client over keep-alive connections (the app JWT signed once). */
export async function bareMinter(env) {
  const api = new URL(env.BENCH_API_BASE);
  const path = `${api.pathname.replace(/\/$/, '')}/app/installations/${env.BENCH_INSTALLATION_ID}/access_tokens`;
  const repositoryId = Number(env.BENCH_REPOSITORY_ID);
  const now = Math.floor(Date.now() / 1000);
  const appJwt = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuer(env.BENCH_APP_ID).setIssuedAt(now - 60).setExpirationTime(now + 540).sign(createPrivateKey(env.BENCH_APP_KEY));
  const agent = new Agent({ keepAlive: true });
  return () => {
    const body = JSON.stringify({ repository_ids: [repositoryId], permissions: { contents: 'write', pull_requests: 'write' } });
    return new Promise((resolve, reject) => {
      const req = request(
        { host: api.hostname, port: api.port, path, method: 'POST', agent, headers: { authorization: `Bearer ${appJwt}`, accept: 'application/vnd.github+json', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'bare-mint' } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(String(res.statusCode)))));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}
