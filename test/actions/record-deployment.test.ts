import assert from 'node:assert/strict';
import { ACTION_RETRY } from '../../server/http/retry.js';
import nock from 'nock';
import { humanDuration } from '../../actions/record-deployment/figures.js';
import { defaultDeliveryId, defaultRunUrl } from '../../actions/record-deployment/record.js';
import { run } from '../../actions/record-deployment/run.js';
import { actionHttp } from '../../actions/shared/http.js';
import { RecordingCore } from '../support/runner.js';
import { useNock } from '../support/nock.js';
import { closedPort, listen } from '../support/servers.js';

const LEDGER = 'https://ledger.example.com';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
const RUNNER_ENV = {
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://runner.example/token?api-version=2.0',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'request-token',
  GITHUB_RUN_ID: '4242',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_JOB: 'deploy',
  GITHUB_SHA: 'f'.repeat(40),
  GITHUB_ACTOR: 'octocat',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'octo-org/octo-repo',
};
const RECORDED = {
  deployment_id: '0190a5b4-0000-7000-8000-000000000001',
  repository: 'octo-org/octo-repo',
  recorded_at: '2026-11-21T10:00:00.000Z',
  duplicate: false,
  notified: { chat: true },
};
const FAST = { ...ACTION_RETRY, minDelayMs: 1, maxDelayMs: 8 };
const FIGURES = {
  repository: 'octo-org/octo-repo',
  environment: 'production',
  window: { from: '2026-10-22T10:00:00.000Z', to: '2026-11-21T10:00:00.000Z', days: 30 },
  deployments: { total: 15, success: 12, failure: 1, rolled_back: 1, skipped: 1 },
  deployment_frequency: { per_day: 0.4, days_with_deployment: 9 },
  change_failure_rate: 2 / 14,
  recovery_time_ms: { median: 5_400_000, p90: 176_400_000, count: 2 },
  lead_time_ms: { median: 7_200_000, p90: 86_400_000, count: 10 },
};

/** nock intercepts the global fetch: it is the transport here, under the actions' own bounds. */
const http = () => actionHttp({ transport: fetch });

/** Audiences the fake runner was asked for. */
let audiences: string[] = [];
/** The runner's OIDC endpoint answers `times` requests with `token`. */
function runnerIssues(token = TOKEN, times = 1): void {
  nock('https://runner.example', { reqheaders: { authorization: 'Bearer request-token' } })
    .get('/token')
    .query((q) => {
      audiences.push(String(q.audience));
      return q['api-version'] === '2.0';
    })
    .times(times)
    .reply(200, { value: token });
}
const baseInputs = { 'api-url': LEDGER, environment: 'production', status: 'success' };

