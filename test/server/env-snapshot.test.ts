import assert from 'node:assert/strict';
import { environmentSnapshot } from '../../server/env-snapshot.js';

describe('environment snapshot (settings read from a copy of process.env)', () => {
  const NAME = 'GATEHOUSE_ENV_SNAPSHOT_TEST';
  afterEach(() => delete process.env[NAME]);

  it('serves the same copy within the refresh interval and a fresh one after it', () => {
    let now = 1_000_000;
    const env = environmentSnapshot(1000, () => now);
    process.env[NAME] = 'first';
    const first = env();
    assert.equal(first[NAME], 'first');

    process.env[NAME] = 'second';
    now += 999;
    assert.equal(env(), first, 'the same copy within the interval');
    assert.equal(env()[NAME], 'first');

    now += 1;
    const next = env();
    assert.notEqual(next, first);
    assert.equal(next[NAME], 'second', 'a changed variable applies once the interval is over');

    delete process.env[NAME];
    now += 1000;
    assert.equal(env()[NAME], undefined, 'a removed variable is gone too');
  });

  it('is a copy: writing process.env after it is taken does not change it', () => {
    const env = environmentSnapshot(1000, () => 0);
    const copy = env();
    process.env[NAME] = 'late';
    assert.equal(copy[NAME], undefined);
    assert.notEqual(copy, process.env);
  });
});
