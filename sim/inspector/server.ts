// The inspector's HTTP server: its JSON API on 127.0.0.1 (a port of the user's or one the system
// picks), reachable only with the token printed at start. A request carries the token as
// `Authorization: Bearer <token>`, as `?token=<token>` (the printed address), or in the cookie that
// address sets, so a browser keeps it. Requests naming another host are refused, so a web page
// elsewhere cannot reach the inspector through a name that resolves to 127.0.0.1. Errors are JSON
// carrying a message; nothing a request does can stop the run.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InspectError, type Inspector } from './query.ts';

const COOKIE = 'orchsim-inspect';
const API = '/inspect/api/';

export interface InspectorServer {
  /** The address to open, token included. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** Serves `inspector` on 127.0.0.1:`port` (0: any free port). */
export async function serveInspector(inspector: Inspector, port = 0): Promise<InspectorServer> {
  const token = randomBytes(24).toString('base64url');
  let bound = port;
  const server = createServer((req, res) => {
    try {
      handle(inspector, token, bound, req, res);
    } catch (e) {
      const status = e instanceof InspectError ? e.status : 500;
      send(res, status, { message: e instanceof Error ? e.message : String(e) });
    }
  });
  await listen(server, port);
  bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}${API}summary?token=${token}`,
    port: bound,
    token,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new Error(`the inspector cannot listen on 127.0.0.1:${port} (${e.code ?? e.message}); choose another --ui-port`)));
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

function handle(inspector: Inspector, token: string, port: number, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const host = req.headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 403, { message: `the inspector answers requests for 127.0.0.1:${port} only, not ${JSON.stringify(host)}` });
  const given = url.searchParams.get('token') ?? bearer(req) ?? cookie(req);
  if (given === undefined || !same(given, token)) return send(res, 401, { message: 'give the token printed at start: open the printed address, or send Authorization: Bearer <token>' });
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    res.setHeader('Set-Cookie', `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`);
  }
  if (req.method !== 'GET') return send(res, 405, { message: `${req.method} is not served here; the inspector's API is read with GET` }, { Allow: 'GET' });
  if (!url.pathname.startsWith(API)) return send(res, 404, { message: `nothing at ${url.pathname}; the API is under ${API} (summary, actors, actors/{id}, machines/{machine})` });
  const path = url.pathname.slice(API.length);
  if (path === 'summary') return send(res, 200, inspector.summary());
  if (path === 'actors') return send(res, 200, inspector.actors(url.searchParams));
  if (path.startsWith('actors/')) return send(res, 200, inspector.actor(decodeURIComponent(path.slice('actors/'.length))));
  if (path.startsWith('machines/')) return send(res, 200, inspector.machine(decodeURIComponent(path.slice('machines/'.length))));
  throw new InspectError(404, `nothing at ${url.pathname}; the API is ${API}summary, ${API}actors, ${API}actors/{id} and ${API}machines/{machine}`);
}

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice('Bearer '.length) : undefined;
}

function cookie(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, v] = part.trim().split('=');
    if (k === COOKIE && v !== undefined) return v;
  }
  return undefined;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}
