import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, readBody, type Listening } from './servers.js';

/**
 * A Slack-compatible incoming webhook on loopback: answers `200 ok` (Slack's plain-text
 * success), or an error status, or only after a delay. Records every message it receives.
 */
export class FakeChat {
  readonly messages: { text: string; blocks: unknown[] }[] = [];
  status = 200;
  delayMs = 0;
  /** Requests that reached the webhook, answered or not yet (to know one is in flight). */
  received = 0;

  private constructor(private readonly listening: Listening) {}

  static async start(): Promise<FakeChat> {
    let chat: FakeChat | undefined;
    const listening = await listen((req, res) => void chat!.handle(req, res));
    chat = new FakeChat(listening);
    return chat;
  }

  /** The webhook URL; the path plays the part of Slack's secret. */
  get webhookUrl(): string {
    return `${this.listening.url}/services/T000/B000/secret-part-of-the-url`;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.received++;
    const body = await readBody(req);
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    if (res.destroyed) return;
    if (this.status !== 200) {
      res.writeHead(this.status, { 'content-type': 'text/plain' }).end('invalid_payload');
      return;
    }
    this.messages.push(JSON.parse(body) as { text: string; blocks: unknown[] });
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  }
}
