// The HTTPS endpoint every component command serves on its secure port, as the real scheduler,
// controller manager and node agent do: /healthz, /livez and /readyz answer 200 "ok" when every
// check passes and 500 naming the failing checks otherwise (each check also at /healthz/<name>,
// `?verbose` lists them all, `?exclude=<name>` leaves one out), /metrics answers the component's
// registries in the Prometheus text format, anything else 404. Port 0 serves nothing, as the
// components' --secure-port 0 means. The certificate is the given pair, or a self-signed one: kept
// in the certificate directory as <pairName>.crt and <pairName>.key when there is one (and reused
// on later starts), in memory otherwise.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AggregatorRegistry } from 'prom-client';
import { generate } from 'selfsigned';
import type { Clock } from '../actors/api/env.ts';
import { exposition, type Registry } from '../actors/api/metrics.ts';
import { certificateNames, NO_COMMON_NAME } from '../actors/apiserver/https.ts';
import type { Guard, GuardedRequest } from '../actors/nodeagent/server-auth.ts';
import { wallClock } from './clock.ts';

/** Named checks; a check passes when it returns true (false or a throw fails it). */
export type HealthChecks = Record<string, () => boolean>;

export interface ComponentServerOptions {
  /** `--bind-address`: blank, 0.0.0.0 or :: for every interface. */
  bindAddress: string;
  /** `--secure-port`; 0 serves nothing. */
  port: number;
  /** `--cert-dir`: where a self-signed pair is kept; blank or absent keeps it in memory. */
  certDir?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** The self-signed pair's file name and common name: `scheduler`, `controller-manager`, `nodeagent`. */
  pairName?: string;
  /** The registries /metrics shows, read at each scrape (a replica's term may have changed). */
  registries: () => Registry[];
  /** The checks of each endpoint, after `ping` (always there and always passing). */
  checks?: { healthz?: HealthChecks; livez?: HealthChecks; readyz?: HealthChecks };
  /** Plain HTTP instead of HTTPS (the node agent's --healthz-port). */
  insecure?: boolean;
  /** The certificate's validity starts at this clock's now (the wall clock by default). */
  clock?: Clock;
  /** Who may ask (the node agent's authentication and authorization); everyone without it. */
  guard?: Guard;
  /** PEM of the CA whose client certificates name users to the guard; no certificate is asked for without it. */
  clientCa?: string;
}

export interface ComponentServer {
  /** https://host:port (a wildcard bind address shows as 127.0.0.1). */
  url: string;
  port: number;
  /** The certificate served (PEM), for clients to trust; undefined over plain HTTP. */
  cert: string | undefined;
  close(): Promise<void>;
}

const ENDPOINTS = ['healthz', 'livez', 'readyz'] as const;
type Endpoint = (typeof ENDPOINTS)[number];

/** Serves as the options say; undefined when the port is 0 (no HTTPS). */
export async function startComponentServer(o: ComponentServerOptions): Promise<ComponentServer | undefined> {
  if (o.port === 0) return undefined;
  return listenComponentServer(o);
}

