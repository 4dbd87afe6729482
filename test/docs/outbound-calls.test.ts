import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as bounds from '../../server/http/call-bounds.js';
import type { CallBounds } from '../../server/http/outbound.js';
import { MONGO_BOUNDS } from '../../server/store/mongo-options.js';
import { DEFAULT_OPTIONS } from '../../server/sync/options.js';
import { ACTION_RETRY, SYNC_RETRY } from '../../server/http/retry.js';
import { REPO_ROOT } from '../support/processes.js';

/** docs/outbound-calls.md's table: call id → its connect and whole-exchange cells, and its attempts. */
function table(): Map<string, { connect: string; whole: string; attempts: string }> {
  const text = readFileSync(join(REPO_ROOT, 'docs', 'outbound-calls.md'), 'utf8');
  const rows = new Map<string, { connect: string; whole: string; attempts: string }>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const id = /^`([a-z-]+)`$/.exec(cells[1] ?? '')?.[1];
    if (id) rows.set(id, { connect: cells[3]!, whole: cells[4]!, attempts: cells[5]! });
  }
  return rows;
}

/** The first "N s" of a cell, in milliseconds. */
function ms(cell: string): number {
  const match = /(\d+(?:\.\d+)?) s\b/.exec(cell);
  assert.ok(match, `no duration in "${cell}"`);
  return Number(match[1]) * 1000;
}

const script = readFileSync(join(REPO_ROOT, 'actions', 'request-token', 'request-token.sh'), 'utf8');

describe('docs/outbound-calls.md: the table is what the code does', () => {
  const rows = table();
  const expected: Record<string, CallBounds> = {
    'key-set': bounds.KEY_SET_FETCH,
    platform: bounds.PLATFORM_CALL,
    'platform-commit': bounds.PLATFORM_COMMIT,
    chat: bounds.CHAT_POST,
    ...bounds.ACTION_CALLS,
    'readiness-probe': bounds.READINESS_PROBE,
    'sync-api': bounds.syncCall(DEFAULT_OPTIONS.timeoutMs),
    'sync-upload': bounds.syncCall(DEFAULT_OPTIONS.uploadTimeoutMs),
    mongodb: { connectMs: MONGO_BOUNDS.connectTimeoutMS, totalMs: MONGO_BOUNDS.socketTimeoutMS },
    'shell-oidc': {
      connectMs: Number(/oidc_reply=.*--max-time (\d+) --connect-timeout (\d+)/.exec(script)![2]) * 1000,
      totalMs: Number(/oidc_reply=.*--max-time (\d+) --connect-timeout (\d+)/.exec(script)![1]) * 1000,
    },
    'shell-broker': {
      connectMs: Number(/\(broker_timeout < (\d+) \?/.exec(script)![1]) * 1000,
      totalMs: Number(/broker_timeout="\$\{BROKER_TIMEOUT:-(\d+)\}"/.exec(script)![1]) * 1000,
    },
  };

  it('lists every bounded call, and nothing else', () => {
    assert.deepEqual([...rows.keys()].sort(), [...Object.keys(expected), 'releases-crawl'].sort());
  });

  for (const [id, bound] of Object.entries(expected)) {
    it(`${id}: connect ${bound.connectMs / 1000} s, whole exchange ${bound.totalMs / 1000} s`, () => {
      const row = rows.get(id)!;
      assert.equal(ms(row.connect), bound.connectMs);
      assert.equal(ms(row.whole), bound.totalMs);
    });
  }

  it('releases-crawl: the whole crawl', () => {
    assert.equal(ms(rows.get('releases-crawl')!.whole), bounds.RELEASES_CRAWL_MS);
  });

  it('mongodb: server selection as the table says', () => {
    assert.match(rows.get('mongodb')!.connect, new RegExp(`server selection ${MONGO_BOUNDS.serverSelectionTimeoutMS / 1000} s`));
  });

  it('attempts: the retry defaults of the sync and of record-deployment', () => {
    assert.match(rows.get('sync-api')!.attempts, new RegExp(`^${1 + DEFAULT_OPTIONS.retries} \\(\`--retries\` ${DEFAULT_OPTIONS.retries}; back-off from ${SYNC_RETRY.minDelayMs / 1000} s doubling to ${SYNC_RETRY.maxDelayMs / 1000} s`));
    assert.match(rows.get('sync-api')!.attempts, new RegExp(`waited for up to ${SYNC_RETRY.maxRetryAfterMs / 1000} s`));
    assert.match(rows.get('ledger-post')!.attempts, new RegExp(`^${1 + ACTION_RETRY.retries} \\(back-off from ${ACTION_RETRY.minDelayMs / 1000} s`));
  });
});
