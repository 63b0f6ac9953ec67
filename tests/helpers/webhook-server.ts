// A real HTTPS webhook on a random loopback port, for the authorization Webhook mode's tests and
// the admission webhooks': its certificate made by the project's certs helper (for `extraName`
// too, such as a service's `<name>.<namespace>.svc`), client certificates asked for (and checked
// against a client CA of its own), every review it receives recorded, and its answers given by
// the test. `kubeconfig()` writes the file --authorization-webhook-config-file reads.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { clientCa, clientCertificate, servingCert } from '../../actors/apiserver/certs.ts';
import { wallClock } from '../../sim/clock.ts';

export interface ReceivedReview {
  path: string;
  headers: IncomingMessage['headers'];
  /** The client certificate's CommonName, when one was presented and the client CA signed it. */
  clientCommonName?: string;
  body: any;
}

/**
 * What the webhook answers a review with: a SubjectAccessReview's status, any JSON document (with
 * 200 unless `code` says), or raw text with an HTTP code; `hold` never answers.
 */
export type WebhookReply = { status: Record<string, unknown> } | { json: unknown; code?: number } | { code: number; text: string } | 'hold';

export interface WebhookServer {
  url: string;
  /** PEM of the serving certificate (self-signed: it is its own CA). */
  caPem: string;
  received: ReceivedReview[];
  /** Sets how reviews are answered from now on. */
  answer(reply: (review: ReceivedReview) => WebhookReply): void;
  /** Resolves with the `n`th review received (1-based), already or still to come; rejects after `timeoutMs`. */
  waitForReview(n: number, timeoutMs: number): Promise<ReceivedReview>;
  /** A kubeconfig naming this webhook (at `path`), with the client certificate of `orch-apiserver` or a token. */
  kubeconfig(opts?: { path?: string; token?: string; caFile?: 'relative' | 'data' }): string;
  dir: string;
  close(): Promise<void>;
}

export async function startWebhookServer(opts: { extraName?: string } = {}): Promise<WebhookServer> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-webhook-'));
  const clock = wallClock();
  const serving = await servingCert({ certDir: join(dir, 'serving'), ...(opts.extraName ? { externalHostname: opts.extraName } : {}) }, clock);
  const ca = await clientCa(join(dir, 'client-ca'), clock);
  const received: ReceivedReview[] = [];
  const waiters = new Set<() => void>();
  const held: ServerResponse[] = [];
  let reply: (r: ReceivedReview) => WebhookReply = () => ({ status: { allowed: false } });
  const server: Server = createServer({ cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const socket = req.socket as TLSSocket;
      const peer = socket.authorized ? socket.getPeerCertificate() : undefined;
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const review: ReceivedReview = { path: req.url ?? '', headers: req.headers, body, ...(peer?.subject?.CN ? { clientCommonName: String(peer.subject.CN) } : {}) };
      received.push(review);
      for (const w of waiters) w();
      const r = reply(review);
      if (r === 'hold') {
        held.push(res);
        return;
      }
      if ('status' in r) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: (body as { apiVersion?: string }).apiVersion, kind: 'SubjectAccessReview', status: r.status }));
      } else if ('json' in r) {
        res.writeHead(r.code ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(r.json));
      } else {
        res.writeHead(r.code, { 'content-type': 'text/plain' });
        res.end(r.text);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `https://127.0.0.1:${port}`;
  const admin = await clientCertificate(ca, 'orch-apiserver', [], clock);
  let files = 0;
  return {
    url, caPem: serving.cert, received, dir,
    answer(r) {
      reply = r;
    },
    waitForReview(n, timeoutMs) {
      if (received.length >= n) return Promise.resolve(received[n - 1]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the webhook received ${received.length} reviews within ${timeoutMs} ms, not ${n}`));
        }, timeoutMs);
        const check = () => {
          if (received.length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received[n - 1]!);
        };
        waiters.add(check);
      });
    },
    kubeconfig(opts = {}) {
      const b64 = (pem: string) => Buffer.from(pem).toString('base64');
      // The CA by a path relative to the kubeconfig's folder, as client-go resolves it, or inline.
      const cluster = opts.caFile === 'data' ? { server: `${url}${opts.path ?? '/authorize'}`, 'certificate-authority-data': b64(serving.cert) }
        : { server: `${url}${opts.path ?? '/authorize'}`, 'certificate-authority': 'serving/apiserver.crt' };
      const user = opts.token ? { token: opts.token } : { 'client-certificate-data': b64(admin.cert), 'client-key-data': b64(admin.key) };
      const file = join(dir, `kubeconfig-${++files}.yaml`);
      writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'authz', cluster }], users: [{ name: 'apiserver', user }],
        contexts: [{ name: 'webhook', context: { cluster: 'authz', user: 'apiserver' } }], 'current-context': 'webhook' }));
      return file;
    },
    async close() {
      for (const res of held) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
