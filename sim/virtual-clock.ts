// The simulator's clock: virtual time that moves only when told to, jumping from timer to timer.
// Timers sit in a binary heap ordered by (due time, sequence), so timers due at the same instant
// fire in the order they were set. Firing a timer first sets `now` to its due time, so a timer
// set inside a firing timer counts from that due time, not from wherever an `advanceTo` is
// heading (the bug of xstate's SimulatedClock). Time never moves backwards.
import type { Clock } from '../actors/api/env.ts';

/** A `Clock` (ours and xstate's) whose time is moved by the simulator. */
export interface VirtualClock extends Clock {
  /** Timers set and neither fired nor cleared. */
  readonly pending: number;
  /** Due time of the next timer to fire, or undefined when none is pending. */
  next(): number | undefined;
  /**
   * Fires the next timer if it falls due at or before `untilMs`, first moving `now` to its due
   * time; returns whether one fired. The kernel's single step.
   */
  fireNext(untilMs?: number): boolean;
  /** Fires every timer due at or before `ms`, in order, then sets `now` to `ms`. Returns how many fired. */
  advanceTo(ms: number): number;
  /** The same as `advanceTo`. */
  runUntil(ms: number): number;
}

/** A timer; also the handle `setTimeout` returns. Cleared timers stay in the heap, skipped when they surface. */
class Timer {
  constructor(
    readonly due: number,
    readonly seq: number,
    public fn: (() => void) | undefined,
  ) {}
}

const before = (a: Timer, b: Timer) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

/** A min-heap of timers by (due, seq). */
class TimerHeap {
  items: Timer[] = [];

  push(t: Timer): void {
    const h = this.items;
    let i = h.push(t) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(t, h[parent])) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = t;
  }

  pop(): Timer | undefined {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) this.#siftDown(0, last);
    return top;
  }

  /** Drops cleared timers and restores heap order, in O(n). */
  compact(): void {
    this.items = this.items.filter((t) => t.fn !== undefined);
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.#siftDown(i, this.items[i]);
  }

  #siftDown(i: number, t: Timer): void {
    const h = this.items;
    const n = h.length;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(h[child + 1], h[child])) child++;
      if (!before(h[child], t)) break;
      h[i] = h[child];
      i = child;
    }
    h[i] = t;
  }
}

/** Compact once cleared timers outnumber live ones (and are many), so clearing stays amortised O(log n). */
const COMPACT_MIN = 1024;

/**
 * A virtual clock starting at `startMs` (epoch milliseconds). `setTimeout` with a negative or
 * NaN delay counts as 0 (due now, after timers already due now); an infinite delay never fires.
 */
/** Where a run's virtual time starts unless told otherwise: midnight UTC, so daily curves begin at their hour 0. */
export const VIRTUAL_EPOCH_MS = Date.UTC(2026, 0, 1);

export function virtualClock(startMs = VIRTUAL_EPOCH_MS): VirtualClock {
  if (!Number.isFinite(startMs)) throw new RangeError(`a virtual clock must start at a finite time, got ${startMs}`);
  let now = startMs;
  let seq = 0;
  let live = 0;
  let cleared = 0; // cleared timers still in the heap
  let firing = false;
  const heap = new TimerHeap();

  /** The next live timer, skipping (and dropping) cleared ones. */
  const peek = (): Timer | undefined => {
    const h = heap.items;
    while (h.length > 0 && h[0].fn === undefined) {
      heap.pop();
      cleared--;
    }
    return h[0];
  };

  const fireNext = (untilMs = Infinity): boolean => {
    const t = peek();
    if (!t || t.due > untilMs) return false;
    heap.pop();
    live--;
    const fn = t.fn!;
    t.fn = undefined;
    now = t.due;
    fn();
    return true;
  };

  const advanceTo = (ms: number): number => {
    if (Number.isNaN(ms) || ms < now) throw new RangeError(`virtual time cannot move backwards: it is ${now} ms, asked to move to ${ms} ms`);
    if (firing) throw new Error(`advanceTo(${ms}) called from inside a firing timer at ${now} ms; timers may set timers, not move time`);
    firing = true;
    let fired = 0;
    try {
      while (fireNext(ms)) fired++;
    } finally {
      firing = false;
    }
    if (Number.isFinite(ms)) now = ms;
    return fired;
  };

  return {
    now: () => now,
    get pending() {
      return live;
    },
    setTimeout(fn, ms) {
      const delay = ms > 0 ? ms : 0;
      const t = new Timer(now + delay, seq++, fn);
      heap.push(t);
      live++;
      return t;
    },
    clearTimeout(handle) {
      if (!(handle instanceof Timer) || handle.fn === undefined) return; // fired, cleared, or not ours
      handle.fn = undefined;
      live--;
      cleared++;
      if (cleared > COMPACT_MIN && cleared > live) {
        heap.compact();
        cleared = 0;
      }
    },
    next: () => peek()?.due,
    fireNext,
    advanceTo,
    runUntil: advanceTo,
  };
}
