// Where a chart's axes put their ticks. Values get "nice" steps (1, 2 or 5 × 10^k) and the domain
// widens to the outer ticks; time gets clock-friendly steps (5 s, 15 s, 1 m, 30 m, 6 h...) inside
// the domain. Both cope with empty, flat and non-finite input and return a bounded number of ticks.

export interface ValueTicks {
  min: number;
  max: number;
  step: number;
  ticks: number[];
}

export interface TimeTicks {
  stepMs: number;
  ticksMs: number[];
}

const MAX_TICKS = 50;

/** Floating-point noise off a tick value: 0.30000000000000004 → 0.3. */
function clean(value: number): number {
  return Number(value.toPrecision(12));
}

/**
 * About `target` ticks covering [min, max]; a flat or missing range becomes [0, 1] or [v, 2v].
 * Steps are at least `minStep` (1 for whole things, such as nodes: no tick between two).
 */
export function niceTicks(min: number, max: number, target = 5, minStep = 0): ValueTicks {
  let lo = Number.isFinite(min) ? min : 0;
  let hi = Number.isFinite(max) ? max : lo;
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) hi = lo + (Math.abs(lo) || 1);
  const raw = (hi - lo) / Math.max(1, target);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  const step = Math.max(minStep, (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude);
  const first = Math.floor(lo / step) * step;
  const last = Math.ceil(hi / step) * step;
  const count = Math.min(MAX_TICKS, Math.round((last - first) / step) + 1);
  const ticks = Array.from({ length: count }, (_, i) => clean(first + i * step));
  return { min: clean(first), max: ticks[ticks.length - 1] ?? clean(last), step, ticks };
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIME_STEPS_MS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500,
  SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 30 * SECOND,
  MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE,
  HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY,
];

/** Ticks at multiples of a clock-friendly step, at most about `target` of them, inside [minMs, maxMs]. */
export function timeTicks(minMs: number, maxMs: number, target = 6): TimeTicks {
  const lo = Number.isFinite(minMs) ? minMs : 0;
  const hi = Number.isFinite(maxMs) && maxMs > lo ? maxMs : lo + SECOND;
  const wanted = (hi - lo) / Math.max(1, target);
  let stepMs = TIME_STEPS_MS.find((s) => s >= wanted);
  if (stepMs === undefined) stepMs = Math.ceil(wanted / DAY) * DAY;
  const ticksMs: number[] = [];
  for (let t = Math.ceil(lo / stepMs) * stepMs; t <= hi && ticksMs.length < MAX_TICKS; t += stepMs) ticksMs.push(clean(t));
  return { stepMs, ticksMs };
}

/** Digits after the seconds that tell ticks `stepMs` apart: 0 from one second on. */
export function clockDigits(stepMs: number): number {
  if (stepMs >= SECOND) return 0;
  if (stepMs >= 100) return 1;
  if (stepMs >= 10) return 2;
  return 3;
}
