// The limit for the /token benchmark: what any broker must do, and nothing else. A bare node:http
// server verifies the RS256 token with jose (same key set, issuer and audience), makes one mint
// POST to the platform fake with Node's own HTTP client over keep-alive connections (the app JWT
// signed once), and answers the token. No routing, validation, logging, caching or bounds: the
// distance to it is what the real broker spends on those.
import { createPrivateKey } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';

const keys = createLocalJWKSet(JSON.parse(process.env.BENCH_JWKS));
const options = { algorithms: ['RS256'], issuer: process.env.BENCH_ISSUER, audience: process.env.BENCH_AUDIENCE };
const api = new URL(process.env.BENCH_API_BASE);
const mintPath = `${api.pathname.replace(/\/$/, '')}/app/installations/${process.env.BENCH_INSTALLATION_ID}/access_tokens`;
const repositoryId = Number(process.env.BENCH_REPOSITORY_ID);
const now = Math.floor(Date.now() / 1000);
const appJwt = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuer(process.env.BENCH_APP_ID).setIssuedAt(now - 60).setExpirationTime(now + 540).sign(createPrivateKey(process.env.BENCH_APP_KEY));
const agent = new Agent({ keepAlive: true });

function mint() {
  const body = JSON.stringify({ repository_ids: [repositoryId], permissions: { contents: 'write', pull_requests: 'write' } });
  return new Promise((resolve, reject) => {
    const req = request(
      { host: api.hostname, port: api.port, path: mintPath, method: 'POST', agent, headers: { authorization: `Bearer ${appJwt}`, accept: 'application/vnd.github+json', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'bare-mint' } },
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
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      const { oidcToken } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const { payload } = await jwtVerify(oidcToken, keys, options);
      const minted = await mint();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: minted.token, expires_at: minted.expires_at, repository: payload.repository }));
    } catch {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"refused"}');
    }
  });
});
server.listen({ port: 0, host: '127.0.0.1' }, () => {
  console.log(JSON.stringify({ msg: 'bare mint listening', address: server.address() }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
