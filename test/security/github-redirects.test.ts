import assert from 'node:assert/strict';
import { apiServer } from '../../server/http/client-errors.js';
import { createMinimalApp } from '../../server/minimal/app.js';
import { REPO, REPO_ID, startBroker, type BrokerHarness } from '../support/broker.js';
import { repository, simpleUser } from '../support/github-objects.js';
import { call, type JsonAnswer } from '../support/http.js';
import { capturedLogger } from '../support/log-capture.js';
import { listen, readBody, type Listening } from '../support/servers.js';

// A GitHub App's calls are answered by the configured API or fail: a redirect is never followed
// (a 307 on the mint would re-send the mint to another host and hand out whatever token it
// returns), and a mint whose answer names another repository than the one asked is refused and
// revoked, not handed out. Both brokers mint through the same code (server/platform/).

const OTHER = 'octo-org/other-repo';
const OTHER_ID = 987654321;

/** Another host on loopback that answers every call as GitHub answers a mint, and records them. */
async function elsewhereHost(): Promise<Listening & { requests: { method: string; url: string; authorization?: string }[]; token: string }> {
  const requests: { method: string; url: string; authorization?: string }[] = [];
  const token = `ghs_${'e'.repeat(36)}`;
  const listening = await listen(async (req, res) => {
    await readBody(req);
    requests.push({ method: req.method ?? '', url: req.url ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const api = `http://${req.headers.host}`;
    res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' }).end(
      JSON.stringify({
        token,
        expires_at: expiresAt,
        permissions: { contents: 'write', pull_requests: 'write' },
        repository_selection: 'selected',
        repositories: [repository(api, simpleUser(api, 'octo-org', 1, 'Organization'), 'octo-repo', REPO_ID)],
      }),
    );
  });
  return Object.assign(listening, { requests, token });
}

describe('attack suite: GitHub answers a broker cannot trust are refused, both brokers', () => {
  let h: BrokerHarness;
  let minimal: Listening;
  let elsewhere: Awaited<ReturnType<typeof elsewhereHost>>;

  beforeEach(async () => {
    h = await startBroker();
    minimal = await listen(apiServer(createMinimalApp({ env: () => h.backend.env, logger: capturedLogger().logger, version: 'redirects' })));
    elsewhere = await elsewhereHost();
    h.github.addRepo(OTHER, OTHER_ID, h.github.repos.get(REPO)!.installationId);
  });
  afterEach(async () => {
    await elsewhere.close();
    await minimal.close();
    await h.close();
  });

  const redirect = (status: number) => ({ status, body: {}, headers: { location: `${elsewhere.url}/app/installations/31337/access_tokens` } });
  const brokers: { name: string; token: () => Promise<JsonAnswer>; lookupFailed: [number, string] }[] = [
    { name: 'main broker', token: async () => h.token(await body()), lookupFailed: [500, 'platform_installation_lookup_failed'] },
    { name: 'minimal broker', token: async () => call(`${minimal.url}/token`, { json: await body() }), lookupFailed: [502, 'mint_failed'] },
  ];
  const body = async () => ({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' });

  for (const broker of brokers) {
    describe(broker.name, () => {
      for (const status of [301, 302, 307, 308]) {
        it(`a mint answered ${status} to another host is 502 mint_failed: the other host is never asked, its token never handed out`, async () => {
          h.github.inject('access_tokens', redirect(status));
          const res = await broker.token();
          assert.deepEqual([res.status, res.body], [502, { error: 'mint_failed' }]);
          assert.deepEqual(elsewhere.requests, []);
          assert.ok(!res.text.includes(elsewhere.token));
        });
      }

      it(`an installation lookup answered 307 to another host is ${broker.lookupFailed.join(' ')}, the other host never asked`, async () => {
        h.github.inject('repository_installation', redirect(307));
        const res = await broker.token();
        assert.deepEqual([res.status, res.body], [broker.lookupFailed[0], { error: broker.lookupFailed[1] }]);
        assert.deepEqual(elsewhere.requests, []);
        assert.equal(h.github.count('access_tokens'), 0);
      });

      it('a mint whose answer names another repository is 502 mint_failed, and that token is revoked', async () => {
        h.github.grantInstead = OTHER;
        const res = await broker.token();
        assert.deepEqual([res.status, res.body], [502, { error: 'mint_failed' }]);
        const [minted] = h.github.minted;
        assert.deepEqual(h.github.grantOf(minted!)?.repositoryIds, [OTHER_ID], 'the fake granted the other repository');
        assert.ok(h.github.revoked.has(minted!), 'the token nobody was given is revoked');
        // The next mint is GitHub behaving again: the broker mints as usual.
        const again = await broker.token();
        assert.equal(again.status, 200);
        assert.deepEqual(h.github.grantOf(again.body.token as string)?.repositoryIds, [REPO_ID]);
      });

      it('a mint whose answer covers every repository of the installation (repository_selection: all) is refused and revoked', async () => {
        h.github.grantInstead = 'all';
        const res = await broker.token();
        assert.deepEqual([res.status, res.body], [502, { error: 'mint_failed' }]);
        const [minted] = h.github.minted;
        assert.equal(h.github.grantOf(minted!)?.repositoryIds, null);
        assert.ok(h.github.revoked.has(minted!));
      });
    });
  }
});
