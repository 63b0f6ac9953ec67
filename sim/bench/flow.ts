// Flow control of a fan-out case: events are published in batches, and the next batch waits
// until every delivery of this one has arrived, so an unthrottled publisher never overruns a
// subscriber (NATS disconnects a subscriber whose pending messages pass its limit). Batches are
// sized by bytes in flight, the same for every path of one watcher count so latencies compare.

/** Bytes of deliveries in flight at once: well under NATS's 64 MB pending limit per connection. */
export const IN_FLIGHT_BYTES = 8 * 1024 * 1024;
/** Most events in one batch, however small the fan-out: latency includes waiting behind the batch. */
export const MAX_BATCH_EVENTS = 256;
/** A batch whose deliveries have not all arrived by then has lost some: the case fails. */
export const BATCH_TIMEOUT_MS = 30_000;

export function batchEvents(watchers: number, sizeBytes: number): number {
  return Math.max(1, Math.min(MAX_BATCH_EVENTS, Math.floor(IN_FLIGHT_BYTES / (watchers * sizeBytes))));
}

/** Counts deliveries; the driver waits on it until a count is reached. */
export class DeliveryLatch {
  count = 0;
  #target = Infinity;
  #resolve: (() => void) | undefined;
  #reject: ((e: Error) => void) | undefined;
  #failure: Error | undefined;

  hit(): void {
    if (++this.count >= this.#target) this.#resolve!();
  }

  /** Ends the wait with an error: a watcher was cut off, a subscriber disconnected. */
  fail(e: Error): void {
    this.#failure ??= e;
    this.#reject?.(e);
  }

  until(target: number, describe: () => string): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.count >= target) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${describe()}: ${this.count} of ${target} deliveries after ${BATCH_TIMEOUT_MS} ms`)), BATCH_TIMEOUT_MS);
      const settle = () => {
        clearTimeout(timer);
        this.#target = Infinity;
        this.#resolve = this.#reject = undefined;
      };
      this.#target = target;
      this.#resolve = () => (settle(), resolve());
      this.#reject = (e) => (settle(), reject(e));
    });
  }
}

export interface DriveOptions {
  /** Events published first and not timed, so every path runs warm code. */
  warmEvents: number;
  events: number;
  batch: number;
  /** Deliveries each event makes (its watchers). */
  perEvent: number;
  /** Filled with each event's publish time (performance.now), indexed by event: warm events first. */
  sentAt: Float64Array;
  latch: DeliveryLatch;
  publish(i: number): void;
  describe(): string;
}

/** Publishes the warm events, then the timed ones; resolves with the timed part's wall time. */
export async function drive(o: DriveOptions): Promise<{ wallMs: number }> {
  const run = async (from: number, to: number) => {
    for (let start = from; start < to; start += o.batch) {
      const end = Math.min(to, start + o.batch);
      for (let i = start; i < end; i++) {
        o.sentAt[i] = performance.now();
        o.publish(i);
      }
      await o.latch.until(end * o.perEvent, o.describe);
    }
  };
  await run(0, o.warmEvents);
  const startMs = performance.now();
  await run(o.warmEvents, o.warmEvents + o.events);
  return { wallMs: performance.now() - startMs };
}
