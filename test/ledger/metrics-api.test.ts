import assert from 'node:assert/strict';
import type { DeploymentRecord } from '../../server/store/types.js';
import { manualClock, startBackend, type Backend } from '../support/backend.js';
import { referenceMetricsBody } from '../support/figures-reference.js';
import { call } from '../support/http.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A returned history entry as the record it shows (what an outside checker has to work with). */
const asRecord = (d: Record<string, unknown>, repositoryId: string): DeploymentRecord => ({
  deploymentId: d.deployment_id as string,
  repositoryId,
  repository: d.repository as string,
  deliveryId: d.delivery_id as string,
  environment: d.environment as string,
  status: d.status as DeploymentRecord['status'],
  mode: d.mode as string,
  recordedAt: new Date(d.recorded_at as string),
  expireAt: new Date(8.64e15),
  ...(typeof d.committed_at === 'string' ? { committedAt: new Date(d.committed_at) } : {}),
});

describe('ledger: GET /v1/deployments/metrics', () => {
  let backend: Backend;
  let clock: ReturnType<typeof manualClock>;
  const start = Date.UTC(2026, 9, 1, 9, 0, 0);
  const token = (claims: Record<string, unknown> = {}) => backend.issuer.mint(claims, { nowMs: clock.now() });
  const metrics = async (query = '', claims: Record<string, unknown> = {}) =>
    call<Record<string, unknown>>(`${backend.url}/v1/deployments/metrics${query}`, { token: await token(claims) });

  before(async () => {
    clock = manualClock(start);
    backend = await startBackend({ clock });
    // About seven weeks of deployments to two environments, a few hours apart, with failures and a rollback.
    const plan: [string, string, number][] = [];
    for (let i = 0; i < 120; i++) {
      const environment = i % 3 === 0 ? 'staging' : 'production';
      const status = i % 11 === 4 ? 'failure' : i % 17 === 8 ? 'rolled-back' : i % 13 === 0 ? 'skipped' : 'success';
      plan.push([environment, status, (i % 5) * HOUR]);
    }
    for (const [i, [environment, status, lead]] of plan.entries()) {
      clock.advance(7 * HOUR + (i % 4) * 997);
      const committed = i % 6 === 5 ? {} : { committed_at: new Date(clock.now() - lead - 60_000).toISOString() };
      const res = await call(`${backend.url}/v1/deployments`, { token: await token(), json: { delivery_id: `m-${i}`, environment, status, ...committed } });
      assert.equal(res.status, 201, res.text);
    }
    clock.advance(3 * HOUR);
  });
  after(() => backend.close());

  /** Every record, read back through the history route (each environment holds fewer than 100). */
  const history = async (): Promise<DeploymentRecord[]> => {
    const records: DeploymentRecord[] = [];
    for (const environment of ['production', 'staging']) {
      const res = await call<{ deployments: Record<string, unknown>[] }>(`${backend.url}/v1/deployments?limit=100&environment=${environment}`, { token: await token() });
      assert.ok(res.body.deployments.length < 100);
      records.push(...res.body.deployments.map((d) => asRecord(d, '123456789')));
    }
    return records;
  };

  it('answers the figures of the last 30 days by default, equal to a computation from the returned records', async () => {
    const res = await metrics();
    assert.equal(res.status, 200, res.text);
    const records = await history();
    const expected = referenceMetricsBody(records, { repositoryId: '123456789', repository: 'octo-org/octo-repo', days: 30, now: new Date(clock.now()) });
    assert.deepEqual(res.body, expected);
    // The window holds records of both kinds, so the figures are not trivially empty.
    const body = res.body as ReturnType<typeof referenceMetricsBody>;
    assert.ok(body.deployments.failure > 0 && body.deployments.success > 0 && body.deployments.skipped > 0);
    assert.ok(body.recovery_time_ms && body.recovery_time_ms.count > 0);
    assert.ok(body.lead_time_ms && body.lead_time_ms.count > 0);
    assert.equal(body.window.to, new Date(clock.now()).toISOString());
    assert.equal(body.window.from, new Date(clock.now() - 30 * DAY).toISOString());
  });

  it('filters by environment and takes days from 1 to 365', async () => {
    const records = await history();
    for (const [query, environment, days] of [
      ['?environment=staging', 'staging', 30],
      ['?environment=production&days=7', 'production', 7],
      ['?days=1', undefined, 1],
      ['?days=365', undefined, 365],
    ] as const) {
      const res = await metrics(query);
      assert.equal(res.status, 200, res.text);
      const expected = referenceMetricsBody(records, { repositoryId: '123456789', repository: 'octo-org/octo-repo', days, now: new Date(clock.now()), ...(environment ? { environment } : {}) });
      assert.deepEqual(res.body, expected, query);
    }
  });

  it('an environment without records: zeros, and null for each rate and distribution', async () => {
    const res = await metrics('?environment=nowhere');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.deployments, { total: 0, success: 0, failure: 0, rolled_back: 0, skipped: 0 });
    assert.deepEqual(res.body.deployment_frequency, { per_day: 0, days_with_deployment: 0 });
    assert.deepEqual([res.body.change_failure_rate, res.body.recovery_time_ms, res.body.lead_time_ms], [null, null, null]);
    assert.equal(res.body.environment, 'nowhere');
  });

  it('reads only the caller’s repository, by id: a recycled name sees nothing, a renamed repository keeps its figures', async () => {
    const recycled = await metrics('', { repository_id: '999999' });
    assert.equal(recycled.status, 200);
    assert.equal((recycled.body.deployments as { total: number }).total, 0);
    const renamed = await metrics('', { repository: 'octo-org/renamed' });
    assert.equal(renamed.body.repository, 'octo-org/renamed');
    assert.deepEqual(renamed.body.deployments, (await metrics()).body.deployments);
  });

  for (const query of ['days=0', 'days=366', 'days=abc', 'days=-1', 'days=2.5', 'days=', 'days=1&days=2', 'environment=', 'environment=prod%00', 'repository=octo-org/other', 'limit=5']) {
    it(`refuses ?${query} with 422`, async () => {
      const res = await metrics(`?${query}`);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.error, 'validation_failed');
    });
  }

  it('needs the OIDC token like the history (401 without it, 405 for another method)', async () => {
    const res = await call(`${backend.url}/v1/deployments/metrics`);
    assert.equal(res.status, 401);
    const post = await call(`${backend.url}/v1/deployments/metrics`, { token: await token(), json: {} });
    assert.equal(post.status, 405);
  });
});
