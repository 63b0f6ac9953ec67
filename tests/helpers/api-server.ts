// Starts a real API server on HTTPS on a random loopback port, with a kubeconfig and a fresh
// kubectl discovery cache, and runs kubectl (the one on PATH) against it: to completion, or as
// a long-running process (`get -w`, `delete --wait`) whose output lines a test waits for.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servingCert } from '../../actors/apiserver/certs.ts';
import { serveHttps, type Listening } from '../../actors/apiserver/https.ts';
import { apiServerOptions, type ApiServerOptions } from '../../actors/apiserver/options.ts';
import { ControllerManager } from '../../actors/controller-manager/controller-manager.ts';
import { bareServerOptions } from './bare-server.ts';
import { ApiServer } from '../../actors/apiserver/server.ts';
import { wallClock } from '../../sim/clock.ts';
import * as assert from 'uvu/assert';
import { seededRandom } from '../../sim/random.ts';
import { writeKubeconfig } from '../../sim/cli/kubeconfig.ts';
import type { Bus } from '../../transport/bus.ts';

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

/** A kubectl left running: its stdout lines as they come, and latches on them. */
export interface KubectlProcess {
  /** Complete stdout lines received so far. */
  readonly lines: string[];
  readonly stderr: string;
  /** Resolves with the lines once `done(lines)` holds; rejects after `timeoutMs` showing what was seen. */
  waitFor(done: (lines: string[]) => boolean, timeoutMs: number, what: string): Promise<string[]>;
  /** Resolves when the process exits (code 1 when it was killed by a signal). */
  readonly exited: Promise<KubectlResult>;
  kill(): Promise<KubectlResult>;
}

export interface TestServer {
  server: ApiServer;
  url: string;
  /** The serving certificate (PEM), for clients of the test's own to trust. */
  ca: string;
  kubeconfig: string;
  dir: string;
  /** Every request the server received, in order: method, URL and headers (bodies are not kept). */
  requests: RecordedRequest[];
  kubectl(args: string[], stdin?: string): Promise<KubectlResult>;
  /** Starts kubectl and returns at once; `stop()` kills it if the test did not. */
  spawnKubectl(args: string[]): KubectlProcess;
  /** Resolves with the first request (already received or still to come) that `match` accepts; rejects after `timeoutMs`. */
  waitForRequest(match: (r: RecordedRequest) => boolean, timeoutMs: number, what: string): Promise<RecordedRequest>;
  /** A raw HTTPS request trusting the test certificate. */
  request(method: string, path: string, opts?: { body?: string | Uint8Array; headers?: Record<string, string | string[]> }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>;
  stop(): Promise<void>;
}

/** Rejects with `message` after `timeoutMs` unless `settle` was called first; `settle` clears the timer. */
function deadline(timeoutMs: number, message: () => string): { expired: Promise<never>; settle(): void } {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(message())), timeoutMs); });
  expired.catch(() => {});
  return { expired, settle: () => clearTimeout(timer) };
}

/**
 * With `clientCaFile` among the options, connections are asked for client certificates that CA
 * signed, as `orchsim serve` asks; `env.bus` carries the server's bus requests (a NATS bus, say).
 * The server runs alone, without the ServiceAccount admission plugin (bare-server.ts), unless
 * `env.serviceAccounts`: then the plugin is on and the real serviceaccount controller runs beside
 * it, making each namespace's `default` account.
 */
