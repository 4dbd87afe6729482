import assert from 'node:assert/strict';
import { parseBrokerSettings } from '../../server/broker/settings.js';
import { brokerNotices } from '../../server/broker/status.js';
import { createMinimalApp } from '../../server/minimal/app.js';
import { configurationProblems } from '../../server/minimal/token.js';
import { appKeyCases, ESCAPED_UNREADABLE, keyFragments, leakedFragment, type AppKeyCases, type RefusedKey } from '../support/app-keys.js';
import { REPO, startBroker, type BrokerHarness } from '../support/broker.js';
import { call, type JsonAnswer } from '../support/http.js';
import { capturedLogger } from '../support/log-capture.js';
import { startEntry, type Started } from '../support/processes.js';
import { listen } from '../support/servers.js';

// Every way an unusable app key surfaces (start-up notices, /token, /sign, /releases, the minimal
// broker's /readyz and /token, both process entries): the status and error code stay the
// documented ones, the operator's message says what is wrong, and no answer or log line holds
// any part of the key.

let cases: AppKeyCases;
before(() => {
  cases = appKeyCases();
});

/** Asserts that none of `texts` holds a fragment of the refused value (without printing the fragment). */
function assertNoKey(refused: RefusedKey, texts: readonly string[], where: string): void {
  const fragments = keyFragments(refused);
  assert.ok(fragments.length > 0 || refused.value.length < 16, `${refused.name}: nothing to look for`);
  for (const text of texts) assert.equal(leakedFragment(text, fragments), -1, `${refused.name}: key material in ${where}`);
}

const answerText = (res: JsonAnswer): string => `${res.status} ${[...res.headers].join(' ')} ${res.text}`;

