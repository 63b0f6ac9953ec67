// Clocks. The wall clock serves `orchsim serve` and multi-process mode; the virtual clock
// (the simulator's) lands with the kernel. Both implement the actors' `Clock`.
import type { Clock } from '../actors/api/env.ts';

/** Real time, optionally sped up: `speed` 10 makes a 10 s timer fire after 1 s. */
export function wallClock(speed = 1): Clock {
  if (!(speed > 0)) throw new RangeError(`clock speed must be positive, got ${speed}`);
  const origin = Date.now();
  return {
    now: () => (speed === 1 ? Date.now() : origin + (Date.now() - origin) * speed),
    setTimeout: (fn, ms) => setTimeout(fn, ms / speed),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
}
