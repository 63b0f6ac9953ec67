// HTTPS in front of the API server: bodies read with a size limit, responses written as the
// handlers return them. Nothing here knows about resources. For the graceful shutdown the
// listener can stop accepting connections while open ones finish (each answer then carrying
// Connection: close, as Go's Server.Shutdown disables keep-alives), and tell when no response
// is being written any more.
import { createServer, type Server } from 'node:https';
import type { DetailedPeerCertificate, PeerCertificate, SecureContext, TLSSocket } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { pickContext, type SniContext } from './sni.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tooLarge } from '../api/status.ts';
import { isImpersonationHeader } from './auth/impersonation.ts';
import { statusResponse, type ApiResponse } from './handlers/response.ts';
import { REPEATED_HEADER_SEPARATOR, type ApiRequest, type Arrival, type CertificateSigner, type ClientCertificate } from './request.ts';

export interface HttpsOptions {
  host: string;
  port: number;
  cert: string;
  key: string;
  maxRequestBodyBytes: number;
  /** PEM of the CA bundle (--client-ca-file) whose client certificates authenticate; none asked for without it or frontProxyCa. */
  clientCa?: string;
  /** PEM of the CA bundle (--requestheader-client-ca-file) that signs front proxies' certificates. */
  frontProxyCa?: string;
  /** Headers whose repeats are separate values (ApiServer.keepsApart); impersonation's alone without it. */
  keptApart?: (header: string) => boolean;
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

/** The CA certificates of a PEM bundle. */
function certificatesOf(bundle: string | undefined): X509Certificate[] {
  return (bundle?.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []).map((pem) => new X509Certificate(pem));
}

/** Whether one of the CAs signed a certificate of the chain the client presented (or Node completed). */
function signedByAny(peer: DetailedPeerCertificate, cas: readonly X509Certificate[]): boolean {
  if (!cas.length) return false;
  const seen = new Set<string>();
  for (let c: DetailedPeerCertificate | undefined = peer; c && !seen.has(c.fingerprint256); c = c.issuerCertificate) {
    seen.add(c.fingerprint256);
    const x = new X509Certificate(c.raw);
    if (cas.some((ca) => x.checkIssued(ca) && x.verify(ca.publicKey))) return true;
  }
  return false;
}

export const NO_COMMON_NAME = 'x509: the certificate names no CommonName (user)';

/** Who a certificate names: its CommonName the user, its Organizations the groups; undefined without a CommonName. */
export function certificateNames(peer: PeerCertificate): { user: string; groups: string[] } | undefined {
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const [user] = list(peer.subject?.CN);
  return user ? { user, groups: list(peer.subject?.O) } : undefined;
}

interface TrustedCas {
  client: X509Certificate[];
  frontProxy: X509Certificate[];
}

/**
 * The connection's client certificate: its CommonName and Organizations, and which of the
 * server's CAs signed it, or why it is not trusted; none presented, undefined. Read once per
 * connection.
 */
function clientCertOf(socket: TLSSocket, cas: TrustedCas, known: WeakMap<TLSSocket, ClientCertificate | undefined>): ClientCertificate | undefined {
  if (known.has(socket)) return known.get(socket);
  const peer = socket.getPeerCertificate(true);
  let cert: ClientCertificate | undefined;
  if (!peer || Object.keys(peer).length === 0) cert = undefined;
  else if (!socket.authorized) cert = { error: `x509: certificate signed by unknown authority (${String(socket.authorizationError)})` };
  else {
    const named = certificateNames(peer);
    const signers: CertificateSigner[] = [];
    if (signedByAny(peer, cas.client)) signers.push('client');
    if (signedByAny(peer, cas.frontProxy)) signers.push('front-proxy');
    cert = named ? { ...named, signers } : { error: NO_COMMON_NAME };
  }
  known.set(socket, cert);
  return cert;
}

/**
 * The request's headers, one string each: repeats joined as Node does, except those whose repeats
 * are separate values (impersonation's, a front proxy's groups), joined by REPEATED_HEADER_SEPARATOR.
 */
function headersOf(req: IncomingMessage, keptApart: (header: string) => boolean): Record<string, string | undefined> {
  const h: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) h[k] = Array.isArray(v) ? v.join(', ') : v;
  for (const k in h) if (keptApart(k)) h[k] = req.headersDistinct[k]?.join(REPEATED_HEADER_SEPARATOR);
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
  const cas: TrustedCas = { client: certificatesOf(o.clientCa), frontProxy: certificatesOf(o.frontProxyCa) };
  const bundle = [o.clientCa, o.frontProxyCa].filter((p) => p !== undefined).join('\n');
  const tls = bundle ? { ca: bundle, requestCert: true, rejectUnauthorized: false } : {};
  const certs = new WeakMap<TLSSocket, ClientCertificate | undefined>();
  const keptApart = o.keptApart ?? isImpersonationHeader;
  const versions = { ...(o.minVersion ? { minVersion: o.minVersion } : {}), ...(o.ciphers ? { ciphers: o.ciphers } : {}) };
  const served = o.sni;
  const sni = served?.length ? { SNICallback: (name: string, done: (e: Error | null, c?: SecureContext) => void) => done(null, pickContext(served, name)) } : {};
  const server: Server = createServer({ cert: o.cert, key: o.key, ...tls, ...versions, ...sni }, async (req, res) => {
    open++;
    res.once('close', finished);
    const clientCert = bundle ? clientCertOf(req.socket as TLSSocket, cas, certs) : undefined;
    const head = { method: req.method ?? 'GET', url: req.url ?? '/', headers: headersOf(req, keptApart), ...(clientCert ? { clientCert } : {}) };
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
