// Answers remembered for a while on the injected clock, at most `max` of them (the least recently
// used go first): the authorizers' and authenticators' review caches. A time to live of 0 or less
// remembers nothing.
import { LRUCache } from 'lru-cache';
import type { Clock } from './env.ts';

export class ExpiringCache<V> {
  readonly #entries: LRUCache<string, { value: V; untilMs: number }>;

  constructor(readonly clock: Clock, max: number) {
    this.#entries = new LRUCache({ max });
  }

  /** The answer kept for `key`, or undefined when there is none or it has expired. */
  get(key: string): V | undefined {
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    if (this.clock.now() < e.untilMs) return e.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs > 0) this.#entries.set(key, { value, untilMs: this.clock.now() + ttlMs });
  }
}
