// Starts a real API server on HTTPS on a random loopback port, with a kubeconfig and a fresh
// kubectl discovery cache, and runs kubectl (the one on PATH) against it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servingCert } from '../../actors/apiserver/certs.ts';
import { serveHttps, type Listening } from '../../actors/apiserver/https.ts';
import { apiServerOptions, type ApiServerOptions } from '../../actors/apiserver/options.ts';
import { ApiServer } from '../../actors/apiserver/server.ts';
import { wallClock } from '../../sim/clock.ts';
import { seededRandom } from '../../sim/random.ts';
import { ADMIN_TOKEN, ADMIN_USER, writeKubeconfig } from '../../sim/cli/kubeconfig.ts';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | undefined>;
}

export interface TestServer {
  server: ApiServer;
  url: string;
  kubeconfig: string;
  dir: string;
  /** Every request the server received, in order: method, URL and headers (bodies are not kept). */
  requests: RecordedRequest[];
  kubectl(args: string[], stdin?: string): Promise<KubectlResult>;
  /** A raw HTTPS request trusting the test certificate. */
  request(method: string, path: string, opts?: { body?: string | Uint8Array; headers?: Record<string, string> }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>;
  stop(): Promise<void>;
}

export async function startTestServer(given: Partial<ApiServerOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-test-'));
  const options = apiServerOptions({ certDir: join(dir, 'certs'), bindAddress: '127.0.0.1', tokens: new Map([[ADMIN_TOKEN, ADMIN_USER]]), ...given });
  const clock = wallClock();
  const server = new ApiServer(options, { clock, random: seededRandom(42) });
  await server.start();
  const cert = await servingCert(options, clock);
  const requests: RecordedRequest[] = [];
  const listening: Listening = await serveHttps((r) => {
    requests.push({ method: r.method, url: r.url, headers: r.headers });
    return server.handle(r);
  }, { host: '127.0.0.1', port: 0, cert: cert.cert, key: cert.key,
    maxRequestBodyBytes: options.maxRequestBodyBytes });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, listening.url, cert.cert);
  const cacheDir = join(dir, 'kube-cache');
  const { request: httpsRequest } = await import('node:https');
  return {
    server, url: listening.url, kubeconfig, dir, requests,
    kubectl(args, stdin) {
      return new Promise((resolve) => {
        const child = execFile('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { timeout: 60_000, env: { ...process.env, KUBECONFIG: kubeconfig } },
          (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
        child.stdin?.end(stdin ?? '');
      });
    },
    request(method, path, opts = {}) {
      return new Promise((resolve, reject) => {
        const u = new URL(path, listening.url);
        const req = httpsRequest({ method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, ca: cert.cert, headers: opts.headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        req.end(opts.body);
      });
    },
    async stop() {
      server.stop();
      await listening.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
