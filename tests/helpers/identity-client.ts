// HTTPS requests as one identity, the way a real client presents it: a bearer token, a client
// certificate (its own TLS connections: a certificate belongs to the connection), or nothing.
// Each client keeps its connections alive, so many requests share a few handshakes; a watch is
// answered as soon as its status line arrives, and its connection is dropped.
import { Agent, request } from 'node:https';
import type { KeyPair } from '../../actors/apiserver/certs.ts';

export interface Credential {
  token?: string;
  cert?: KeyPair;
  /** A raw Authorization header (a malformed one, say); overrides `token`. */
  authorization?: string;
}

export interface Answer {
  status: number;
  body: string;
  /** The body parsed, when it is JSON. */
  json?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface Call {
  method: string;
  path: string;
  /** Sent as JSON unless a string. */
  body?: unknown;
  contentType?: string;
  /** A watch: resolve on the status line, then drop the connection. */
  stream?: boolean;
  headers?: Record<string, string>;
}

/** How long one request may take before the test fails naming it (a hung request is a failure, never a wait). */
const REQUEST_TIMEOUT_MS = 30_000;

export class IdentityClient {
  readonly #agent: Agent;
  readonly #authorization: string | undefined;

  constructor(readonly url: string, serverCa: string, credential: Credential = {}, maxSockets = 4) {
    this.#agent = new Agent({ keepAlive: true, maxSockets, ca: serverCa, ...(credential.cert ? { cert: credential.cert.cert, key: credential.cert.key } : {}) });
    this.#authorization = credential.authorization ?? (credential.token !== undefined ? `Bearer ${credential.token}` : undefined);
  }

  send(c: Call): Promise<Answer> {
    const data = c.body === undefined ? undefined : typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
    const headers: Record<string, string | number> = { accept: 'application/json', ...c.headers };
    if (this.#authorization !== undefined) headers.authorization = this.#authorization;
    if (data !== undefined) Object.assign(headers, { 'content-type': c.contentType ?? 'application/json', 'content-length': Buffer.byteLength(data) });
    const u = new URL(c.path, this.url);
    return new Promise((resolve, reject) => {
      const req = request({ method: c.method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent: this.#agent, headers }, (res) => {
        const status = res.statusCode ?? 0;
        if (c.stream && status === 200) {
          res.destroy();
          return resolve({ status, body: '' });
        }
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          resolve({ status, body, json });
        });
      });
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`${c.method} ${c.path}: no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(data);
    });
  }

  /** Sends, and throws naming the call and the answer unless its status is one of `ok`. */
  async must(c: Call, ok: readonly number[] = [200, 201]): Promise<Answer> {
    const a = await this.send(c);
    if (!ok.includes(a.status)) throw new Error(`${c.method} ${c.path}: ${a.status} ${a.body}`);
    return a;
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** Runs `fn` over `items`, at most `width` at a time; the results in the items' order. */
export async function inPool<T, R>(items: readonly T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}
