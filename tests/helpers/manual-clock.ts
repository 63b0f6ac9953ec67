// A clock that moves only when a test says so: the simulator's virtual clock, moved by relative
// steps. Timers fire in (due time, sequence) order as `advance` passes them.
import type { Clock } from '../../actors/api/env.ts';
import { virtualClock } from '../../sim/virtual-clock.ts';

export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing every timer that falls due on the way, in order. */
  advance(ms: number): void;
  /** Fires the next timer if it falls due within `ms`, moving time to it; otherwise moves time by `ms` and answers false. */
  step(ms: number): boolean;
  /** Timers set and not yet fired or cleared. */
  pending(): number;
}

export function manualClock(startMs = Date.UTC(2026, 0, 1)): ManualClock {
  const clock = virtualClock(startMs);
  return {
    now: () => clock.now(),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (handle) => clock.clearTimeout(handle),
    advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`a manual clock cannot move backwards (asked to advance ${ms} ms)`);
      clock.advanceTo(clock.now() + ms);
    },
    step(ms) {
      const until = clock.now() + ms;
      if (clock.fireNext(until)) return true;
      clock.advanceTo(until);
      return false;
    },
    pending: () => clock.pending,
  };
}
