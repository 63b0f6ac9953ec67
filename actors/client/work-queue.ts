// The keyed work queue controllers reconcile from (client-go's workqueue with its default rate
// limiter): a key added while queued is queued once; added while being processed, it is processed
// again after; at most `workers` keys are processed at a time (`--concurrent-*-syncs`); a key whose
// sync failed comes back after a per-key exponential delay (5 ms doubling up to 1000 s), and its
// delay resets once a sync succeeds. Level-triggered: a sync reads the current state, not events.
// Keys gather until `run()`: a controller runs it once its informers' caches are synced, so no
// sync ever acts on a cache still filling (the real WaitForCacheSync). Given a registry and a name,
// it reports client-go's workqueue_* metrics (work-queue-metrics.ts) on its clock.
import type { Clock } from '../api/env.ts';
import type { Registry } from '../api/metrics.ts';
import { WorkQueueMetrics } from './work-queue-metrics.ts';

const BASE_DELAY_MS = 5;
const MAX_DELAY_MS = 1_000_000;

export class WorkQueue {
  readonly #queue: string[] = [];
  readonly #queued = new Set<string>();
  /** Keys being synced, with when each sync began. */
  readonly #processing = new Map<string, number>();
  readonly #dirty = new Set<string>();
  readonly #failures = new Map<string, number>();
  readonly #timers = new Set<unknown>();
  readonly #metrics: WorkQueueMetrics | undefined;
  #stopped = false;
  #running = false;

  constructor(
    readonly clock: Clock,
    readonly workers: number,
    readonly sync: (key: string) => Promise<void>,
    readonly onError: (key: string, e: unknown) => void,
    /** Where to report the workqueue_* metrics, under the label `name` (the real controllers' queue names). */
    metrics?: { registry: Registry; name: string },
  ) {
    if (!(Number.isInteger(workers) && workers >= 1)) throw new RangeError(`a work queue needs at least 1 worker, got ${workers}`);
    if (metrics)
      this.#metrics = new WorkQueueMetrics(metrics.registry, {
        name: metrics.name, clock,
        depth: () => this.#queue.length + this.#dirty.size,
        syncStarts: () => this.#processing.values(),
      });
  }

  get length(): number {
    return this.#queue.length;
  }

  add(key: string): void {
    if (this.#stopped) return;
    if (this.#processing.has(key)) {
      if (this.#dirty.has(key)) return;
      this.#dirty.add(key);
      this.#metrics?.added(key, this.clock.now());
      return;
    }
    if (this.#queued.has(key)) return;
    this.#metrics?.added(key, this.clock.now());
    this.#push(key);
    this.#pump();
  }

  #push(key: string): void {
    this.#queued.add(key);
    this.#queue.push(key);
  }

  /** Adds `key` after `ms` on the clock. */
  addAfter(key: string, ms: number): void {
    if (this.#stopped) return;
    const timer = this.clock.setTimeout(() => {
      this.#timers.delete(timer);
      this.add(key);
    }, ms);
    this.#timers.add(timer);
  }

  /** Starts the workers. */
  run(): void {
    this.#running = true;
    this.#pump();
  }

  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers) this.clock.clearTimeout(t);
    this.#timers.clear();
    this.#queue.length = 0;
    this.#queued.clear();
    this.#metrics?.close();
  }

  #pump(): void {
    while (this.#running && !this.#stopped && this.#processing.size < this.workers && this.#queue.length > 0) {
      const key = this.#queue.shift()!;
      this.#queued.delete(key);
      const startMs = this.clock.now();
      this.#processing.set(key, startMs);
      this.#metrics?.started(key, startMs);
      void this.sync(key).then(
        () => this.#failures.delete(key),
        (e) => {
          const n = this.#failures.get(key) ?? 0;
          this.#failures.set(key, n + 1);
          this.onError(key, e);
          this.#metrics?.retried();
          this.addAfter(key, Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** n));
        },
      ).finally(() => {
        this.#processing.delete(key);
        this.#metrics?.finished(startMs, this.clock.now());
        // Added again while it was synced: queued now (its add was counted then).
        if (this.#dirty.delete(key) && !this.#stopped) this.#push(key);
        this.#pump();
      });
    }
  }
}
