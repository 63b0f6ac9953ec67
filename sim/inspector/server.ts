// The inspector's HTTP server: its page and JSON API on 127.0.0.1 (a port of the user's or one
// the system picks), reachable only with the token printed at start. A request carries the token
// as `Authorization: Bearer <token>`, as `?token=<token>` (the printed address, which sets a cookie
// and sends the browser on to the page without it), or in that cookie. The page is the bundle in
// page/dist (built at install, or here when missing or older than its sources); its Content
// Security Policy lets it reach nothing but this server. Live updates go over a WebSocket at
// /inspect/ws (live.ts). Who may come in is access.ts's to say. Errors are JSON carrying a
// message; nothing a request does can stop the run.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { buildPage, DIST_DIR, pageIsBuilt } from './page/build.ts';
import { controlNode, listNodes, type NodeControls } from './controls.ts';
import { InspectError, type Inspector } from './query.ts';
import type { TimeControl } from './timeline.ts';
import { LiveUpdates } from './live.ts';
import type { ActorSystem } from '../../actors/system/actor-system.ts';
import { COOKIE, listenLoopback, newToken, refusal } from './access.ts';
import type { Sequences } from './sequence.ts';

const API = '/inspect/api/';
const MAX_BODY_BYTES = 4_096;
const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page's files, by path, read once. */
function pageFiles(): Map<string, { type: string; body: Buffer }> {
  return new Map([
    ['/', { type: 'text/html; charset=utf-8', body: readFileSync(join(DIST_DIR, 'index.html')) }],
    ['/inspect/app.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(join(DIST_DIR, 'app.js')) }],
    ['/inspect/app.css', { type: 'text/css; charset=utf-8', body: readFileSync(join(DIST_DIR, 'app.css')) }],
  ]);
}

export interface InspectorServer {
  /** The address to open, token included. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** What the server answers from. */
export interface Served {
  readonly inspector: Inspector;
  /** The actor system shown now. */
  readonly system: () => ActorSystem;
  readonly sequences: Sequences;
  /** The simulated nodes' controls, once they run (serve). */
  readonly controls: () => NodeControls | undefined;
  readonly time: TimeControl;
}

/** Serves the inspector on 127.0.0.1:`port` (0: any free port). */
export async function serveInspector(served: Served, port: number): Promise<InspectorServer> {
  const { inspector, system, time } = served;
  const token = newToken();
  if (!pageIsBuilt()) await buildPage();
  const page = pageFiles();
  let bound = port;
  const server = createServer((req, res) => {
    const fail = (e: unknown) => {
      const status = e instanceof InspectError ? e.status : 500;
      if (!res.headersSent) send(res, status, { message: e instanceof Error ? e.message : String(e) });
    };
    try {
      void handle(served, { page, token, port: bound }, req, res)?.catch(fail);
    } catch (e) {
      fail(e);
    }
  });
  const live = new LiveUpdates(inspector, system, time);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refused = url.pathname === '/inspect/ws' ? refusal(req, url, token, bound, true) : 404;
    if (refused) return void socket.end(`HTTP/1.1 ${refused} ${STATUS_TEXT[refused]}\r\nConnection: close\r\n\r\n`);
    live.upgrade(req, socket, head);
  });
  bound = await listenLoopback(server, port, 'the inspector').catch((e: Error) => Promise.reject(new Error(`${e.message}; choose another --ui-port`)));
  return {
    url: `http://127.0.0.1:${bound}/?token=${token}`,
    port: bound,
    token,
    close: () => new Promise((resolve) => {
      live.close();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

const STATUS_TEXT = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' } as const;

interface Site {
  page: ReturnType<typeof pageFiles>;
  token: string;
  port: number;
}

function handle({ inspector, system, sequences, controls, time }: Served, { page, token, port }: Site, req: IncomingMessage, res: ServerResponse): Promise<void> | void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const refused = refusal(req, url, token, port);
  if (refused === 403) return send(res, 403, { message: `the inspector answers requests for 127.0.0.1:${port} only, not ${JSON.stringify(req.headers.host ?? '')}` });
  if (refused === 401) return send(res, 401, { message: 'give the token printed at start: open the printed address, or send Authorization: Bearer <token>' });
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    res.setHeader('Set-Cookie', `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`);
    // The page's address without the token, so it stays out of the browser's history.
    if (url.pathname === '/' && req.method === 'GET') return void res.writeHead(303, { Location: `/${url.search}` }).end();
  }
  const path = url.pathname.startsWith(API) ? url.pathname.slice(API.length) : undefined;
  if (path?.startsWith('nodes/')) {
    if (req.method !== 'POST') return send(res, 405, { message: `a node's agent is stopped or started with POST {"action": "stop" | "start"}` }, { Allow: 'POST' });
    return jsonBody(req).then(async (body) => send(res, 200, await controlNode(controls(), decoded(path.slice('nodes/'.length)), body)));
  }
  if (path === 'time' && req.method === 'POST') return jsonBody(req).then(async (body) => send(res, 200, await time.act(body)));
  if (path === 'sequence' && req.method === 'PUT') {
    return jsonBody(req).then((body) => {
      sequences.choose(system(), body);
      send(res, 200, sequences.query(system(), new URLSearchParams()));
    });
  }
  if (req.method !== 'GET') return send(res, 405, { message: `${req.method} is not served here; the inspector's API is read with GET (POST: time, nodes/{name}; PUT: sequence)` }, { Allow: 'GET' });
  const file = page.get(url.pathname);
  if (file) {
    res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length, 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' });
    return void res.end(file.body);
  }
  if (path === undefined) return send(res, 404, { message: `nothing at ${url.pathname}; the page is at /, the API under ${API} (summary, actors, actors/{id}, machines/{machine}, sequence, nodes, time)` });
  if (path === 'nodes') return send(res, 200, listNodes(controls()));
  if (path === 'sequence') return send(res, 200, sequences.query(system(), url.searchParams));
  if (path === 'time') return send(res, 200, time.status());
  if (path === 'summary') return send(res, 200, inspector.summary());
  if (path === 'actors') return send(res, 200, inspector.actors(url.searchParams));
  if (path.startsWith('actors/')) return send(res, 200, inspector.actor(decoded(path.slice('actors/'.length))));
  if (path.startsWith('machines/')) return send(res, 200, inspector.machine(decoded(path.slice('machines/'.length))));
  throw new InspectError(404, `nothing at ${url.pathname}; the API is ${API}summary, ${API}actors, ${API}actors/{id}, ${API}machines/{machine}, ${API}sequence, ${API}nodes and ${API}time`);
}

/** A path segment, percent-decoded; a malformed one is a 400. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new InspectError(400, `${JSON.stringify(segment)} is not a well-formed percent-encoded name`);
  }
}

/** A small JSON body; sent as application/json, which a page elsewhere cannot send without asking first. */
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (type !== 'application/json') throw new InspectError(415, `send the body as Content-Type: application/json, not ${JSON.stringify(type)}`);
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > MAX_BODY_BYTES) throw new InspectError(413, `the body is over ${MAX_BODY_BYTES} bytes`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InspectError(400, `the body is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}
