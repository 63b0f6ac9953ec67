// Delivery latencies of a benchmark case: milliseconds from an event's publish to a watcher
// receiving it, kept in a preallocated array (a bounded number of samples) and summarised as
// nearest-rank percentiles. Only a few watchers per case record them (`sampledWatchers`), spread
// over the fan-out order from the first to the last, so timing does not slow the fan-out itself.

/** Watchers per case that time their deliveries. */
export const SAMPLED_WATCHERS = 32;

export class LatencySamples {
  readonly #ms: Float64Array;
  #count = 0;

  constructor(capacity: number) {
    this.#ms = new Float64Array(capacity);
  }

  add(ms: number): void {
    if (this.#count < this.#ms.length) this.#ms[this.#count++] = ms;
  }

  get count(): number {
    return this.#count;
  }

  /** Nearest-rank percentiles, `q` in (0, 1]; NaN without samples. */
  percentiles(...qs: number[]): number[] {
    const sorted = this.#ms.slice(0, this.#count).sort();
    return qs.map((q) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]));
  }
}

/** Indices of the watchers that time their deliveries: at most SAMPLED_WATCHERS, evenly spaced, first and last included. */
export function sampledWatchers(count: number): Set<number> {
  const k = Math.min(count, SAMPLED_WATCHERS);
  const picks = new Set<number>();
  for (let j = 0; j < k; j++) picks.add(k === 1 ? 0 : Math.round((j * (count - 1)) / (k - 1)));
  return picks;
}

/**
 * What the watchers of one case do with a delivery: count it for the latch and, for the sampled
 * watchers, time it against the event's publish. Deliveries reach each watcher in publish order,
 * so a watcher's own count is the index of the event it just received.
 */
export class DeliveryClock {
  readonly sentAt: Float64Array;
  readonly samples: LatencySamples;
  readonly #sampled: Uint8Array;
  readonly #seen: Int32Array;

  constructor(watchers: number, readonly warmEvents: number, timedEvents: number, readonly latch: { hit(): void }) {
    this.sentAt = new Float64Array(warmEvents + timedEvents);
    const picks = sampledWatchers(watchers);
    this.#sampled = new Uint8Array(watchers);
    for (const i of picks) this.#sampled[i] = 1;
    this.#seen = new Int32Array(watchers);
    this.samples = new LatencySamples(picks.size * timedEvents);
  }

  /** Watcher `i` received its next event; returns that event's index for sampled watchers, -1 for the others. */
  deliver(i: number): number {
    this.latch.hit();
    if (this.#sampled[i] === 0) return -1;
    const k = this.#seen[i]++;
    if (k >= this.warmEvents) this.samples.add(performance.now() - this.sentAt[k]);
    return k;
  }
}
