// The scheduling queue, as the real scheduler keeps it: an active queue ordered by PrioritySort
// (higher priority first, then the earlier arrival), a backoff queue for pods that failed recently
// (1 s doubling to 10 s per attempt), and the unschedulable pods, parked until a cluster event
// might make them fit or until they have waited `maxInUnschedulableMs` (5m0s). Time comes from
// the caller: `flush(now)` moves what is due, and the scheduler calls it on its clock (every
// second, as the real queue's flush loop runs).

export interface QueueOptions {
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** `--pod-max-in-unschedulable-pods-duration`. */
  maxInUnschedulableMs: number;
}

export const defaultQueueOptions: QueueOptions = { initialBackoffMs: 1_000, maxBackoffMs: 10_000, maxInUnschedulableMs: 5 * 60_000 };

/** A queued pod: its key, the ordering fields and its attempt history. */
export interface QueuedPod {
  key: string;
  priority: number;
  /** When it entered the active queue for its current attempt (PrioritySort's tie-breaker). */
  timestampMs: number;
  /** When it was first queued (for the scheduling latency of the report). */
  initialMs: number;
  attempts: number;
  /** When its last attempt failed. */
  failedAtMs: number;
  /** The move-request cycle seen when its last attempt began. */
  cycle: number;
  /** Insertion order: the final tie-breaker, so equal pods pop in a deterministic order. */
  seq: number;
}

const higher = (a: QueuedPod, b: QueuedPod) =>
  a.priority !== b.priority ? a.priority > b.priority : a.timestampMs !== b.timestampMs ? a.timestampMs < b.timestampMs : a.seq < b.seq;

/** A binary heap with lazy deletion: removed entries are skipped when they surface. */
class Heap<T> {
  #items: T[] = [];
  constructor(readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.#items.length;
  }

