import { CHAT_POST } from '../http/call-bounds.js';
import { boundedFetch, type CallBounds, type Fetch } from '../http/outbound.js';
import type { Logger } from '../logger.js';
import type { DeploymentRecord } from '../store/types.js';

/** Slack mrkdwn needs these three escaped; everything else is literal. */
const escapeMrkdwn = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A `<url|label>` link; the URL was validated as http(s), and `|`/`>` would end the link early. */
const mrkdwnLink = (url: string, label: string): string =>
  `<${new URL(url).href.replace(/\|/g, '%7C').replace(/>/g, '%3E')}|${escapeMrkdwn(label)}>`;

const STATUS_ICON: Record<DeploymentRecord['status'], string> = {
  success: ':white_check_mark:',
  failure: ':x:',
  skipped: ':fast_forward:',
  'rolled-back': ':rewind:',
};

/** The message of a Slack-compatible incoming webhook: a plain `text` fallback and `blocks`. */
export function chatMessage(record: DeploymentRecord): { text: string; blocks: unknown[] } {
  const version = record.version ? ` ${record.version}` : '';
  const text = `${record.repository}${version} → ${record.environment}: ${record.status}`;
  const fields = [
    ['Repository', record.repository],
    ['Environment', record.environment],
    ['Status', `${STATUS_ICON[record.status]} ${record.status}`],
    ['Version', record.version ?? '—'],
    ...(record.commit ? [['Commit', record.commit.slice(0, 12)]] : []),
    ...(record.actor ? [['Actor', record.actor]] : []),
  ].map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}*\n${escapeMrkdwn(v!)}` }));
  const links = [
    ...(record.url ? [mrkdwnLink(record.url, 'Deployment')] : []),
    ...(record.runUrl ? [mrkdwnLink(record.runUrl, 'Workflow run')] : []),
  ];
  return {
    text: escapeMrkdwn(text),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escapeMrkdwn(text)}*` }, fields },
      ...(links.length > 0 ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: links.join('  ·  ') }] }] : []),
    ],
  };
}

export interface ChatSink {
  /** Posts the record to the webhook. Resolves false on any failure; never throws, never waits past the timeout. */
  notify(record: DeploymentRecord, webhookUrl: string): Promise<boolean>;
}

export function createChatSink(deps: { transport?: Fetch; logger: Logger; bounds?: CallBounds }): ChatSink {
  // The answer is read whole (and small) inside the bound, so a webhook that stalls its body cannot hold the request.
  const post = boundedFetch(deps.bounds ?? CHAT_POST, { ...(deps.transport ? { transport: deps.transport } : {}), maxBytes: 64 * 1024 });
  return {
    async notify(record, webhookUrl) {
      try {
        const response = await post(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(chatMessage(record)),
          redirect: 'error',
        });
        if (response.ok) return true;
        deps.logger.warn({ sink: 'chat', status: response.status }, 'chat notification refused');
        return false;
      } catch (err) {
        // The webhook URL is a secret: log the failure's kind only.
        const kind = err instanceof Error ? err.name : 'Error';
        const code = (err as { cause?: { code?: unknown } })?.cause?.code;
        deps.logger.warn({ sink: 'chat', failure: kind, ...(typeof code === 'string' ? { code } : {}) }, 'chat notification failed');
        return false;
      }
    },
  };
}
