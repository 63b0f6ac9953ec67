// HTTPS in front of the API server: bodies read with a size limit, responses written as the
// handlers return them. Nothing here knows about resources. For the graceful shutdown the
// listener can stop accepting connections while open ones finish (each answer then carrying
// Connection: close, as Go's Server.Shutdown disables keep-alives), and tell when no response
// is being written any more.
import { createServer, type Server } from 'node:https';
import type { SecureContext, TLSSocket } from 'node:tls';
import { pickContext, type SniContext } from './sni.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tooLarge } from '../api/status.ts';
import { isImpersonationHeader, REPEATED_HEADER_SEPARATOR } from './auth/impersonation.ts';
import { statusResponse, type ApiResponse } from './handlers/response.ts';
import type { ApiRequest, Arrival, ClientCertificate } from './request.ts';

export interface HttpsOptions {
  host: string;
  port: number;
  cert: string;
  key: string;
  maxRequestBodyBytes: number;
  /** PEM of the CA bundle (--client-ca-file) whose client certificates authenticate; none asked for without it. */
  clientCa?: string;
  /** The lowest TLS version and the TLS 1.2 suites served (tls-versions.ts); Node's defaults without them. */
  minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  ciphers?: string;
  /** Certificates served by the name a client asks for (--tls-sni-cert-key, read by sniContexts); the default one otherwise. */
  sni?: readonly SniContext[];
  /**
   * Told of each request as it arrives, before its body is read: the server counts it in its
   * in-flight limits from then until its answer is written (the place is given back then).
   */
  arrive?: (req: Omit<ApiRequest, 'body'>) => Arrival;
}

export interface Listening {
  url: string;
  port: number;
  /** Stops accepting connections; requests on open ones are still answered, with Connection: close. */
  stopListening(): void;
  /** Resolves once no response is being written (at once when none is). */
  whenIdle(): Promise<void>;
  /** Drops every connection at once and releases the port. */
  close(): Promise<void>;
}

type Handler = (req: ApiRequest) => Promise<ApiResponse>;

function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      if (!over) chunks.push(c);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, r: ApiResponse, head: boolean, closing: boolean): void {
  res.statusCode = r.status;
  for (const [k, v] of Object.entries(r.headers)) res.setHeader(k, v);
  res.setHeader('cache-control', 'no-cache, private');
  if (closing) res.setHeader('connection', 'close');
  if (head) return void res.end();
  if (!r.stream) return void res.end(r.body);
  res.flushHeaders();
  r.stream({
    write: (chunk) => !res.destroyed && res.write(chunk),
    onDrain: (fn) => res.on('drain', fn),
    // A client gone before the stream began still ends it.
    onClose: (fn) => (res.destroyed ? queueMicrotask(fn) : void res.once('close', fn)),
    end: () => res.end(),
  });
}

/** The connection's client certificate: its CommonName and Organizations when the CA signed it, else why not; none presented, undefined. */
function clientCertOf(socket: TLSSocket): ClientCertificate | undefined {
  const peer = socket.getPeerCertificate();
  if (!peer || Object.keys(peer).length === 0) return undefined;
  if (!socket.authorized) return { error: `x509: certificate signed by unknown authority (${String(socket.authorizationError)})` };
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const [user] = list(peer.subject?.CN);
  if (!user) return { error: 'x509: the certificate names no CommonName (user)' };
  return { user, groups: list(peer.subject?.O) };
}

/** The request's headers, one string each: repeats joined as Node does, but impersonation's kept apart (impersonation.ts). */
function headersOf(req: IncomingMessage): Record<string, string | undefined> {
  const h: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) h[k] = Array.isArray(v) ? v.join(', ') : v;
  for (const k in h) if (isImpersonationHeader(k)) h[k] = req.headersDistinct[k]?.join(REPEATED_HEADER_SEPARATOR);
  return h;
}

export function serveHttps(handler: Handler, o: HttpsOptions): Promise<Listening> {
  let closing = false;
  /** Responses not yet finished, and who waits for there to be none. */
  let open = 0;
  let idleWaiters: (() => void)[] = [];
  const finished = () => {
    if (--open > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  };
  // With a client CA, the server asks each connection for a certificate and checks it against the
  // CA itself, so that a connection without one (a token, or anonymous) is still served.
  const tls = o.clientCa ? { ca: o.clientCa, requestCert: true, rejectUnauthorized: false } : {};
  const versions = { ...(o.minVersion ? { minVersion: o.minVersion } : {}), ...(o.ciphers ? { ciphers: o.ciphers } : {}) };
  const served = o.sni;
  const sni = served?.length ? { SNICallback: (name: string, done: (e: Error | null, c?: SecureContext) => void) => done(null, pickContext(served, name)) } : {};
  const server: Server = createServer({ cert: o.cert, key: o.key, ...tls, ...versions, ...sni }, async (req, res) => {
    open++;
    res.once('close', finished);
    const clientCert = o.clientCa ? clientCertOf(req.socket as TLSSocket) : undefined;
    const head = { method: req.method ?? 'GET', url: req.url ?? '/', headers: headersOf(req), ...(clientCert ? { clientCert } : {}) };
    const arrival = o.arrive?.(head);
    if (arrival) res.once('close', () => arrival.release());
    // Handled after this turn's other arrivals: the event loop reads every connection that is
    // ready before it runs what setImmediate deferred, so a burst of requests is counted whole
    // against the in-flight limits, as concurrent requests are in the real server, instead of each
    // being served before the next is even read (and the rest waiting unrefused).
    if (arrival) await new Promise<void>((next) => setImmediate(next));
    try {
      const body = await readBody(req, o.maxRequestBodyBytes);
      if (body === undefined) return send(res, statusResponse(tooLarge(o.maxRequestBodyBytes).status), false, closing);
      const response = await handler({ ...head, body, ...(arrival ? { arrival } : {}) });
      send(res, response, req.method === 'HEAD', closing);
    } catch (e) {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end(String(e));
      }
    }
  });
  server.keepAliveTimeout = 65_000;
  let closed = false;
  server.once('close', () => (closed = true));
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new Error(`port ${o.port} on ${o.host} is already in use: stop what holds it or pass another --secure-port`) : e));
    server.listen(o.port, o.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = o.host === '0.0.0.0' || o.host === '::' || o.host === '' ? '127.0.0.1' : o.host;
      resolve({
        url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
        port,
        stopListening: () => {
          if (closing) return;
          closing = true;
          // Node closes the idle keep-alive connections here too; busy ones close after their answer.
          server.close();
        },
        whenIdle: () => (open === 0 ? Promise.resolve() : new Promise((done) => idleWaiters.push(done))),
        close: () => new Promise((done) => {
          closing = true;
          // After stopListening the server may have closed already, once its last connection went.
          if (closed) return done();
          server.once('close', () => done());
          server.closeAllConnections();
          if (server.listening) server.close();
        }),
      });
    });
  });
}
