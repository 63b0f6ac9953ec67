// The HTTPS side of the API benchmark, as the parent sees it: a server in a child process
// (https-target.ts) and a keep-alive client that sends wire requests to it.
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:https';
import type { ApiRequest } from '../actors/apiserver/request.ts';
import type { CannedResponse } from './https-target.ts';
import { TYPESCRIPT_LOADER_FLAGS } from '../sim/cli/typescript-loader.ts';

export interface Target {
  url: string;
  stop(): Promise<void>;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export interface LoopbackClient {
  call(req: ApiRequest): Promise<WireResponse>;
  close(): void;
}

const TARGET_START_TIMEOUT_MS = 30_000;
/** Headers node:http writes itself on every answer; replaying them would duplicate them. */
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

function waitForPort(child: ChildProcess, kind: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${kind} HTTPS target did not report its port within ${TARGET_START_TIMEOUT_MS} ms`)), TARGET_START_TIMEOUT_MS);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve((m as { port: number }).port);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} HTTPS target exited with code ${code} before listening; run bench/https-target.ts's import chain with npx tsx to see why`));
    });
  });
}

/** Starts the real API server (`orchsim`) or the bare replaying server (`baseline`, given its answers). */
export async function startTarget(kind: 'orchsim' | 'baseline', certDir: string, seed: number, canned: CannedResponse[] = []): Promise<Target> {
  const child = fork(new URL('./https-target.ts', import.meta.url), [kind, certDir, String(seed)], {
    execArgv: TYPESCRIPT_LOADER_FLAGS,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = waitForPort(child, kind);
  if (kind === 'baseline') child.send(canned);
  const url = `https://127.0.0.1:${await port}`;
  return {
    url,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.disconnect();
    }),
  };
}

/** A client keeping up to `maxSockets` connections open, one request in flight on each. */
export function loopbackClient(url: string, ca: string, maxSockets: number): LoopbackClient {
  const agent = new Agent({ keepAlive: true, maxSockets, ca });
  const { hostname, port } = new URL(url);
  return {
    call: (req) => new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v;
      const r = request({ agent, hostname, port, method: req.method, path: req.url, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string | string[]>, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      r.on('error', reject);
      r.end(req.body.byteLength > 0 ? req.body : undefined);
    }),
    close: () => agent.destroy(),
  };
}

/** What the baseline server replays for `req`: the real server's answer, less the headers node adds. */
export function canned(req: ApiRequest, res: WireResponse): CannedResponse {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(res.headers)) if (!HOP_HEADERS.has(k) && v !== undefined) headers[k] = v;
  const q = req.url.indexOf('?');
  return { method: req.method, path: q >= 0 ? req.url.slice(0, q) : req.url, status: res.status, headers, body: res.body };
}
