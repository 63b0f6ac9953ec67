// Who may reach the inspector's servers (its own, and the Stately relay): requests on 127.0.0.1
// for this very port, naming no other host (so a page elsewhere cannot come in through a name that
// resolves here), carrying the token drawn at start: as `?token=`, `Authorization: Bearer`, or the
// cookie the inspector's printed address sets. WebSocket upgrades must also come from a page of
// this server's own origin, if from a page at all.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const COOKIE = 'orchsim-inspect';

/** A token for one start of a server. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Why `req` is refused (403: another host or origin; 401: no token, or another), or undefined when it may come in. */
export function refusal(req: IncomingMessage, url: URL, token: string, port: number, checkOrigin = false): 401 | 403 | undefined {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!hosts.includes(req.headers.host ?? '')) return 403;
  const origin = req.headers.origin;
  if (checkOrigin && origin !== undefined && !hosts.some((h) => origin === `http://${h}`)) return 403;
  const given = url.searchParams.get('token') ?? bearer(req) ?? cookie(req);
  return given !== undefined && same(given, token) ? undefined : 401;
}

/** Listens on 127.0.0.1:`port` (0: a free port); resolves with the port bound, or rejects saying `what` could not listen and why. */
export function listenLoopback(server: Server, port: number, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new Error(`${what} cannot listen on 127.0.0.1:${port} (${e.code ?? e.message})`)));
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
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
