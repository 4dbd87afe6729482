import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, type Listening } from './servers.js';

export interface GitHttpServer extends Listening {
  /** The token of every request the server let through, in order. */
  readonly accepted: string[];
}

/** The token of a `Basic x-access-token:<token>` header, as git sends what a credential helper gave. */
function tokenOf(req: IncomingMessage): string | undefined {
  const match = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
  if (!match) return undefined;
  const [user, ...rest] = Buffer.from(match[1]!, 'base64').toString('utf8').split(':');
  return user === 'x-access-token' && rest.length > 0 ? rest.join(':') : undefined;
}

/**
 * Git's smart HTTP protocol on loopback: `git http-backend` (CGI) serving the bare repositories
 * under `root`, behind Basic authentication that accepts only a token `valid` says is valid now
 * for the path asked (as GitHub does). Without one it answers 401 with `WWW-Authenticate`, so git asks its
 * credential helpers; `REMOTE_USER` is set for an accepted token, which lets http-backend take pushes.
 */
export async function gitHttpServer(root: string, valid: (token: string, path: string) => Promise<boolean>): Promise<GitHttpServer> {
  const accepted: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const token = tokenOf(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!token || !(await valid(token, decodeURIComponent(url.pathname)))) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('Unauthorized');
      return;
    }
    accepted.push(token);
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: 'x-access-token',
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    // http-backend may answer (an error) without reading the whole request.
    cgi.stdin.on('error', () => {});
    req.pipe(cgi.stdin);
    // The CGI answer: header lines (`Status:` among them), a blank line, then the body.
    let head = Buffer.alloc(0);
    let started = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (started) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      started = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const at = line.indexOf(':');
        const name = line.slice(0, at).trim();
        const value = line.slice(at + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => res.end());
  };
  const listening = await listen((req, res) => void handle(req, res));
  return { ...listening, accepted };
}
