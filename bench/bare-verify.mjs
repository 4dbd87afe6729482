// The limit for the /token and ledger benchmarks: a bare node:http server that only verifies the
// same RS256 token with jose (same key set, issuer and audience) and answers 200. Whatever the
// real routes do beyond this (routing, validation, logging, the store, the platform call) is the
// distance measured. The token comes from `Authorization: Bearer` or the JSON body's oidcToken.
import { createServer } from 'node:http';
import { createLocalJWKSet, jwtVerify } from 'jose';

const keys = createLocalJWKSet(JSON.parse(process.env.BENCH_JWKS));
const options = { algorithms: ['RS256'], issuer: process.env.BENCH_ISSUER, audience: process.env.BENCH_AUDIENCE };

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    let status = 200;
    try {
      await jwtVerify(bearer ?? JSON.parse(Buffer.concat(chunks).toString('utf8')).oidcToken, keys, options);
    } catch {
      status = 401;
    }
    res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{"ok":true}' : '{"error":"invalid_token"}');
  });
});
server.listen({ port: 0, host: '127.0.0.1' }, () => {
  console.log(JSON.stringify({ msg: 'bare verify listening', address: server.address() }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
