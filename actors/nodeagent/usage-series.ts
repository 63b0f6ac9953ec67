// A usage series: a resource's use replayed from recorded points, the `series` kind of a usage
// model (usage-model.ts). The scenario reads it from a CSV file (sim/scenario/usage-series.ts) and
// writes the points themselves into the pod's model, so the agent needs no file:
//   { kind: series, start: 2026-01-01T00:00:00Z, points: [[0, 0.3], [3600000, 0.5], ...],
//     interpolation?: step | linear, repeat?: true, factor?: { kind: uniform, min: 0.8, max: 1.2 } }
// `points` are [milliseconds after `start`, fraction of the request], their times strictly
// increasing. Before the first point the first value holds, after the last the last (step) or the
// last (linear: no point beyond to move toward). With `repeat` the series loops every day from
// `start`, its points within that first day, and linear interpolation wraps from the last point
// to the first at the day's end. `factor` (a constant fraction, uniform or normal curve) is drawn
// once per pod and scales the whole series.
import { UsageModelError } from './usage-model.ts';

export const SERIES_FIELDS = ['kind', 'start', 'points', 'interpolation', 'repeat', 'factor'] as const;
export const INTERPOLATIONS = ['step', 'linear'] as const;
export const SERIES_POINTS_MAX = 100_000;
export const DAY_MS = 86_400_000;
/** The curves a factor may be: one number per pod. */
export const FACTOR_KINDS = ['constant', 'uniform', 'normal'] as const;

export interface SeriesCurve {
  kind: 'series';
  /** RFC 3339: the instant the points' times count from. */
  start: string;
  points: [number, number][];
  interpolation?: (typeof INTERPOLATIONS)[number];
  repeat?: boolean;
  factor?: { kind: (typeof FACTOR_KINDS)[number]; [field: string]: unknown };
}

/** Checks a series' own fields (not `start` nor `factor`'s curve, which usage-model.ts checks as it checks any). */
export function checkSeries(v: Record<string, unknown>, path: string, fractionMax: number): void {
  const points = v.points;
  if (!Array.isArray(points) || points.length === 0 || points.length > SERIES_POINTS_MAX)
    throw new UsageModelError(`${path}.points`, `must be a list of 1 to ${SERIES_POINTS_MAX} points [milliseconds after start, fraction]`);
  let previous = -1;
  points.forEach((p: unknown, i) => {
    const at = `${path}.points[${i}]`;
    if (!Array.isArray(p) || p.length !== 2 || !p.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new UsageModelError(at, `must be a pair of numbers [milliseconds after start, fraction], got ${JSON.stringify(p)}`);
    const [t, value] = p as [number, number];
    if (!(t > previous)) throw new UsageModelError(at, `its time must be at least 0 and after the point before's, got ${t}`);
    if (v.repeat === true && t >= DAY_MS) throw new UsageModelError(at, `its time must be within the first day (below ${DAY_MS} ms) when the series repeats daily, got ${t}`);
    if (!(value >= 0 && value <= fractionMax)) throw new UsageModelError(at, `its value must be a fraction of the request from 0 to ${fractionMax}, got ${value}`);
    previous = t;
  });
  if (v.interpolation !== undefined && !(INTERPOLATIONS as readonly unknown[]).includes(v.interpolation))
    throw new UsageModelError(`${path}.interpolation`, `must be one of ${INTERPOLATIONS.join(', ')}, got ${JSON.stringify(v.interpolation)}`);
  if (v.repeat !== undefined && typeof v.repeat !== 'boolean') throw new UsageModelError(`${path}.repeat`, `must be true or false, got ${JSON.stringify(v.repeat)}`);
  const factor = v.factor;
  if (factor !== undefined && !(typeof factor === 'object' && factor !== null && (FACTOR_KINDS as readonly unknown[]).includes((factor as { kind?: unknown }).kind)))
    throw new UsageModelError(`${path}.factor`, `must be a curve of kind ${FACTOR_KINDS.join(', ')} (a fraction drawn once per pod)`);
  if (factor !== undefined && (factor as { quantity?: unknown }).quantity !== undefined)
    throw new UsageModelError(`${path}.factor.quantity`, 'a factor is a fraction (constant takes fraction here), not a quantity');
}

/** The series' fraction at `atMs`, times the pod's `factor`; `startMs` the instant of `start`. */
export function seriesAt(c: SeriesCurve, startMs: number, factor: number): { at: (atMs: number) => number; max: number } {
  const times = c.points.map((p) => p[0]);
  const values = c.points.map((p) => p[1] * factor);
  const linear = c.interpolation === 'linear';
  const last = times.length - 1;
  const at = (atMs: number): number => {
    let t = atMs - startMs;
    if (c.repeat) t = ((t % DAY_MS) + DAY_MS) % DAY_MS;
    if (t < times[0]!) {
      if (!(c.repeat && linear)) return values[0]!;
      return between(times[last]! - DAY_MS, values[last]!, times[0]!, values[0]!, t); // wraps from the day before
    }
    const i = lastAtOrBefore(times, t);
    if (!linear) return values[i]!;
    if (i < last) return between(times[i]!, values[i]!, times[i + 1]!, values[i + 1]!, t);
    return c.repeat ? between(times[last]!, values[last]!, times[0]! + DAY_MS, values[0]!, t) : values[last]!;
  };
  return { at, max: values.reduce((a, b) => Math.max(a, b), 0) };
}

const between = (t0: number, v0: number, t1: number, v1: number, t: number) => v0 + ((v1 - v0) * (t - t0)) / (t1 - t0);

/** The index of the last time at or before `t` (the first is at or before it). */
function lastAtOrBefore(times: readonly number[], t: number): number {
  let lo = 0, hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
