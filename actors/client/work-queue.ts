// The keyed work queue controllers reconcile from (client-go's workqueue with its default rate
// limiter): a key added while queued is queued once; added while being processed, it is processed
// again after; at most `workers` keys are processed at a time (`--concurrent-*-syncs`); a key whose
// sync failed comes back after a per-key exponential delay (5 ms doubling up to 1000 s), and its
// delay resets once a sync succeeds. Level-triggered: a sync reads the current state, not events.
// Keys gather until `run()`: a controller runs it once its informers' caches are synced, so no
// sync ever acts on a cache still filling (the real WaitForCacheSync).
import type { Clock } from '../api/env.ts';

const BASE_DELAY_MS = 5;
const MAX_DELAY_MS = 1_000_000;

export class WorkQueue {
  readonly #queue: string[] = [];
  readonly #queued = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #dirty = new Set<string>();
  readonly #failures = new Map<string, number>();
  readonly #timers = new Set<unknown>();
  #stopped = false;
  #running = false;

  constructor(
    readonly clock: Clock,
    readonly workers: number,
    readonly sync: (key: string) => Promise<void>,
    readonly onError: (key: string, e: unknown) => void,
  ) {
    if (!(Number.isInteger(workers) && workers >= 1)) throw new RangeError(`a work queue needs at least 1 worker, got ${workers}`);
  }

  get length(): number {
    return this.#queue.length;
  }

  add(key: string): void {
    if (this.#stopped) return;
    if (this.#processing.has(key)) return void this.#dirty.add(key);
    if (this.#queued.has(key)) return;
    this.#queued.add(key);
    this.#queue.push(key);
    this.#pump();
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
  }

  #pump(): void {
    while (this.#running && !this.#stopped && this.#processing.size < this.workers && this.#queue.length > 0) {
      const key = this.#queue.shift()!;
      this.#queued.delete(key);
      this.#processing.add(key);
      void this.sync(key).then(
        () => this.#failures.delete(key),
        (e) => {
          const n = this.#failures.get(key) ?? 0;
          this.#failures.set(key, n + 1);
          this.onError(key, e);
          this.addAfter(key, Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** n));
        },
      ).finally(() => {
        this.#processing.delete(key);
        if (this.#dirty.delete(key)) this.add(key);
        this.#pump();
      });
    }
  }
}