describe('record-deployment action (run, with HTTP mocked at the transport)', () => {
  useNock();
  beforeEach(() => {
    audiences = [];
  });

  it('with an empty api-url: a notice and no call at all, not even for a token', async () => {
    const core = new RecordingCore({ 'api-url': '  ', environment: 'production', status: 'success' });
    await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
    assert.equal(core.of('notice').length, 1);
    assert.match(core.of('notice')[0]!, /api-url is empty/);
    assert.deepEqual(audiences, []);
    assert.deepEqual(core.outputs, {});
  });

  it('posts the record with the run defaults and the OIDC token, and sets the outputs', async () => {
    let sent: Record<string, unknown> = {};
    nock(LEDGER, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
      .get('/v1/deployments/metrics')
      .query({ environment: 'production', days: '30' })
      .reply(200, FIGURES);
    nock(LEDGER, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
      .post('/v1/deployments', (body: Record<string, unknown>) => {
        sent = body;
        return true;
      })
      .reply(201, RECORDED);
    runnerIssues();
    const core = new RecordingCore({ ...baseInputs, version: '1.2.3', verified: 'TRUE', 'duration-ms': '5000', target: 'function-zip' });
    await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
    assert.deepEqual(sent, {
      delivery_id: '4242-2-deploy-production',
      environment: 'production',
      status: 'success',
      target: 'function-zip',
      version: '1.2.3',
      commit: 'f'.repeat(40),
      run_url: 'https://github.com/octo-org/octo-repo/actions/runs/4242/attempts/2',
      actor: 'octocat',
      verified: true,
      duration_ms: 5000,
    });
    assert.deepEqual(audiences, ['gatehouse-ledger']);
    assert.deepEqual(core.outputs, {
      'deployment-id': RECORDED.deployment_id,
      duplicate: 'false',
      'recorded-at': RECORDED.recorded_at,
      notified: '{"chat":true}',
      'deployment-frequency': '0.4',
      'change-failure-rate': '0.14285714285714285',
      'recovery-time-ms': '5400000',
      'lead-time-ms': '7200000',
      figures: JSON.stringify(FIGURES),
    });
    assert.equal(core.summaries.length, 2);
    assert.match(core.summaries[0]!, /\| octo-org\/octo-repo \| production \| success \| 1\.2\.3 \|/);
    assert.match(core.summaries[1]!, /#### production: the last 30 days/);
    assert.match(
      core.summaries[1]!,
      /\| 15 \(12 success, 1 failure, 1 rolled back, 1 skipped\) \| 0\.40 \| 9 \| 14\.3 % \| median 1 h 30 min, p90 2 d 1 h \(2\) \| median 2 h, p90 1 d \(10\) \|/,
    );
    assert.deepEqual(core.of('warning'), []);
    assert.deepEqual(core.of('failed'), []);
  });

  it('uses the given audience, delivery id and overrides, under an api-url with a path', async () => {
    nock('https://gw.example.com')
      .post(
        '/ledger/v1/deployments',
        (b: Record<string, unknown>) => b.delivery_id === 'release-7' && b.commit === 'abc' && b.actor === 'bot' && b.committed_at === '2026-11-20T08:30:00.000Z',
      )
      .reply(200, { ...RECORDED, duplicate: true });
    runnerIssues();
    const core = new RecordingCore({ ...baseInputs, 'api-url': 'https://gw.example.com/ledger', audience: 'my-ledger', 'delivery-id': 'release-7', commit: 'abc', actor: 'bot', 'committed-at': '2026-11-20T10:30:00+02:00' });
    await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
    assert.deepEqual(audiences, ['my-ledger']);
    assert.equal(core.outputs.duplicate, 'true');
    assert.match(core.summaries[0]!, /already recorded/);
  });

  it("a duplicate answered with the spec's five fields only (no record): nothing on GitHub, no figures, a warning; the summary claims no environment", async () => {
    nock(LEDGER).post('/v1/deployments').reply(200, { ...RECORDED, duplicate: true });
    runnerIssues();
    const core = new RecordingCore({ ...baseInputs, environment: 'staging', 'github-deployment': 'true', 'github-token': 'gh-token' });
    // nock refuses any other request: a GitHub call or a figures read would add a warning of its own.
    await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
    assert.deepEqual(core.of('failed'), []);
    assert.deepEqual(core.of('warning'), ["no GitHub deployment: the ledger's duplicate answer does not carry the original record, and this step's inputs may differ from it"]);
    assert.equal(core.outputs.duplicate, 'true');
    assert.equal(core.outputs['github-deployment-id'], undefined);
    assert.equal(core.summaries.length, 1);
    assert.match(core.summaries[0]!, /\| octo-org\/octo-repo \| not in the answer \| not in the answer \|/);
    assert.doesNotMatch(core.summaries[0]!, /staging/);
  });

  it('retries 5xx and 429, then succeeds', async () => {
    nock(LEDGER)
      .post('/v1/deployments')
      .reply(503, { error: 'jwks_unavailable' })
      .post('/v1/deployments')
      .reply(429, { error: 'rate_limited' })
      .post('/v1/deployments')
      .reply(201, RECORDED);
    runnerIssues();
    const core = new RecordingCore(baseInputs);
    await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
    assert.equal(core.outputs['deployment-id'], RECORDED.deployment_id);
    assert.equal(core.of('info').filter((m) => m.includes('retrying')).length, 2);
  });

  it('retries a connection reset (a real socket on loopback), then succeeds', async () => {
    nock.enableNetConnect('127.0.0.1');
    let calls = 0;
    const ledger = await listen((req, res) => {
      // The figures' GET after recording is not what this test counts.
      if (req.method !== 'POST') return void res.writeHead(404).end();
      calls++;
      if (calls === 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(RECORDED));
    });
    try {
      runnerIssues();
      const core = new RecordingCore({ ...baseInputs, 'api-url': ledger.url });
      await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
      assert.equal(calls, 2);
      assert.equal(core.outputs['deployment-id'], RECORDED.deployment_id);
      assert.match(core.of('info')[0]!, /attempt 1 failed \(the ledger did not answer: .+\); retrying/);
    } finally {
      await ledger.close();
      nock.disableNetConnect();
    }
  });

  describe('the ledger unreachable or down: a warning by default, a failed step with fail-on-error', () => {
    const outage = async (inputs: Record<string, string>, expected: string) => {
      const soft = new RecordingCore(inputs);
      await run({ core: soft, http: http(), env: RUNNER_ENV, retry: FAST });
      assert.deepEqual(soft.outputs, {});
      assert.deepEqual(soft.of('failed'), []);
      assert.deepEqual(soft.of('warning'), [`deployment not recorded: ${expected}`]);
      const hard = new RecordingCore({ ...inputs, 'fail-on-error': 'true' });
      await run({ core: hard, http: http(), env: RUNNER_ENV, retry: FAST });
      assert.deepEqual(hard.of('failed'), [`deployment not recorded: ${expected}`]);
      assert.deepEqual(hard.of('warning'), []);
    };

    it('5xx after the retries', async () => {
      nock(LEDGER).post('/v1/deployments').times(8).reply(500, { error: 'internal_error' });
      runnerIssues(TOKEN, 2);
      await outage(baseInputs, 'the ledger is unavailable: HTTP 500: internal_error');
    });

    it('429 after the retries', async () => {
      nock(LEDGER).post('/v1/deployments').times(8).reply(429, { error: 'rate_limited' });
      runnerIssues(TOKEN, 2);
      await outage(baseInputs, 'the ledger is unavailable: HTTP 429: rate_limited');
    });

    it('no answer at all (a closed port) after the retries', async () => {
      nock.enableNetConnect('127.0.0.1');
      try {
        runnerIssues(TOKEN, 2);
        const port = await closedPort();
        const core = new RecordingCore({ ...baseInputs, 'api-url': `http://127.0.0.1:${port}` });
        await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
        assert.deepEqual(core.of('failed'), []);
        assert.match(core.of('warning')[0]!, /^deployment not recorded: the ledger did not answer: /);
        const hard = new RecordingCore({ ...baseInputs, 'api-url': `http://127.0.0.1:${port}`, 'fail-on-error': 'TRUE' });
        await run({ core: hard, http: http(), env: RUNNER_ENV, retry: FAST });
        assert.match(hard.of('failed')[0]!, /^deployment not recorded: the ledger did not answer: /);
      } finally {
        nock.disableNetConnect();
      }
    });

    it('the runner’s OIDC endpoint failing is an outage too (5xx retried once)', async () => {
      nock('https://runner.example').get('/token').query(true).times(4).reply(500, { message: 'boom' });
      await outage(baseInputs, 'OIDC request failed (HTTP 500)');
    });

    it('an OIDC answer without a value is a warning naming it', async () => {
      nock('https://runner.example').get('/token').query(true).reply(200, { count: 0 });
      const core = new RecordingCore(baseInputs);
      await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
      assert.deepEqual(core.of('warning'), ['deployment not recorded: OIDC token missing (the answer has no value)']);
    });
  });

  describe('a mistake in the step or its setup fails the step, whatever fail-on-error says', () => {
    /** Fails once, no retry, no warning, no outputs. */
    const failsWith = async (core: RecordingCore, expected: string) => {
      await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
      assert.deepEqual(core.of('failed'), [`deployment not recorded: ${expected}`]);
      assert.deepEqual(core.of('warning'), []);
      assert.deepEqual(core.outputs, {});
      assert.ok(!core.of('info').some((m) => m.includes('retrying')), 'not retried');
    };

    it('422: a value the ledger refuses, with the ledger’s message', async () => {
      nock(LEDGER).post('/v1/deployments').once().reply(422, { error: 'validation_failed', message: 'url: must be an http or https URL without credentials', details: [] });
      runnerIssues();
      await failsWith(
        new RecordingCore({ ...baseInputs, url: 'javascript:alert(1)' }),
        'the ledger refused the record: HTTP 422: validation_failed - url: must be an http or https URL without credentials',
      );
    });

    it('401: the job’s token refused (here its audience), with what to change', async () => {
      nock(LEDGER).post('/v1/deployments').once().reply(401, { error: 'invalid_token', reason: 'audience_mismatch' });
      runnerIssues();
      await failsWith(
        new RecordingCore({ ...baseInputs, audience: 'not-the-ledgers' }),
        `the ledger refused the job's token: HTTP 401: invalid_token - audience_mismatch (input "audience" must be one of the ledger's LEDGER_AUDIENCE values)`,
      );
    });

    it('403: the owner not allowed, with what to change', async () => {
      nock(LEDGER).post('/v1/deployments').once().reply(403, { error: 'forbidden', reason: 'owner_not_allowed' });
      runnerIssues();
      await failsWith(
        new RecordingCore(baseInputs),
        "the ledger refused the job's token: HTTP 403: forbidden - owner_not_allowed (this repository's owner must be in the ledger's LEDGER_ALLOWED_OWNERS)",
      );
    });

    it('404, or a 200 that is not a record: api-url is not the ledger', async () => {
      nock(LEDGER).post('/v1/deployments').once().reply(404, { error: 'not_found' });
      runnerIssues();
      await failsWith(new RecordingCore(baseInputs), "the ledger refused the record: HTTP 404: not_found (is api-url the ledger's base URL?)");
      nock(LEDGER).post('/v1/deployments').once().reply(200, '<html>Welcome</html>');
      runnerIssues();
      await failsWith(new RecordingCore(baseInputs), "the ledger answered HTTP 200 without a deployment record (is api-url the ledger's base URL?)");
    });

    it("no id-token: write: says so, and calls nothing", async () => {
      const { ACTIONS_ID_TOKEN_REQUEST_URL: _u, ACTIONS_ID_TOKEN_REQUEST_TOKEN: _t, ...env } = RUNNER_ENV;
      const core = new RecordingCore(baseInputs);
      await run({ core, http: http(), env, retry: FAST });
      assert.deepEqual(core.of('failed'), ["deployment not recorded: cannot request an OIDC token: give the job 'permissions: id-token: write'"]);
      assert.deepEqual(core.of('warning'), []);
      assert.deepEqual(audiences, []);
    });

    for (const [extra, message] of [
      [{ verified: 'maybe' }, 'input "verified" must be true or false (true, True, TRUE, false, False or FALSE)'],
      [{ verified: 'tRUE' }, 'input "verified" must be true or false (true, True, TRUE, false, False or FALSE)'],
      [{ 'duration-ms': '1.5s' }, 'input "duration-ms" must be a whole number'],
      [{ 'committed-at': '2026-11-20' }, 'input "committed-at" must be an ISO 8601 date-time with seconds and an offset (for example 2026-11-20T10:30:00+02:00)'],
      [{ 'api-url': 'ftp://ledger' }, 'input "api-url" must be an http(s) URL'],
      [{ 'api-url': 'ledger.example.com' }, 'input "api-url" must be an http(s) URL'],
      [{ environment: '' }, 'input "environment" is required'],
      [{ status: ' ' }, 'input "status" is required'],
      [{ 'fail-on-error': 'yes please' }, 'input "fail-on-error" must be true or false (true, True, TRUE, false, False or FALSE)'],
      // A bad switch is a mistake even when the step would record nothing.
      [{ 'api-url': '', 'fail-on-error': 'on' }, 'input "fail-on-error" must be true or false (true, True, TRUE, false, False or FALSE)'],
    ] as const) {
      it(`bad input ${JSON.stringify(extra)}: ${message}`, async () => {
        const core = new RecordingCore({ ...baseInputs, ...extra });
        await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
        assert.deepEqual(core.of('failed'), [`deployment not recorded: ${message}`]);
        assert.deepEqual(core.of('warning'), []);
        assert.deepEqual(audiences, [], 'no token asked for');
      });
    }
  });

  it('verified takes every YAML 1.2 boolean', async () => {
    for (const [word, value] of [['True', true], ['FALSE', false], ['false', false]] as const) {
      let sent: unknown;
      nock(LEDGER)
        .post('/v1/deployments', (body: Record<string, unknown>) => {
          sent = body.verified;
          return true;
        })
        .reply(201, RECORDED);
      runnerIssues();
      const core = new RecordingCore({ ...baseInputs, verified: word });
      await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
      assert.equal(sent, value, word);
    }
  });

  it('never writes the token into outputs, messages or the summary', async () => {
    nock(LEDGER).post('/v1/deployments').reply(401, { error: 'invalid_token', reason: 'expired' });
    runnerIssues();
    const core = new RecordingCore(baseInputs);
    await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
    const seen = JSON.stringify([core.outputs, core.messages, core.summaries]);
    assert.ok(!seen.includes(TOKEN));
    assert.deepEqual(core.secrets, [TOKEN]);
  });
});

describe('record-deployment figures (after recording)', () => {
  useNock();

  const recordWith = async (figures: (scope: nock.Interceptor) => nock.Scope, inputs: Record<string, string> = {}) => {
    nock(LEDGER).post('/v1/deployments').reply(201, RECORDED);
    figures(nock(LEDGER).get('/v1/deployments/metrics').query(true));
    runnerIssues();
    const core = new RecordingCore({ ...baseInputs, ...inputs });
    await run({ core, http: http(), env: RUNNER_ENV, retry: FAST });
    return core;
  };

  for (const [label, answer, warning] of [
    ['a 5xx', (i: nock.Interceptor) => i.reply(503, { error: 'store_unavailable' }), 'figures not shown: HTTP 503: store_unavailable'],
    ['a 404 (a ledger without the route)', (i: nock.Interceptor) => i.reply(404, { error: 'not_found' }), 'figures not shown: HTTP 404 (a ledger older than GET /v1/deployments/metrics?)'],
    ['a 200 that is not figures', (i: nock.Interceptor) => i.reply(200, { ok: true }), 'figures not shown: the ledger answered HTTP 200 without figures (a ledger older than GET /v1/deployments/metrics?)'],
    ['no answer', (i: nock.Interceptor) => i.replyWithError({ code: 'ECONNRESET' }), 'figures not shown: the ledger did not answer'],
  ] as const) {
    it(`${label}: a warning, the record's outputs and summary, and never a failed step (fail-on-error or not)`, async () => {
      for (const failOnError of ['false', 'true']) {
        const core = await recordWith(answer, { 'fail-on-error': failOnError });
        assert.deepEqual(core.of('failed'), []);
        assert.equal(core.of('warning').length, 1);
        assert.ok(core.of('warning')[0]!.startsWith(warning), core.of('warning')[0]);
        assert.equal(core.outputs['deployment-id'], RECORDED.deployment_id);
        assert.equal(core.outputs['change-failure-rate'], undefined);
        assert.equal(core.summaries.length, 1);
      }
    });
  }

  it('null figures: empty outputs, and the summary says why', async () => {
    const empty = {
      ...{ repository: 'octo-org/octo-repo', environment: 'production', window: { from: 'x', to: 'y', days: 30 } },
      deployments: { total: 1, success: 0, failure: 0, rolled_back: 0, skipped: 1 },
      deployment_frequency: { per_day: 0, days_with_deployment: 0 },
      change_failure_rate: null,
      recovery_time_ms: null,
      lead_time_ms: null,
    };
    const core = await recordWith((i) => i.reply(200, empty));
    assert.deepEqual(core.of('warning'), []);
    assert.deepEqual(
      [core.outputs['deployment-frequency'], core.outputs['change-failure-rate'], core.outputs['recovery-time-ms'], core.outputs['lead-time-ms']],
      ['0', '', '', ''],
    );
    assert.match(core.summaries[1]!, /\| n\/a \(no change\) \| no recovered failure \| no commit times \|/);
  });

  it('durations for people: the two largest units', () => {
    assert.equal(humanDuration(0), 'under 1 s');
    assert.equal(humanDuration(999), 'under 1 s');
    assert.equal(humanDuration(61_000), '1 min 1 s');
    assert.equal(humanDuration(2 * 86_400_000 + 3 * 3_600_000 + 59_000), '2 d 3 h');
    assert.equal(humanDuration(86_400_000 + 5 * 60_000), '1 d');
    assert.equal(humanDuration(-90_000), '−1 min 30 s');
  });
});

describe('record-deployment defaults', () => {
  it('delivery id: one value per run attempt, job and environment', () => {
    assert.equal(defaultDeliveryId(RUNNER_ENV, 'staging'), '4242-2-deploy-staging');
    assert.equal(defaultDeliveryId(RUNNER_ENV, 'staging'), defaultDeliveryId(RUNNER_ENV, 'staging'));
    assert.notEqual(defaultDeliveryId({ ...RUNNER_ENV, GITHUB_RUN_ATTEMPT: '3' }, 'staging'), defaultDeliveryId(RUNNER_ENV, 'staging'));
    const long = defaultDeliveryId({ ...RUNNER_ENV, GITHUB_JOB: 'j'.repeat(100) }, 'e'.repeat(100));
    assert.ok(long.length <= 200);
    assert.match(long, /^4242-2-[0-9a-f]{64}$/);
    assert.throws(() => defaultDeliveryId({}, 'x'), /delivery-id" is required outside/);
  });

  it('run url: the run attempt’s page', () => {
    assert.equal(defaultRunUrl(RUNNER_ENV), 'https://github.com/octo-org/octo-repo/actions/runs/4242/attempts/2');
    assert.equal(defaultRunUrl({}), undefined);
  });
});
