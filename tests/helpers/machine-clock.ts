// The clock machine tests drive: the manual clock, starting at 0 so timings read as offsets.
import { manualClock, type ManualClock } from './manual-clock.ts';

export type MachineClock = ManualClock;

export const machineClock = (startMs = 0): MachineClock => manualClock(startMs);
