// Client-side rate limiting as the components' API clients do it (`--orch-api-qps`, `--orch-api-burst`):
// a token bucket holding up to `burst` tokens, refilled at `qps` per second of the injected clock.
// A request takes one token, waiting on the clock for it when none is left; waiters go in order.
import type { Clock } from '../api/env.ts';

export class RateLimiter {
  #tokens: number;
  #lastMs: number;

  constructor(
    readonly clock: Clock,
    readonly qps: number,
    readonly burst: number,
  ) {
    if (!(qps >= 0 && Number.isFinite(qps))) throw new RangeError(`rate limit qps must be a finite number of at least 0, got ${qps}`);
    if (!(Number.isInteger(burst) && burst >= 0)) throw new RangeError(`rate limit burst must be an integer of at least 0, got ${burst}`);
    this.#tokens = burst;
    this.#lastMs = clock.now();
  }

  /** Resolves when the caller may send one request; at once while tokens last. qps 0 means no limit. */
  wait(): Promise<void> | undefined {
    if (this.qps === 0) return undefined;
    const now = this.clock.now();
    this.#tokens = Math.min(Math.max(this.burst, 1), this.#tokens + ((now - this.#lastMs) * this.qps) / 1000);
    this.#lastMs = now;
    this.#tokens -= 1;
    if (this.#tokens >= 0) return undefined;
    // In debt: this request goes when the bucket has refilled to zero again.
    const waitMs = Math.ceil((-this.#tokens * 1000) / this.qps);
    return new Promise<void>((resolve) => this.clock.setTimeout(resolve, waitMs));
  }
}
