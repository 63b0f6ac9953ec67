// One measurement: a function run under tinybench for a fixed time, after a warmup of the same
// shape. Throughput is completions over wall time, because with several calls in flight
// tinybench's own throughput (1000 / each call's latency) would ignore the overlap.
import { Bench } from 'tinybench';

export interface MeasureOptions {
  timeMs: number;
  warmupMs: number;
  /** Calls in flight at once (tinybench's task concurrency); 1 runs them one after another. */
  inFlight?: number;
  /** Operations one call performs (a batch); ops/s counts operations, not calls. */
  opsPerCall?: number;
}

export interface Measurement {
  opsPerSec: number;
  /** Per call; left out for batches, where a call's latency is not an operation's. */
  p50Ms?: number;
  p99Ms?: number;
  calls: number;
}

/** Fewest calls a sequential run makes even when the time is up (tinybench's `iterations`). */
const MIN_SEQUENTIAL_CALLS = 16;

async function timedRun(fn: () => unknown, timeMs: number, inFlight: number) {
  const bench = new Bench({
    time: timeMs,
    warmup: false,
    throws: true,
    // In task mode `iterations` caps the calls instead: 0 lifts the cap and lets time alone stop it.
    ...(inFlight > 1 ? { concurrency: 'task' as const, threshold: inFlight, iterations: 0 } : { iterations: MIN_SEQUENTIAL_CALLS }),
  });
  bench.add('measured', fn);
  const startMs = performance.now();
  await bench.run();
  const wallMs = performance.now() - startMs;
  const task = bench.tasks[0];
  const result = task.result;
  if (result.state !== 'completed') throw new Error(`benchmark ended ${result.state}${result.state === 'errored' ? `: ${result.error.message}` : ''}`);
  return { calls: task.runs, wallMs, latency: result.latency };
}

export async function measure(fn: () => unknown, o: MeasureOptions): Promise<Measurement> {
  const inFlight = o.inFlight ?? 1;
  const opsPerCall = o.opsPerCall ?? 1;
  await timedRun(fn, o.warmupMs, inFlight);
  const { calls, wallMs, latency } = await timedRun(fn, o.timeMs, inFlight);
  const opsPerSec = (calls * opsPerCall * 1000) / wallMs;
  return opsPerCall === 1 ? { opsPerSec, p50Ms: latency.p50, p99Ms: latency.p99, calls } : { opsPerSec, calls };
}
