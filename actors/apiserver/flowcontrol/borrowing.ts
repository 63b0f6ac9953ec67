// Borrowing between priority levels, as the real controller does it every 10 seconds
// (apiserver pkg/util/flowcontrol apf_controller.go updateBorrowing, conc_alloc.go): each level's
// seat demand (seats executing plus seats waiting) is integrated over the period; its average plus
// its standard deviation, smoothed with a five-minute half-life, is the level's target; the
// server's seats are then shared in proportion to the targets, each level kept between what it may
// not lend (its nominal limit less its lendable seats) and what it may borrow up to.
import type { Clock } from '../../api/env.ts';

/** The time-weighted statistics of a value since the last reset (fairqueuing/integrator.go). */
export class Integrator {
  #x = 0;
  #since: number;
  #elapsedS = 0;
  #sumX = 0;
  #sumXX = 0;
  #max = 0;

  constructor(readonly clock: Clock) {
    this.#since = clock.now();
  }

  set(x: number): void {
    this.#accumulate();
    this.#x = x;
    if (x > this.#max) this.#max = x;
  }

  /** The average, standard deviation and maximum since the last reset; starts a new period. */
  reset(): { durationS: number; average: number; deviation: number; max: number } {
    this.#accumulate();
    const durationS = this.#elapsedS;
    const average = durationS > 0 ? this.#sumX / durationS : NaN;
    const variance = durationS > 0 ? this.#sumXX / durationS - average * average : NaN;
    const result = { durationS, average, deviation: variance >= 0 ? Math.sqrt(variance) : NaN, max: this.#max };
    this.#elapsedS = this.#sumX = this.#sumXX = 0;
    this.#max = this.#x;
    return result;
  }

  #accumulate(): void {
    const now = this.clock.now();
    const dt = (now - this.#since) / 1000;
    this.#since = now;
    this.#elapsedS += dt;
    this.#sumX += this.#x * dt;
    this.#sumXX += this.#x * this.#x * dt;
  }
}

/** Half-life of five minutes at one adjustment every 10 s. */
const SMOOTHING = 0.977;

/** A level's seat demand, as the last adjustments saw it. */
export class SeatDemand {
  highWatermark = 0;
  smoothed = 0;
  readonly integrator: Integrator;

  constructor(clock: Clock) {
    this.integrator = new Integrator(clock);
  }

  /** Closes the period: the high watermark, and the smoothed envelope (never below the latest one). */
  update(): void {
    const r = this.integrator.reset();
    this.highWatermark = Math.round(r.max);
    if (!(r.durationS > 0)) return;
    const envelope = r.average + (Number.isNaN(r.deviation) ? 0 : r.deviation);
    this.smoothed = Math.max(envelope, SMOOTHING * this.smoothed + (1 - SMOOTHING) * envelope);
  }
}

export interface AllocationItem {
  lowerBound: number;
  upperBound: number;
  /** At least lowerBound. */
  target: number;
}

const MIN_TARGET = 0.001;
const EPSILON = 1e-7;

/**
 * Shares `total` among the items in proportion to their targets (a common factor, the fair
 * proportion), each clamped to its bounds, summing to `total`. Throws when the bounds cannot
 * sum to it.
 */
export function allocate(total: number, items: readonly AllocationItem[]): number[] {
  let low = 0;
  let high = 0;
  for (const it of items) {
    if (it.lowerBound < 0 || it.target < it.lowerBound || it.upperBound < it.lowerBound) throw new RangeError(`bad allocation item ${JSON.stringify(it)}`);
    low += it.lowerBound;
    high += it.upperBound;
  }
  if (low - total > EPSILON || total - high > EPSILON) throw new RangeError(`bounds [${low}, ${high}] cannot sum to ${total}`);
  if (total === 0) return items.map(() => 0);
  if (low - total > -EPSILON) return items.map((it) => it.lowerBound);
  if (total - high > -EPSILON) return items.map((it) => it.upperBound);
  const targets = items.map((it) => Math.max(it.target, MIN_TARGET));
  const at = (p: number) => items.reduce((sum, it, i) => sum + Math.min(it.upperBound, Math.max(it.lowerBound, p * targets[i]!)), 0);
  // The sum grows with the proportion, piecewise linearly: between two consecutive breakpoints (a
  // bound divided by its target) the answer solves a linear equation.
  const breakpoints = [...new Set(items.flatMap((it, i) => [it.lowerBound / targets[i]!, it.upperBound / targets[i]!]))].sort((a, b) => a - b);
  let prev = 0;
  let prevSum = at(0);
  for (const p of breakpoints) {
    const sum = at(p);
    if (sum >= total) {
      const proportion = sum === prevSum ? p : prev + ((total - prevSum) * (p - prev)) / (sum - prevSum);
      return items.map((it, i) => Math.min(it.upperBound, Math.max(it.lowerBound, proportion * targets[i]!)));
    }
    prev = p;
    prevSum = sum;
  }
  return items.map((it) => it.upperBound);
}