export async function startTestServer(given: Partial<ApiServerOptions> = {}, env: { bus?: Bus; serviceAccounts?: boolean } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-test-'));
  // kubectl speaks as an administrator with a token made for this server alone.
  const token = randomBytes(16).toString('hex');
  const options = (env.serviceAccounts ? apiServerOptions : bareServerOptions)({ certDir: join(dir, 'certs'), bindAddress: '127.0.0.1',
    ...given, tokens: new Map([[token, { username: 'test-admin', groups: ['system:masters', 'system:authenticated'] }], ...(given.tokens ?? [])]) });
  const clock = wallClock();
  const server = new ApiServer(options, { clock, random: seededRandom(42), ...(env.bus ? { bus: env.bus } : {}) });
  await server.start();
  const accounts = env.serviceAccounts
    ? new ControllerManager({ bus: server.bus, clock, random: seededRandom(43), options: { leaderElect: false, controllers: ['serviceaccount-controller'] } }) : undefined;
  await accounts?.start();
  const cert = await servingCert(options, clock);
  const requests: RecordedRequest[] = [];
  const requestWaiters = new Set<(r: RecordedRequest) => void>();
  const running = new Set<KubectlProcess>();
  const listening: Listening = await serveHttps((r) => {
    const recorded = { method: r.method, url: r.url, headers: r.headers };
    requests.push(recorded);
    for (const w of requestWaiters) w(recorded);
    return server.handle(r);
  }, { host: '127.0.0.1', port: 0, cert: cert.cert, key: cert.key,
    maxRequestBodyBytes: options.maxRequestBodyBytes, arrive: (r) => server.arrive(r),
    ...(options.clientCaFile ? { clientCa: readFileSync(options.clientCaFile, 'utf8') } : {}) });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, listening.url, cert.cert, { token });
  const cacheDir = join(dir, 'kube-cache');
  const { request: httpsRequest } = await import('node:https');
  return {
    server, url: listening.url, ca: cert.cert, kubeconfig, dir, requests,
    kubectl(args, stdin) {
      return new Promise((resolve) => {
        const child = execFile('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { timeout: 60_000, env: { ...process.env, KUBECONFIG: kubeconfig } },
          (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
        child.stdin?.end(stdin ?? '');
      });
    },
    spawnKubectl(args) {
      const child = spawn('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBECONFIG: kubeconfig } });
      const lines: string[] = [];
      let partial = '';
      let stdout = '';
      let stderr = '';
      const listeners = new Set<() => void>();
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (d: string) => {
        stdout += d;
        const parts = (partial + d).split('\n');
        partial = parts.pop()!;
        lines.push(...parts);
        for (const l of listeners) l();
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (d: string) => (stderr += d));
      const exited = new Promise<KubectlResult>((resolve) => child.on('close', (code) => {
        if (partial) lines.push(partial);
        partial = '';
        running.delete(proc);
        for (const l of listeners) l();
        resolve({ code: code ?? 1, stdout, stderr });
      }));
      const proc: KubectlProcess = {
        lines,
        get stderr() { return stderr; },
        exited,
        waitFor(done, timeoutMs, what) {
          if (done(lines)) return Promise.resolve(lines);
          const d = deadline(timeoutMs, () => `kubectl ${args.join(' ')}: no ${what} within ${timeoutMs} ms; stdout lines: ${JSON.stringify(lines)}; stderr: ${stderr}`);
          let check = () => {};
          const met = new Promise<string[]>((resolve) => {
            check = () => { if (done(lines)) resolve(lines); };
            listeners.add(check);
          });
          return Promise.race([met, d.expired]).finally(() => { listeners.delete(check); d.settle(); });
        },
        kill() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      };
      running.add(proc);
      return proc;
    },
    waitForRequest(match, timeoutMs, what) {
      const seen = requests.find(match);
      if (seen) return Promise.resolve(seen);
      const d = deadline(timeoutMs, () => `no ${what} within ${timeoutMs} ms; requests: ${requests.map((r) => `${r.method} ${r.url}`).join(', ')}`);
      let waiter: (r: RecordedRequest) => void = () => {};
      const met = new Promise<RecordedRequest>((resolve) => {
        waiter = (r) => { if (match(r)) resolve(r); };
        requestWaiters.add(waiter);
      });
      return Promise.race([met, d.expired]).finally(() => { requestWaiters.delete(waiter); d.settle(); });
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
      await Promise.all([...running].map((p) => p.kill()));
      await accounts?.stop();
      server.stop();
      await listening.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs kubectl (with `stdin`), asserting it succeeds; its stdout. */
export async function kubectlOk(ctx: { s: TestServer }, args: string[], stdin?: string): Promise<string> {
  const r = await ctx.s.kubectl(args, stdin);
  assert.is(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** Runs kubectl (with `stdin`), asserting it fails with exit code 1; its stderr. */
export async function kubectlFails(ctx: { s: TestServer }, args: string[], stdin?: string): Promise<string> {
  const r = await ctx.s.kubectl(args, stdin);
  assert.is(r.code, 1, `kubectl ${args.join(' ')} should have failed: ${r.stdout}`);
  return r.stderr;
}
