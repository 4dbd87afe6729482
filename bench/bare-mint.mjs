// The limit for the /token benchmark: what any broker must do, and nothing else. A bare node:http
// server verifies the RS256 token with jose (same key set, issuer and audience), makes one mint
// POST to the platform fake with Node's own HTTP client over keep-alive connections (the app JWT
// signed once), and answers the token. No routing, validation, logging, caching or bounds: the
// distance to it is what the real broker spends on those. The verification and the mint are in
// bench/bare-parts.mjs, shared with bench/token-ladder.mjs.
import { createServer } from 'node:http';
import { bareMinter, bareVerifier } from './bare-parts.mjs';

const verify = bareVerifier(process.env);
const mint = await bareMinter(process.env);

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      const { oidcToken } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const { payload } = await verify(oidcToken);
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