  push(x: T): void {
    const a = this.#items;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && this.before(a[l]!, a[m]!)) m = l;
        if (r < a.length && this.before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

type Where = 'active' | 'backoff' | 'unschedulable' | 'inFlight';

export class SchedulingQueue {
  readonly o: QueueOptions;
  readonly #active = new Heap<QueuedPod>(higher);
  readonly #backoff = new Heap<QueuedPod>((a, b) => this.backoffExpiry(a) < this.backoffExpiry(b) || (this.backoffExpiry(a) === this.backoffExpiry(b) && a.seq < b.seq));
  readonly #unschedulable = new Map<string, QueuedPod>();
  /** Where each known pod is; an entry in a heap whose key maps elsewhere (or nowhere) is stale. */
  readonly #where = new Map<string, { pod: QueuedPod; in: Where }>();
  /** Bumped by every cluster event that may make unschedulable pods fit. */
  #moveCycle = 0;
  #schedulingCycle = 0;
  #seq = 0;

  constructor(options: Partial<QueueOptions> = {}) {
    this.o = { ...defaultQueueOptions, ...options };
  }

  /** Pods waiting in the active queue (stale heap entries excluded). */
  get activeCount(): number {
    let n = 0;
    for (const e of this.#where.values()) if (e.in === 'active') n++;
    return n;
  }

  get size(): number {
    return this.#where.size;
  }

  counts(): Record<Where, number> {
    const c: Record<Where, number> = { active: 0, backoff: 0, unschedulable: 0, inFlight: 0 };
    for (const e of this.#where.values()) c[e.in]++;
    return c;
  }

  has(key: string): boolean {
    return this.#where.has(key);
  }

  /** A new pending pod (or one whose spec changed): straight to the active queue. */
  add(key: string, priority: number, nowMs: number): void {
    const known = this.#where.get(key);
    if (known) {
      if (known.in === 'inFlight' || known.in === 'active') return;
      this.#unschedulable.delete(key);
      known.pod.priority = priority;
      this.#activate(known.pod, nowMs);
      return;
    }
    const pod: QueuedPod = { key, priority, timestampMs: nowMs, initialMs: nowMs, attempts: 0, failedAtMs: 0, cycle: 0, seq: this.#seq++ };
    this.#activate(pod, nowMs);
  }

  /** A pod whose binding failed after it left the queue: back in, behind a first backoff. */
  retry(key: string, priority: number, nowMs: number): void {
    if (this.#where.has(key)) return;
    const pod: QueuedPod = { key, priority, timestampMs: nowMs, initialMs: nowMs, attempts: 1, failedAtMs: nowMs, cycle: 0, seq: this.#seq++ };
    this.#where.set(key, { pod, in: 'backoff' });
    this.#backoff.push(pod);
  }

  /** The pod was bound elsewhere or deleted: forget it wherever it is. */
  delete(key: string): void {
    this.#where.delete(key);
  }

  /** The next pod to schedule, now in flight, or undefined when the active queue is empty. */
  pop(): QueuedPod | undefined {
    for (;;) {
      const pod = this.#active.pop();
      if (!pod) return undefined;
      const e = this.#where.get(pod.key);
      if (!e || e.pod !== pod || e.in !== 'active') continue;
      e.in = 'inFlight';
      pod.attempts++;
      pod.cycle = ++this.#schedulingCycle;
      return pod;
    }
  }

  /** The attempt succeeded (the pod is assumed and binding): it leaves the queue. */
  done(key: string): void {
    this.#where.delete(key);
  }

  /**
   * The attempt failed. It goes to the backoff queue when a cluster event arrived during its
   * attempt (that event may have made it fit) or when it failed for a reason other than not
   * fitting (an error); otherwise it is parked as unschedulable.
   */
  failed(key: string, nowMs: number, unschedulable: boolean): void {
    const e = this.#where.get(key);
    if (!e) return;
    e.pod.failedAtMs = nowMs;
    if (!unschedulable || this.#moveCycle >= e.pod.cycle) {
      e.in = 'backoff';
      this.#backoff.push(e.pod);
    } else {
      e.in = 'unschedulable';
      this.#unschedulable.set(key, e.pod);
    }
  }

  /** When a failed pod may be tried again: 1 s doubling per attempt, at most 10 s. */
  backoffExpiry(pod: QueuedPod): number {
    const n = Math.max(0, pod.attempts - 1);
    const ms = Math.min(this.o.maxBackoffMs, this.o.initialBackoffMs * 2 ** Math.min(n, 30));
    return pod.failedAtMs + ms;
  }

  /** A cluster event that may make unschedulable pods fit (a node added or changed, a pod gone): move them all. */
  moveAllToActiveOrBackoff(nowMs: number): void {
    this.#moveCycle = this.#schedulingCycle;
    for (const [key, pod] of this.#unschedulable) {
      this.#unschedulable.delete(key);
      const e = this.#where.get(key);
      if (!e || e.pod !== pod || e.in !== 'unschedulable') continue;
      if (this.backoffExpiry(pod) > nowMs) {
        e.in = 'backoff';
        this.#backoff.push(pod);
      } else this.#activate(pod, nowMs);
    }
  }

  /** Moves pods whose backoff is over to the active queue, and pods parked too long out of unschedulable. */
  flush(nowMs: number): void {
    for (;;) {
      const pod = this.#backoff.peek();
      if (!pod) break;
      const e = this.#where.get(pod.key);
      if (!e || e.pod !== pod || e.in !== 'backoff') {
        this.#backoff.pop();
        continue;
      }
      if (this.backoffExpiry(pod) > nowMs) break;
      this.#backoff.pop();
      this.#activate(pod, nowMs);
    }
    for (const [key, pod] of this.#unschedulable) {
      if (nowMs - pod.failedAtMs < this.o.maxInUnschedulableMs) continue;
      this.#unschedulable.delete(key);
      const e = this.#where.get(key);
      if (e && e.pod === pod && e.in === 'unschedulable') this.#activate(pod, nowMs);
    }
  }

  #activate(pod: QueuedPod, nowMs: number): void {
    pod.timestampMs = nowMs;
    this.#where.set(pod.key, { pod, in: 'active' });
    this.#active.push(pod);
  }
}
