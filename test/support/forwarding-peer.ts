import { listen, readBody, type Listening } from './servers.js';

/** A request held at the peer: `arrived` settles when it comes, `release` lets it through. */
export interface Held {
  readonly arrived: Promise<void>;
  release(): void;
}

export interface ForwardingPeer extends Listening {
  /** Every answer body returned, in order (as rewritten). */
  readonly answers: string[];
  /** Holds the next request that comes (before it is forwarded) until released. */
  hold(): Held;
}

/**
 * A loopback peer in front of `target` (the origin of a broker, of GitHub's API): each request is forwarded as it
 * came and the answer returned, its body through `rewrite` when given (a broker that answers
 * differently). `hold()` keeps the next request back until the test releases it, to put another
 * process's work between its arrival and its answer.
 */
export async function forwardingPeer(target: string, rewrite: (body: string) => string = (body) => body): Promise<ForwardingPeer> {
  const holds: { arrive: () => void; released: Promise<void> }[] = [];
  const answers: string[] = [];
  const listening = await listen((req, res) => {
    const held = holds.shift();
    void (async () => {
      const body = await readBody(req);
      held?.arrive();
      await held?.released;
      const headers = Object.fromEntries(
        Object.entries(req.headers).flatMap(([name, value]) => (['host', 'content-length', 'connection'].includes(name) || value === undefined ? [] : [[name, String(value)]])),
      );
      const answer = await fetch(new URL(req.url ?? '/', target), { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) });
      const text = rewrite(await answer.text());
      answers.push(text);
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
    })().catch(() => res.destroy());
  });
  return {
    ...listening,
    answers,
    hold: () => {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ arrive, released });
      return { arrived, release };
    },
  };
}
