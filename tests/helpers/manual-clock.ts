// A clock that moves only when a test says so: timers fire in (due time, sequence) order as
// `advance` passes them, and time never goes backwards.
import type { Clock } from '../../actors/api/env.ts';

export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing every timer that falls due on the way, in order. */
  advance(ms: number): void;
}

interface Timer {
  due: number;
  seq: number;
  fn: () => void;
}

export function manualClock(startMs = Date.UTC(2026, 0, 1)): ManualClock {
  let now = startMs;
  let seq = 0;
  const timers = new Map<number, Timer>();
  const nextDue = (until: number): Timer | undefined => {
    let first: Timer | undefined;
    for (const t of timers.values())
      if (t.due <= until && (!first || t.due < first.due || (t.due === first.due && t.seq < first.seq))) first = t;
    return first;
  };
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++seq;
      timers.set(id, { due: now + Math.max(0, ms), seq: id, fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`a manual clock cannot move backwards (asked to advance ${ms} ms)`);
      const until = now + ms;
      for (let t = nextDue(until); t; t = nextDue(until)) {
        timers.delete(t.seq);
        now = t.due;
        t.fn();
      }
      now = until;
    },
  };
}