/** Serves on `o.port`, where 0 means a port the system picks (tests; the commands use startComponentServer). */
export async function listenComponentServer(o: ComponentServerOptions): Promise<ComponentServer> {
  if (!(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535)) throw new RangeError(`the secure port must be from 0 to 65535, got ${o.port}`);
  const handler = (req: IncomingMessage, res: ServerResponse) => void answer(o, req, res).catch((e) => send(res, 500, `internal server error: ${(e as Error).message}\n`));
  let server: Server;
  let cert: string | undefined;
  if (o.insecure) server = createHttpServer(handler);
  else {
    const pair = await servingPair(o);
    cert = pair.cert;
    const asked = o.clientCa ? { ca: o.clientCa, requestCert: true, rejectUnauthorized: false } : {};
    server = createHttpsServer({ cert: pair.cert, key: pair.key, ...asked }, handler);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new Error(`port ${o.port} on ${o.bindAddress || 'every interface'} is already in use: stop what holds it or pass another --secure-port (0 serves no HTTPS)`) : e));
    // A blank address listens as Node does by default: on every interface, IPv6 and IPv4 where it can.
    server.listen({ port: o.port, ...(o.bindAddress === '' ? {} : { host: o.bindAddress }) }, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = ['', '0.0.0.0', '::'].includes(o.bindAddress) ? '127.0.0.1' : o.bindAddress;
  return {
    url: `${o.insecure ? 'http' : 'https'}://${shown.includes(':') ? `[${shown}]` : shown}:${port}`,
    port, cert,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}

async function answer(o: ComponentServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://component');
  const head = req.method === 'HEAD';
  if (o.guard) {
    const refused = await o.guard({ method: req.method ?? 'GET', path: url.pathname, authorization: req.headers.authorization, ...clientCertOf(req, o.clientCa) });
    if (refused) return send(res, refused.status, refused.body, undefined, head);
  }
  if (url.pathname === '/metrics') {
    const { contentType, body } = await metricsText(o.registries());
    return send(res, 200, body, contentType, head);
  }
  const [, endpoint, name, ...rest] = url.pathname.split('/');
  if (!ENDPOINTS.includes(endpoint as Endpoint) || rest.length > 0) return send(res, 404, '404 page not found\n', undefined, head);
  const checks: HealthChecks = { ping: () => true, ...o.checks?.[endpoint as Endpoint] };
  if (name !== undefined && name !== '') {
    const check = checks[name];
    if (!check) return send(res, 404, '404 page not found\n', undefined, head);
    return passes(check) ? send(res, 200, 'ok', undefined, head) : send(res, 500, `internal server error: ${name} check failed\n`, undefined, head);
  }
  const excluded = new Set(url.searchParams.getAll('exclude'));
  let lines = '';
  let failed = false;
  for (const [check, fn] of Object.entries(checks)) {
    if (excluded.has(check)) continue;
    // The reason stays in the component's log: this endpoint is open to anyone who can reach it.
    if (passes(fn)) lines += `[+]${check} ok\n`;
    else {
      lines += `[-]${check} failed: reason withheld\n`;
      failed = true;
    }
  }
  if (failed) return send(res, 500, `${lines}${endpoint} check failed\n`, undefined, head);
  return send(res, 200, url.searchParams.has('verbose') ? `${lines}${endpoint} check passed\n` : 'ok', undefined, head);
}

function passes(check: () => boolean): boolean {
  try {
    return check() === true;
  } catch {
    return false;
  }
}

function send(res: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8', head = false): void {
  if (res.headersSent) return void res.end();
  res.statusCode = status;
  res.setHeader('content-type', contentType);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('cache-control', 'no-cache, private');
  res.end(head ? undefined : body);
}

/**
 * The registries' exposition. Registries naming the same metric (two components in one process,
 * such as `orchsim serve`) are aggregated: each series summed over them, as one registry holding
 * both components' metrics would count them.
 */
async function metricsText(registries: Registry[]): Promise<{ contentType: string; body: string }> {
  const names = new Set<string>();
  let shared = false;
  for (const r of registries)
    for (const m of r.getMetricsAsArray()) {
      if (names.has(m.name)) shared = true;
      names.add(m.name);
    }
  if (!shared) return exposition(...registries);
  const merged = AggregatorRegistry.aggregate(await Promise.all(registries.map((r) => r.getMetricsAsJSON())));
  return { contentType: merged.contentType, body: await merged.metrics() };
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** The given pair, the one kept in the certificate directory, or a new self-signed one. */
async function servingPair(o: ComponentServerOptions): Promise<{ cert: string; key: string }> {
  if (o.tlsCertFile || o.tlsPrivateKeyFile) {
    if (!o.tlsCertFile || !o.tlsPrivateKeyFile) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
    return { cert: readFile(o.tlsCertFile, '--tls-cert-file'), key: readFile(o.tlsPrivateKeyFile, '--tls-private-key-file') };
  }
  const pairName = o.pairName ?? 'component';
  const files = o.certDir ? { cert: join(o.certDir, `${pairName}.crt`), key: join(o.certDir, `${pairName}.key`) } : undefined;
  if (files && existsSync(files.cert) && existsSync(files.key)) return { cert: readFile(files.cert, '--cert-dir'), key: readFile(files.key, '--cert-dir') };
  const now = (o.clock ?? wallClock()).now();
  const names = [...new Set(['localhost', hostname()])];
  const ips = [...new Set(['127.0.0.1', '::1', ...(['', '0.0.0.0', '::'].includes(o.bindAddress) ? [] : [o.bindAddress])])];
  const pems = await generate([{ name: 'commonName', value: `orchsim-${pairName}` }, { name: 'organizationName', value: 'orchsim' }], {
    keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate: new Date(now - 60_000), notAfterDate: new Date(now + YEAR_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [
        ...names.map((value) => ({ type: 2 as const, value })),
        ...ips.map((ip) => ({ type: 7 as const, ip }) as never),
      ] },
    ],
  });
  if (files) {
    try {
      mkdirSync(o.certDir!, { recursive: true, mode: 0o700 });
      writeFileSync(files.key, pems.private, { mode: 0o600 });
      writeFileSync(files.cert, pems.cert, { mode: 0o644 });
    } catch (e) {
      throw new Error(`cannot write the serving certificate to --cert-dir ${o.certDir}: ${(e as Error).message}; pass a writable --cert-dir, or --tls-cert-file and --tls-private-key-file`);
    }
  }
  return { cert: pems.cert, key: pems.private };
}

/** The client certificate a request's connection presented, when a CA was asked for. */
function clientCertOf(req: IncomingMessage, ca: string | undefined): Pick<GuardedRequest, 'clientCert'> {
  if (!ca) return {};
  const socket = req.socket as TLSSocket;
  const peer = socket.getPeerCertificate();
  if (!peer || Object.keys(peer).length === 0) return {};
  if (!socket.authorized) return { clientCert: { error: String(socket.authorizationError) } };
  return { clientCert: certificateNames(peer) ?? { error: NO_COMMON_NAME } };
}

function readFile(path: string, option: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${path} (${option}): ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}
