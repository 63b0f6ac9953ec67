// The Retry-After of a request priority and fairness refused, per priority level, as the real
// server's dropped-requests tracker (apiserver pkg/util/flowcontrol/dropped_requests_tracker.go):
// it starts at 1 s; when a second begins, if the level refused at least 3 × retryAfter requests in
// the last retryAfter seconds (and retryAfter seconds passed since the last increase) it doubles,
// up to 32 s, in the manner of TCP's backoff; if it refused fewer than retryAfter, it comes down
// by one. Refusing is the last resort of a level that queues, so a few refusals already count.
import type { Clock } from '../../api/env.ts';

const MAX_RETRY_AFTER_S = 32;

class LevelRefusals {
  retryAfterS = 1;
  #increasedAtS = 0;
  #currentS = 0;
  #currentCount = 0;
  /** Refusals by whole second, oldest first, trimmed to what the rule can still look at. */
  readonly #history: { second: number; count: number }[] = [];

  refused(second: number): void {
    if (second === this.#currentS) {
      this.#currentCount++;
      return;
    }
    this.#remember(this.#currentS, this.#currentCount);
    this.#currentS = second;
    this.#currentCount = 1;
    this.#adjust(second);
  }

  #remember(second: number, count: number): void {
    this.#history.push({ second, count });
    const keep = Math.min(2 * this.retryAfterS, MAX_RETRY_AFTER_S);
    let drop = 0;
    while (drop < this.#history.length && second - this.#history[drop]!.second > keep) drop++;
    this.#history.splice(0, drop);
  }

  /** Looks at [second - retryAfter, second). */
  #adjust(second: number): void {
    let refused = 0;
    for (let i = this.#history.length - 1; i >= 0; i--) {
      const h = this.#history[i]!;
      if (second - h.second > this.retryAfterS) break;
      if (h.second < second) refused += h.count;
    }
    if (second - this.#increasedAtS >= this.retryAfterS && refused >= 3 * this.retryAfterS) {
      this.retryAfterS = Math.min(2 * this.retryAfterS, MAX_RETRY_AFTER_S);
      this.#increasedAtS = second;
    } else if (refused < this.retryAfterS && this.retryAfterS > 1) {
      this.retryAfterS--;
    }
  }
}

export class RetryAfter {
  readonly #levels = new Map<string, LevelRefusals>();

  constructor(readonly clock: Clock) {}

  /** Counts a refusal at `level` and returns the Retry-After, in seconds, to answer it with. */
  refused(level: string): number {
    let l = this.#levels.get(level);
    if (!l) this.#levels.set(level, (l = new LevelRefusals()));
    l.refused(Math.floor(this.clock.now() / 1000));
    return l.retryAfterS;
  }
}
