import assert from 'node:assert/strict';
import { createMinimalApp } from '../../server/minimal/app.js';
import { BROKER_AUDIENCE, INSTALLATION_ID, startBroker, type BrokerHarness } from '../support/broker.js';
import { primaryRateLimit, secondaryRateLimit, type FakeRoute, type InjectedAnswer } from '../support/fake-github.js';
import { call, type JsonAnswer } from '../support/http.js';
import { capturedLogger } from '../support/log-capture.js';
import { listen, type Listening } from '../support/servers.js';
import { timed } from './support.js';

/** Short platform bound for these tests (the default is in the bounds table); and slack over it on a loaded 2-core machine. */
const BOUNDS = { connectMs: 300, totalMs: 600 };
const SLACK_MS = 1500;

const FAULTS: [string, InjectedAnswer][] = [
  ['no answer at all (the connection accepted and held)', 'hang'],
  ['its headers, then a stalled body', 'stall-body'],
  ['a 500', { status: 500, body: { message: 'Server Error' } }],
  ['a 502', { status: 502, body: { message: 'Bad Gateway' } }],
  ['a secondary rate limit (403 with retry-after)', secondaryRateLimit(403, 60)],
  ['a secondary rate limit (429)', secondaryRateLimit(429, 60)],
  ['a spent primary rate limit (x-ratelimit-remaining: 0)', primaryRateLimit(42)],
  ['a dropped connection', 'reset'],
];

/** What each broker answers when the platform fails at each step (main: spec table and README; minimal: its own table). */
const EXPECTED: Record<'main' | 'minimal', Record<'repository_installation' | 'access_tokens', [number, Record<string, unknown>]>> = {
  main: {
    repository_installation: [500, { error: 'platform_installation_lookup_failed' }],
    access_tokens: [502, { error: 'mint_failed' }],
  },
  minimal: {
    repository_installation: [502, { error: 'mint_failed' }],
    access_tokens: [502, { error: 'mint_failed' }],
  },
};

describe('faults: the platform failing or rate-limiting during /token', () => {
  let h: BrokerHarness;
  let minimal: Listening;
  let minimalLogs: ReturnType<typeof capturedLogger>;

  // One harness for all (key generation is the slow part); each test uses its own repository, so
  // the installation caches start cold and the counts below are about that test alone.
  let repo = '';
  let repoId = 0;
  before(async () => {
    h = await startBroker({ bounds: { platform: BOUNDS } });
    const env = { OIDC_ISSUER: h.issuer.url, FORGE_API_BASE: h.github.apiBase, FORGE_APP_ID: h.github.appId, FORGE_APP_PRIVATE_KEY: h.github.privateKeyPem };
    minimalLogs = capturedLogger();
    minimal = await listen(createMinimalApp({ env: () => env, logger: minimalLogs.logger, version: 'test', bounds: { platform: BOUNDS } }));
  });
  after(async () => {
    await minimal.close();
    await h.close();
  });
  beforeEach(() => {
    repoId = 1000 + h.github.repos.size;
    repo = `repo-${repoId}`;
    h.github.addRepo(`octo-org/${repo}`, repoId, INSTALLATION_ID);
    h.github.delayMs = 0;
  });

  const token = async (broker: 'main' | 'minimal'): Promise<JsonAnswer> =>
    call(`${broker === 'main' ? h.backend.url : minimal.url}/token`, {
      json: {
        oidcToken: await h.issuer.mint({ aud: BROKER_AUDIENCE, repository: `octo-org/${repo}`, repository_id: String(repoId) }),
        owner: 'octo-org',
        repo,
      },
    });
  /** Platform calls of this test's repository: its lookups by path, its mints by the repository id they name. */
  const count = (route: FakeRoute) =>
    h.github.calls.filter((c) =>
      c.route === route && (route === 'access_tokens' ? (c.body as { repository_ids?: number[] } | undefined)?.repository_ids?.[0] === repoId : c.path.includes(`/${repo}/`)),
    ).length;

  for (const broker of ['main', 'minimal'] as const) {
    for (const route of ['repository_installation', 'access_tokens'] as const satisfies readonly FakeRoute[]) {
      for (const [what, answer] of FAULTS) {
        it(`${broker} broker, ${route === 'access_tokens' ? 'the mint' : 'the installation lookup'} answers ${what}: ${EXPECTED[broker][route][0]} ${EXPECTED[broker][route][1].error}, one platform call, then recovery`, async () => {
          if (route === 'access_tokens') {
            // Warm the installation cache so the fault lands on the mint.
            assert.equal((await token(broker)).status, 200);
          }
          const lookupsBefore = count('repository_installation');
          const mintsBefore = count('access_tokens');
          h.github.inject(route, answer);

          const { value: res, ms } = await timed(() => token(broker));
          // Exactly the spec's answer: no platform message or rate-limit text passed on.
          assert.deepEqual([res.status, res.body], EXPECTED[broker][route]);
          // A platform that holds the call is cut off at the call's bound, never waited on.
          if (answer === 'hang' || answer === 'stall-body') assert.ok(ms < BOUNDS.totalMs + SLACK_MS, `answered after ${Math.round(ms)} ms`);
          // A rate limit's wait is passed on (a secondary limit's Retry-After, a spent primary limit's reset), by both brokers.
          const wait = what.includes('secondary') ? /^60$/ : what.includes('primary') ? /^([1-9]|[1-3]\d|4[0-2])$/ : undefined; // the reset was 42 s away when FAULTS was built
          if (wait) assert.match(res.headers.get('retry-after') ?? '(none)', wait);
          // No retry against a failing or rate-limited platform: the caller decides when to come back.
          assert.equal(count(route), (route === 'access_tokens' ? mintsBefore : lookupsBefore) + 1);
          if (route === 'repository_installation') assert.equal(count('access_tokens'), mintsBefore, 'no mint without an installation');

          const next = await token(broker);
          assert.equal(next.status, 200, JSON.stringify(next.body));
          if (route === 'repository_installation') {
            assert.equal(count('repository_installation'), lookupsBefore + 2, 'a failed lookup is not cached');
          } else {
            assert.equal(count('repository_installation'), lookupsBefore, 'a platform failure of the mint keeps the cached installation');
          }
          if (broker === 'minimal') {
            assert.deepEqual(
              minimalLogs.lines().filter((l) => 'outcome' in l).map((l) => l.outcome).slice(-2),
              ['mint_failed', 'mint_ok'],
            );
          }
        });
      }
    }
  }

  it('main broker: a platform answering slowly holds only its own request, and each request makes its own bounded calls', async () => {
    assert.equal((await token('main')).status, 200);
    h.github.delayMs = 400;
    h.github.inject('access_tokens', secondaryRateLimit(429, 60), 5);
    const answers = await Promise.all(Array.from({ length: 5 }, () => token('main')));
    assert.ok(answers.every((a) => a.status === 502 && a.body.error === 'mint_failed'));
    assert.equal(count('access_tokens'), 1 + 5, 'one mint per request, never a retry loop');
    h.github.delayMs = 0;
    assert.equal((await token('main')).status, 200);
  });
});
