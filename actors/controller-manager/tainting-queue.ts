// The rate-limited queue of nodes waiting for a NoExecute taint, one per zone, as the real node
// lifecycle controller keeps it (RateLimitedTimedQueue over a token bucket of burst 1): a pass
// takes nodes off the head while the bucket gives a token, so a zone is tainted at most at its
// rate whatever the number of nodes waiting; a zone's state swaps the bucket for another rate.

/**
 * A token bucket as x/time/rate's Limiter checks it (AllowN(now, 1)): full at first, refilled at
 * `qps` tokens a second up to `burst`; qps 0 never gives one. Tokens are computed from the time
 * of the last take in one step, so ten 0.1 s refills of 0.1 qps make exactly one token.
 */
export class TokenBucket {
  #tokens: number;
  #lastMs: number;

  constructor(readonly qps: number, readonly burst: number, nowMs: number) {
    this.#tokens = burst;
    this.#lastMs = nowMs;
  }

  tryAccept(nowMs: number): boolean {
    if (this.qps <= 0) return false;
    const tokens = Math.min(this.burst, this.#tokens + ((nowMs - this.#lastMs) * this.qps) / 1000);
    if (tokens < 1 - 1e-9) return false;
    this.#tokens = tokens - 1;
    this.#lastMs = nowMs;
    return true;
  }
}

/** The burst of every zone's bucket (the real controller's EvictionRateLimiterBurst). */
export const TAINTING_BURST = 1;

export interface Queued {
  name: string;
  uid: string;
  processAtMs: number;
  addedAtMs: number;
}

/** What a pass does with a node once its write returned: done (off the queue), or try again after `retryMs`. */
export type TaintAction = (q: Queued) => Promise<{ done: boolean; retryMs?: number }>;

export class TaintingQueue {
  #limiter: TokenBucket;
  /** In processing order: by processAtMs, then by arrival. */
  #entries: Queued[] = [];
  /**
   * Nodes added and not removed since, processed or not: a node taken off by a pass stays a
   * member, so adding it again does nothing until `remove` (the real UniqueQueue's set).
   */
  readonly #members = new Set<string>();

  constructor(qps: number, nowMs: number) {
    this.#limiter = new TokenBucket(qps, TAINTING_BURST, nowMs);
  }

  get qps(): number {
    return this.#limiter.qps;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Queues `name` unless it is a member already; false then. */
  add(name: string, uid: string, nowMs: number): boolean {
    if (this.#members.has(name)) return false;
    this.#members.add(name);
    this.#insert({ name, uid, processAtMs: nowMs, addedAtMs: nowMs });
    return true;
  }

  /** Takes `name` out, queued or processed: it can be added again. */
  remove(name: string): boolean {
    const i = this.#entries.findIndex((e) => e.name === name);
    if (i >= 0) this.#entries.splice(i, 1);
    return this.#members.delete(name);
  }

  /**
   * A new rate (same rate: nothing changes). A bucket that could not give a token now leaves the
   * new one drained too, so a swap never grants an extra taint (right for a burst of 1).
   */
  swapLimiter(qps: number, nowMs: number): void {
    if (this.#limiter.qps === qps) return;
    const next = new TokenBucket(qps, TAINTING_BURST, nowMs);
    if (!this.#limiter.tryAccept(nowMs)) next.tryAccept(nowMs);
    this.#limiter = next;
  }

  /**
   * One pass: while the bucket gives tokens, the due head is processed (and stays a member), one
   * at a time: the next waits for the action's write, and the time is read again for it. The head
   * stays queued while its action runs, so a node taken out meanwhile (Ready again) is not put back.
   */
  async try(now: () => number, action: TaintAction): Promise<void> {
    while (this.#entries.length > 0) {
      const nowMs = now();
      if (!this.#limiter.tryAccept(nowMs)) return;
      const head = this.#entries[0]!;
      if (nowMs < head.processAtMs) return;
      const { done, retryMs = 0 } = await action(head);
      const at = this.#entries.indexOf(head);
      if (at < 0) continue;
      this.#entries.splice(at, 1);
      if (!done) this.#insert({ ...head, processAtMs: now() + retryMs + 1 });
    }
  }

  #insert(e: Queued): void {
    let i = this.#entries.length;
    while (i > 0 && this.#entries[i - 1]!.processAtMs > e.processAtMs) i--;
    this.#entries.splice(i, 0, e);
  }
}
