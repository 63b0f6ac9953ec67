// The scheduler as a deployment runs it: `orchsim scheduler` in a process of its own, reaching the
// API server over a real NATS server. This process starts a private nats-server, an API server on
// the wall clock served on it (as `orchsim apiserver --bus` does), fills it with the benchmark's
// nodes and pending pods, then spawns the scheduler with no client QPS limit and no leader
// election, and times it until every pod is bound. Bindings are counted where they land, in the
// store's change feed (synchronous, after each commit): nothing polls, so nothing distorts the timing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ApiServer } from '../actors/apiserver/server.ts';
import type { Store } from '../actors/apiserver/storage/store.ts';
import { ApiClient } from '../actors/client/client.ts';
import { configDocument, schedulerOptions } from '../actors/scheduler/options.ts';
import { wallClock } from '../sim/clock.ts';
import { startNatsServer, type NatsServer } from '../sim/nats-server.ts';
import { seededRandom } from '../sim/random.ts';
import { NatsBus } from '../transport/nats-bus.ts';
import { benchServerOptions, fill, PODS } from './scheduler-objects.ts';

const CLI = join(import.meta.dirname, '../sim/cli/orchsim.js');
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const STOP_GRACE_MS = 10_000;
/** Lines of the child's output kept for an error message. */
const TAIL_LINES = 40;

export interface ProcessCase {
  podCount: number;
  seed: number;
  /** Give up this long after the child is spawned (10 minutes by default). */
  timeoutMs?: number;
}

/** Times from the child's spawn, in ms of this process's performance.now(). */
export interface ProcessRun {
  pods: number;
  firstBindingMs: number;
  lastBindingMs: number;
  /** Pods per second from the first binding to the last: (pods - 1) / (last - first); start-up and the initial lists excluded, the JIT warm-up of the scheduling path inside. */
  bindingRate: number;
  /** Pods per second from the spawn to the last binding: everything a fresh deployment pays. */
  wholeRate: number;
  /** Requests the API server handled from the spawn to the last binding (lists, watches, bindings). */
  requests: number;
}

/** SIGTERM, then SIGKILL if it is still there after `STOP_GRACE_MS`; resolves once it is gone. */
function stopProcess(proc: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return resolve();
    const kill = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS);
    proc.once('exit', () => { clearTimeout(kill); resolve(); });
    proc.kill('SIGTERM');
  });
}

/** Resolves when `want` pods have gone from no spec.nodeName to one; remembers the first and the last. */
function bindingCounter(store: Store, podPrefix: string, want: number) {
  const seen = { bound: 0, firstMs: 0, lastMs: 0 };
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const unsubscribe = store.onChange((c) => {
    if (!c.prev || !c.key.startsWith(podPrefix)) return;
    if ((c.prev.spec as { nodeName?: string }).nodeName || !(c.object.spec as { nodeName?: string }).nodeName) return;
    const now = performance.now();
    if (seen.bound === 0) seen.firstMs = now;
    seen.lastMs = now;
    if (++seen.bound === want) done();
  });
  return { seen, all, unsubscribe };
}

interface Child {
  spawnedMs: number;
  /** Rejects when the child exits or cannot be spawned, with its last output. */
  failed: Promise<never>;
  stop(): Promise<void>;
}

const keepTail = (lines: string[], chunk: Buffer) => {
  lines.push(...chunk.toString().split('\n').filter((l) => l !== ''));
  if (lines.length > TAIL_LINES) lines.splice(0, lines.length - TAIL_LINES);
};

function spawnScheduler(natsUrl: string, configFile: string): Child {
  const args = [CLI, 'scheduler', `--master=${natsUrl}`, `--config=${configFile}`, '--secure-port=0'];
  const spawnedMs = performance.now();
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  const err: string[] = [];
  proc.stdout!.on('data', (b: Buffer) => keepTail(out, b));
  proc.stderr!.on('data', (b: Buffer) => keepTail(err, b));
  const output = () => `\n--- its stderr (last ${TAIL_LINES} lines)\n${err.join('\n') || '(empty)'}\n--- its stdout\n${out.join('\n') || '(empty)'}`;
  const failed = new Promise<never>((_, reject) => {
    proc.once('error', (e) => reject(new Error(`cannot start orchsim scheduler (${process.execPath} ${args.join(' ')}): ${e.message}`, { cause: e })));
    proc.once('close', (code, signal) => reject(new Error(`orchsim scheduler exited early (${signal ?? `code ${code}`}) before every pod was bound${output()}`)));
  });
  failed.catch(() => {}); // Raced against the bindings; an exit during stop() is expected.
  return { spawnedMs, failed, stop: () => stopProcess(proc) };
}

/** The API server on the wall clock, served on the NATS server at `url`, holding the case's nodes and pending pods. */
async function servedCluster(url: string, c: ProcessCase) {
  const clock = wallClock();
  const bus = await NatsBus.connect({ servers: url, name: 'orchsim-bench-apiserver' });
  const server = new ApiServer(benchServerOptions(), { clock, random: seededRandom(c.seed).fork('apiserver'), bus });
  await server.start();
  // Filled through the bus like any client: every object passes admission and the registry.
  await fill(new ApiClient(bus, 'bench'), c.podCount);
  return { bus, server };
}

/** Resolves once every pod is bound; rejects if the child exits first or `timeoutMs` passes. */
async function untilBound(counter: ReturnType<typeof bindingCounter>, child: Child, want: number, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`orchsim scheduler bound ${counter.seen.bound} of ${want} pods in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([counter.all, child.failed, timedOut]);
  } finally {
    clearTimeout(timer);
    counter.unsubscribe();
  }
}

/** Runs the case once: the scheduler process from its spawn until every pod is bound. */
export async function schedulerProcess(c: ProcessCase): Promise<ProcessRun> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-bench-scheduler-'));
  let nats: NatsServer | undefined;
  let cluster: Awaited<ReturnType<typeof servedCluster>> | undefined;
  let child: Child | undefined;
  try {
    nats = await startNatsServer();
    cluster = await servedCluster(nats.url, c);
    const configFile = join(dir, 'scheduler.yaml');
    // As the in-process case: no client QPS limit (0); no leader election, so it schedules at once.
    writeFileSync(configFile, stringify(configDocument(schedulerOptions({ orchApiQps: 0, leaderElect: false }))));
    const counter = bindingCounter(cluster.server.store, cluster.server.registry.key(PODS, 'default', ''), c.podCount);
    const requestsBefore = cluster.server.requests;
    child = spawnScheduler(nats.url, configFile);
    await untilBound(counter, child, c.podCount, c.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const { firstMs, lastMs } = counter.seen;
    return {
      pods: c.podCount,
      firstBindingMs: firstMs - child.spawnedMs,
      lastBindingMs: lastMs - child.spawnedMs,
      bindingRate: ((c.podCount - 1) * 1000) / (lastMs - firstMs),
      wholeRate: (c.podCount * 1000) / (lastMs - child.spawnedMs),
      requests: cluster.server.requests - requestsBefore,
    };
  } finally {
    await child?.stop();
    cluster?.server.stop();
    await cluster?.bus.close();
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
