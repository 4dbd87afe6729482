import assert from 'node:assert/strict';
import { manualClock, startBackend, type Backend } from '../support/backend.js';
import { call } from '../support/http.js';

type Entry = { environment: string; latest: Record<string, unknown>; latest_success: Record<string, unknown> | null };

describe('ledger: GET /v1/environments', () => {
  let backend: Backend;
  let clock: ReturnType<typeof manualClock>;
  const token = (claims: Record<string, unknown> = {}) => backend.issuer.mint(claims, { nowMs: clock.now() });
  const post = async (delivery: string, environment: string, status: string, version: string) => {
    clock.advance(60_000);
    const res = await call<Record<string, unknown>>(`${backend.url}/v1/deployments`, { token: await token(), json: { delivery_id: delivery, environment, status, version } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  before(async () => {
    clock = manualClock(Date.UTC(2026, 10, 1));
    backend = await startBackend({ clock });
  });
  after(() => backend.close());

  it('lists what runs where: each environment’s latest record and latest success, newest first', async () => {
    const empty = await call<{ repository: string; environments: Entry[] }>(`${backend.url}/v1/environments`, { token: await token() });
    assert.deepEqual(empty.body, { repository: 'octo-org/octo-repo', environments: [] });

    await post('e1', 'production', 'success', '1.0.0');
    await post('e2', 'staging', 'success', '1.1.0');
    await post('e3', 'production', 'failure', '1.1.0');
    await post('e4', 'preview', 'skipped', 'pr-7');
    const res = await call<{ repository: string; environments: Entry[] }>(`${backend.url}/v1/environments`, { token: await token() });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.repository, 'octo-org/octo-repo');
    assert.deepEqual(
      res.body.environments.map((e) => [e.environment, e.latest.version, e.latest.status, e.latest_success?.version ?? null]),
      [
        ['preview', 'pr-7', 'skipped', null],
        ['production', '1.1.0', 'failure', '1.0.0'],
        ['staging', '1.1.0', 'success', '1.1.0'],
      ],
    );
    // Records as the history shows them.
    const history = await call<{ deployments: Record<string, unknown>[] }>(`${backend.url}/v1/deployments?environment=production`, { token: await token() });
    assert.deepEqual(res.body.environments[1]!.latest, history.body.deployments[0]);
    assert.deepEqual(res.body.environments[1]!.latest_success, history.body.deployments[1]);
  });

  it('shows only the caller’s repository, by id', async () => {
    const recycled = await call<{ repository: string; environments: Entry[] }>(`${backend.url}/v1/environments`, { token: await token({ repository_id: '424242' }) });
    assert.equal(recycled.status, 200);
    assert.deepEqual(recycled.body.environments, []);
  });

  it('refuses any query parameter with 422, and a missing token with 401', async () => {
    const res = await call(`${backend.url}/v1/environments?repository=octo-org/other`, { token: await token() });
    assert.equal(res.status, 422);
    assert.equal(res.body.error, 'validation_failed');
    assert.equal((await call(`${backend.url}/v1/environments`)).status, 401);
  });
});