describe('unusable app keys: same answers, a message that says what is wrong, never the key', () => {
  it('start-up notices of the main broker name the setting, the problem and the answer, for both keys', () => {
    for (const refused of cases.refused) {
      for (const setting of ['FORGE_APP_PRIVATE_KEY', 'ENTERPRISE_APP_PRIVATE_KEY']) {
        const env = {
          FORGE_APP_ID: '1',
          FORGE_APP_PRIVATE_KEY: cases.pkcs1,
          ENTERPRISE_OIDC_ISSUER: 'https://ghe.example/_services/token',
          ENTERPRISE_API_BASE: 'https://ghe.example/api/v3',
          ENTERPRISE_APP_ID: '2',
          ENTERPRISE_APP_PRIVATE_KEY: cases.pkcs8,
          [setting]: refused.value,
        };
        const warnings = brokerNotices(parseBrokerSettings(env)).filter((n) => n.level === 'warn');
        assert.equal(warnings.length, 1, `${refused.name} (${setting})`);
        const message = warnings[0]!.message;
        assert.ok(message.startsWith(`broker: ${setting} `), message);
        assert.match(message, refused.problem, refused.name);
        assert.match(message, setting === 'FORGE_APP_PRIVATE_KEY' ? /; \/token, \/sign and \/releases answer 503 app_unconfigured$/ : /; \/token answers 503 app_unconfigured for enterprise tokens$/);
        assertNoKey(refused, [message], 'a start-up notice');
      }
    }
  });

  describe('main broker', () => {
    let h: BrokerHarness;
    before(async () => {
      h = await startBroker();
    });
    after(() => h.close());

    it('/token, /sign and /releases answer 503 app_unconfigured; the log line says what is wrong; neither holds the key', async () => {
      const good = h.backend.env.FORGE_APP_PRIVATE_KEY;
      for (const refused of cases.refused) {
        h.backend.env.FORGE_APP_PRIVATE_KEY = refused.value;
        const logged = h.backend.logs.lines().length;
        const answers = [
          await h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' }),
          await call(`${h.backend.url}/sign`, {
            token: h.triggerSecret,
            json: { repo: REPO, branch: 'main', expected_head_oid: 'a'.repeat(40), message: { headline: 'x' }, deletions: [{ path: 'x' }] },
          }),
          await call(`${h.backend.url}/releases`, { token: h.triggerSecret }),
        ];
        for (const res of answers) assert.deepEqual([res.status, res.body], [503, { error: 'app_unconfigured' }], refused.name);
        const lines = h.backend.logs.lines().slice(logged);
        const messages = lines.map((l) => String((l.err as { message?: unknown } | undefined)?.message ?? ''));
        assert.equal(messages.filter((m) => m.startsWith('app_unconfigured: FORGE_APP_PRIVATE_KEY ') && refused.problem.test(m)).length, 3, refused.name);
        assertNoKey(refused, [...answers.map(answerText), JSON.stringify(lines)], 'an answer or a log line');
      }
      h.backend.env.FORGE_APP_PRIVATE_KEY = good;
      assert.equal((await h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' })).status, 200);
      assertNoKey({ name: 'the good key', value: cases.pkcs1, problem: /./, material: [] }, [h.backend.logs.text()], 'the log');
    });
  });

  describe('minimal broker', () => {
    it('/readyz and /token answer 503 config_unavailable; its problems say what is wrong; nothing holds the key', async () => {
      const env: Record<string, string | undefined> = { FORGE_APP_ID: '1' };
      const logs = capturedLogger();
      const server = await listen(createMinimalApp({ env: () => env, logger: logs.logger, version: 'test' }));
      try {
        for (const refused of cases.refused) {
          env.FORGE_APP_PRIVATE_KEY = refused.value;
          const problems = configurationProblems(parseBrokerSettings(env));
          assert.equal(problems.length, 1, refused.name);
          assert.ok(problems[0]!.startsWith('FORGE_APP_PRIVATE_KEY '));
          assert.match(problems[0]!, refused.problem, refused.name);
          const ready = await call(`${server.url}/readyz`);
          const token = await call(`${server.url}/token`, { json: { oidcToken: 'x.y.z', owner: 'octo-org', repo: 'octo-repo' } });
          for (const res of [ready, token]) assert.deepEqual([res.status, res.body], [503, { error: 'config_unavailable' }], refused.name);
          assertNoKey(refused, [...problems, answerText(ready), answerText(token)], 'a problem or an answer');
        }
        // One closed-vocabulary line per /token request, as always; /readyz writes each change of its reason once.
        const tokenLines = logs.lines().filter((l) => 'outcome' in l);
        assert.equal(tokenLines.length, cases.refused.length);
        assert.deepEqual(new Set(tokenLines.map((l) => l.outcome)), new Set(['config_unavailable']));
        const readiness = logs.lines().filter((l) => !('outcome' in l));
        assert.ok(readiness.length >= 1 && readiness.every((l) => l.msg === 'not ready: config_unavailable' && l.level === 'warn'), JSON.stringify(readiness));
        for (const refused of cases.refused) assertNoKey(refused, [logs.text()], 'the log');
      } finally {
        await server.close();
      }
    });
  });

  describe('process entries', () => {
    const escaped = () => cases.refused.find((r) => r.problem === ESCAPED_UNREADABLE)!;
    const started: Started[] = [];
    afterEach(async () => {
      for (const child of started.splice(0)) {
        child.child.kill('SIGKILL');
        await child.exited;
      }
    });

    it('server/main.ts starts, says at start what is wrong with the key, answers 503 app_unconfigured, never prints the key', async () => {
      const refused = escaped();
      const main = await startEntry('server/main.ts', { FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: refused.value, PROCESS_TRIGGER_SECRET: 'trigger' });
      started.push(main);
      assert.match(main.output(), /"msg":"broker: FORGE_APP_PRIVATE_KEY is one line with \\\\n escapes, but once they are decoded [^"]*; \/token, \/sign and \/releases answer 503 app_unconfigured"/);
      const res = await call(`${main.url}/releases`, { token: 'trigger' });
      assert.deepEqual([res.status, res.body], [503, { error: 'app_unconfigured' }]);
      assertNoKey(refused, [main.output(), answerText(res)], 'the process output or an answer');
    });

    it('server/minimal/main.ts starts, says at start what is wrong with the key, answers 503 config_unavailable, never prints the key', async () => {
      const refused = escaped();
      const minimal = await startEntry('server/minimal/main.ts', { FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: refused.value }, 'gatehouse minimal broker listening');
      started.push(minimal);
      assert.match(minimal.output(), /"problems":\["FORGE_APP_PRIVATE_KEY is one line with \\\\n escapes, but once they are decoded [^"]*"\]/);
      const answers = [await call(`${minimal.url}/readyz`), await call(`${minimal.url}/token`, { json: { oidcToken: 'x.y.z', owner: 'octo-org', repo: 'octo-repo' } })];
      for (const res of answers) assert.deepEqual([res.status, res.body], [503, { error: 'config_unavailable' }]);
      assertNoKey(refused, [minimal.output(), ...answers.map(answerText)], 'the process output or an answer');
    });
  });
});
