// A tiny manual clock for machine tests, implementing xstate's Clock. Timers live in a binary heap
// ordered by (due time, sequence); `advance(ms)` fires every timer due on the way, setting `now` to
// each timer's due time as it fires, so a timer created inside a firing timer counts from then.
// Cancelled timers are dropped lazily when they reach the top.

export interface MachineClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): number;
  clearTimeout(id: unknown): void;
  /** Moves time forward by `ms`, firing due timers in (due, seq) order. */
  advance(ms: number): void;
  /** Timers set and not yet fired or cleared. */
  pending(): number;
}

interface Timer {
  due: number;
  seq: number;
  fn: () => void;
}

const before = (a: Timer, b: Timer) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

export function machineClock(startMs = 0): MachineClock {
  let now = startMs;
  let seq = 0;
  const heap: Timer[] = [];
  const live = new Set<number>();

  const push = (t: Timer) => {
    heap.push(t);
    for (let i = heap.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!before(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const pop = (): Timer => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  };

  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++seq;
      live.add(id);
      push({ due: now + Math.max(0, ms), seq: id, fn });
      return id;
    },
    clearTimeout(id) {
      live.delete(id as number);
    },
    advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`a machine clock cannot move backwards (asked to advance ${ms} ms)`);
      const until = now + ms;
      while (heap.length > 0 && heap[0]!.due <= until) {
        const t = pop();
        if (!live.delete(t.seq)) continue;
        now = t.due;
        t.fn();
      }
      now = until;
    },
    pending: () => live.size,
  };
}
