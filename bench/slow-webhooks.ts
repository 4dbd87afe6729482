/**
 * An anonymous sender holding many large `/webhook` uploads open against the real backend
 * process: each connection announces a 10 MB body with a well-formed (wrong) signature, sends all
 * of it but the last bytes as fast as the backend reads, and then holds the connection. Meanwhile
 * `/token` is called once a second. What is measured: the backend's resident memory before, at
 * its peak during the attack and after the connections closed, and whether `/token` kept
 * answering. Used by the fault suite (a short form) and by `npm run bench` (figures).
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO, REPO_ID } from '../test/support/broker.js';
import { FakeGitHub } from '../test/support/fake-github.js';
import { TestIssuer } from '../test/support/oidc-issuer.js';
import { residentBytes, startBackendProcess } from './http-load.js';

export interface SlowWebhookOptions {
  readonly connections: number;
  readonly bodyBytes: number;
  /** How long the uploads are held open. */
  readonly holdSeconds: number;
  readonly viaTsx?: boolean;
}

export interface SlowWebhookResult {
  readonly rssBeforeBytes: number;
  readonly rssPeakBytes: number;
  readonly rssAfterBytes: number;
  /** `/token` calls made during the attack, and how many were answered 200. */
  readonly tokenCalls: number;
  readonly tokenOk: number;
  readonly tokenMaxMs: number;
  readonly tokenMedianMs: number;
  /** Body bytes the senders got written into their sockets (the backend read them, or the kernel holds them). */
  readonly bytesSent: number;
}

/** One held upload: writes until only `reserve` bytes are left, then holds. */
function holdUpload(port: number, bodyBytes: number, id: number, counters: { sent: number }): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.setNoDelay(true);
  const head =
    `POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bodyBytes}\r\n` +
    `X-GitHub-Event: push\r\nX-GitHub-Delivery: slow-${id}\r\nX-Hub-Signature-256: sha256=${'0'.repeat(64)}\r\n\r\n`;
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let left = bodyBytes - 1;
  const pump = (): void => {
    while (left > 0 && !socket.destroyed) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      counters.sent += piece.length;
      if (!socket.write(piece)) {
        socket.once('drain', pump);
        return;
      }
    }
  };
  socket.once('connect', () => {
    socket.write(head);
    pump();
  });
  return socket;
}

export async function slowWebhookAttack(options: SlowWebhookOptions): Promise<SlowWebhookResult> {
  const issuer = await TestIssuer.start();
  const github = await FakeGitHub.start();
  github.addInstallation(INSTALLATION_ID, 'octo-org');
  github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
  const server = await startBackendProcess(
    {
      OIDC_ISSUER: issuer.url,
      FORGE_API_BASE: github.apiBase,
      FORGE_APP_ID: github.appId,
      FORGE_APP_PRIVATE_KEY: github.privateKeyPem,
      FORGE_WEBHOOK_SECRET: 'slow-webhook-test-secret',
    },
    options.viaTsx ? { viaTsx: true } : {},
  );
  const sockets: Socket[] = [];
  try {
    const body = JSON.stringify({ oidcToken: await issuer.mint({ aud: BROKER_AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600 }), owner: 'octo-org', repo: 'octo-repo' });
    const token = async (): Promise<{ ok: boolean; ms: number }> => {
      const started = performance.now();
      try {
        const res = await fetch(`${server.url}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        return { ok: res.status === 200, ms: performance.now() - started };
      } catch {
        return { ok: false, ms: performance.now() - started };
      }
    };
    // Warm up: the key set, the installation cache and the JIT, so "before" is the steady state.
    for (let i = 0; i < 5; i++) await token();
    await sleep(500);
    const rss = () => residentBytes(server.pid) ?? 0;
    const before = rss();

    const port = Number(new URL(server.url).port);
    const counters = { sent: 0 };
    for (let i = 0; i < options.connections; i++) sockets.push(holdUpload(port, options.bodyBytes, i, counters));
    let peak = before;
    let calls = 0;
    let ok = 0;
    const latencies: number[] = [];
    const until = Date.now() + options.holdSeconds * 1000;
    while (Date.now() < until) {
      peak = Math.max(peak, rss());
      const answer = await token();
      calls++;
      if (answer.ok) ok++;
      latencies.push(answer.ms);
      peak = Math.max(peak, rss());
      await sleep(200);
    }
    for (const socket of sockets) socket.destroy();
    // Settled: the closed connections' buffers are garbage now, and some traffic lets GC run.
    for (let i = 0; i < 20; i++) {
      await token();
      await sleep(150);
    }
    return { rssBeforeBytes: before, rssPeakBytes: peak, rssAfterBytes: rss(), tokenCalls: calls, tokenOk: ok, tokenMaxMs: Math.max(...latencies), tokenMedianMs: latencies.sort((a, b) => a - b)[Math.floor(latencies.length / 2)] ?? 0, bytesSent: counters.sent };
  } finally {
    for (const socket of sockets) socket.destroy();
    await server.stop();
    await Promise.all([github.close(), issuer.close()]);
  }
}
