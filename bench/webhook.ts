/**
 * `npm run bench`'s unauthenticated-memory run: 120 slow 10 MB `/webhook` uploads held open for
 * 10 s against the built backend (see slow-webhooks.ts). Target: resident memory grows by less
 * than 64 MB while they are held; `/token`, called meanwhile, keeps answering.
 */
import { emit } from './measure.js';
import { slowWebhookAttack } from './slow-webhooks.js';

const MB = 1024 * 1024;
const LIMIT = 64 * MB;

const r = await slowWebhookAttack({ connections: 120, bodyBytes: 10 * MB, holdSeconds: 10 });
const growth = r.rssPeakBytes - r.rssBeforeBytes;
emit('webhook', { connections: 120, body_bytes: 10 * MB, hold_s: 10, bytes_sent: r.bytesSent, token_calls: r.tokenCalls }, [
  { name: 'webhook.slow_uploads.rss_growth_bytes', value: growth, limit: LIMIT, limit_name: '64 MB', target: 'value < limit', met: growth < LIMIT },
  { name: 'webhook.slow_uploads.rss_after_bytes', value: r.rssAfterBytes - r.rssBeforeBytes, limit: LIMIT, limit_name: '64 MB (after the uploads closed; heap and buffers are back, the allocator keeps some pages)', target: 'reference' },
  { name: 'webhook.token_during.failed', value: r.tokenCalls - r.tokenOk, limit: r.tokenCalls, limit_name: '/token calls made during the attack', target: 'value = 0', met: r.tokenOk === r.tokenCalls },
  { name: 'webhook.token_during.max_ms', value: r.tokenMaxMs, limit: r.tokenMedianMs, limit_name: 'their median', target: 'reference' },
]);
