// A usage model: how much of a resource a container uses over virtual time, as a curve a
// scenario's workload gives for its pods (sim/scenarios/README.md, "usage"). The scenario writes
// it into the pod as the `orchsim.io/usage` annotation (JSON), and the node agent reads it from
// there, so a pod carries its own model wherever its agent runs. A curve is a pure function of
// (the pod's seed, the time): nothing ticks; whoever asks evaluates it at the instant it asks for.
//   constant   { kind: constant, fraction: 0.5 } of the request, or { kind: constant, quantity: 250m } for the pod
//   uniform    { kind: uniform, min: 0.2, max: 0.8 }: a fraction drawn once per pod
//   normal     { kind: normal, mean: 0.5, stddev: 0.1, min?: 0, max? }: drawn once per pod, kept within min and max
//   daily      { kind: daily, trough: 0.2, peak: 0.9, peakHour: 14, noise?: 0.1, noiseInterval?: 5m }: a
//              diurnal cosine from trough to peak (fractions of the request), highest at peakHour
//              (UTC), times 1 ± noise drawn per pod for each noiseInterval of the day
//   step       { kind: step, before: 0.3, after: 0.9, at: 2026-01-01T00:10:00Z }: `before` until the
//              instant `at` (RFC 3339), `after` from then on, alike for every pod (a scenario writes
//              `at` as a duration after the run's start)
//   series     { kind: series, start, points: [[ms, fraction], ...], interpolation?, repeat?, factor? }:
//              recorded points replayed (usage-series.ts; a scenario reads them from a CSV file)
import { parseDuration } from '../api/duration.ts';
import { parseQuantity } from '../api/quantity.ts';
import { checkSpread, type Spread } from './usage-spread.ts';
import { checkSeries, SERIES_FIELDS, seriesAt, type SeriesCurve } from './usage-series.ts';

export const USAGE_MODEL = 'orchsim.io/usage';
export const USAGE_RESOURCES = ['cpu', 'memory'] as const;
export type UsageResource = (typeof USAGE_RESOURCES)[number];

/** A resource's curve as written (quantities and durations as text), checked by `checkUsageModel`. */
export type UsageCurve =
  | { kind: 'constant'; fraction?: number; quantity?: string }
  | { kind: 'uniform'; min: number; max: number }
  | { kind: 'normal'; mean: number; stddev: number; min?: number; max?: number }
  | { kind: 'daily'; trough: number; peak: number; peakHour: number; noise?: number; noiseInterval?: string }
  | { kind: 'step'; before: number; after: number; at: string }
  | SeriesCurve;

export type UsageModel = Partial<Record<UsageResource, UsageCurve>> & { spread?: Spread };

/** Where a model breaks a rule: `path` from the model's root (`cpu.peak`), and the rule. */
export class UsageModelError extends Error {
  override readonly name = 'UsageModelError';
  constructor(readonly path: string, readonly rule: string) {
    super(`${path}: ${rule}`);
  }
}

const FIELDS: Record<UsageCurve['kind'], readonly string[]> = {
  constant: ['kind', 'fraction', 'quantity'],
  uniform: ['kind', 'min', 'max'],
  normal: ['kind', 'mean', 'stddev', 'min', 'max'],
  daily: ['kind', 'trough', 'peak', 'peakHour', 'noise', 'noiseInterval'],
  step: ['kind', 'before', 'after', 'at'],
  series: SERIES_FIELDS,
};
const KINDS = Object.keys(FIELDS);
const FRACTION_MAX = 100;
const DEFAULT_NOISE_INTERVAL = '5m';

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a model read from YAML or JSON; throws a UsageModelError naming the first field that breaks a rule. */
export function checkUsageModel(value: unknown): UsageModel {
  if (!isMapping(value)) throw new UsageModelError('', 'must be a mapping of cpu and/or memory to a curve, such as { cpu: { kind: constant, fraction: 0.5 } }');
  for (const key of Object.keys(value))
    if (key !== 'spread' && !(USAGE_RESOURCES as readonly string[]).includes(key)) throw new UsageModelError(key, `unknown resource; allowed: ${USAGE_RESOURCES.join(', ')}, or spread`);
  for (const r of USAGE_RESOURCES) if (value[r] !== undefined) checkCurve(value[r], r);
  if (value.spread !== undefined) checkSpread(value.spread, 'spread');
  return value as UsageModel;
}

function checkCurve(v: unknown, path: string): void {
  if (!isMapping(v)) throw new UsageModelError(path, `must be a mapping with a kind: ${KINDS.join(', ')}`);
  const kind = v.kind;
  if (typeof kind !== 'string' || !(kind in FIELDS)) throw new UsageModelError(`${path}.kind`, `must be one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
  const allowed = FIELDS[kind as UsageCurve['kind']];
  for (const key of Object.keys(v))
    if (!allowed.includes(key)) throw new UsageModelError(`${path}.${key}`, `unknown field for kind ${kind}; allowed fields: ${allowed.join(', ')}`);
  const fraction = (key: string, required: boolean): number | undefined => {
    const x = v[key];
    if (x === undefined) {
      if (required) throw new UsageModelError(`${path}.${key}`, `is required for kind ${kind}`);
      return undefined;
    }
    if (typeof x !== 'number' || !(x >= 0 && x <= FRACTION_MAX))
      throw new UsageModelError(`${path}.${key}`, `must be a fraction of the request from 0 to ${FRACTION_MAX}, got ${JSON.stringify(x)}`);
    return x;
  };
  const ordered = (low: string, lowValue: number | undefined, high: string, highValue: number | undefined) => {
    if (lowValue !== undefined && highValue !== undefined && lowValue > highValue)
      throw new UsageModelError(`${path}.${high}`, `must not be below ${low} (${lowValue}), got ${highValue}`);
  };
  switch (kind) {
    case 'constant': {
      const given = ['fraction', 'quantity'].filter((k) => v[k] !== undefined);
      if (given.length !== 1) throw new UsageModelError(path, 'kind constant takes exactly one of fraction (of the request) or quantity (for the pod)');
      if (given[0] === 'fraction') fraction('fraction', true);
      else checkQuantity(v.quantity, `${path}.quantity`);
      return;
    }
    case 'uniform':
      return ordered('min', fraction('min', true), 'max', fraction('max', true));
    case 'normal': {
      fraction('mean', true);
      fraction('stddev', true);
      return ordered('min', fraction('min', false), 'max', fraction('max', false));
    }
    case 'daily': {
      ordered('trough', fraction('trough', true), 'peak', fraction('peak', true));
      const hour = v.peakHour;
      if (typeof hour !== 'number' || !(hour >= 0 && hour < 24)) throw new UsageModelError(`${path}.peakHour`, `must be an hour of the day from 0 to below 24 (UTC), got ${JSON.stringify(hour)}`);
      const noise = v.noise;
      if (noise !== undefined && (typeof noise !== 'number' || !(noise >= 0 && noise <= 1)))
        throw new UsageModelError(`${path}.noise`, `must be a number from 0 to 1 (the curve times 1 ± noise), got ${JSON.stringify(noise)}`);
      if (v.noiseInterval !== undefined) noiseIntervalMs(v.noiseInterval, `${path}.noiseInterval`);
      return;
    }
    case 'step':
      fraction('before', true);
      fraction('after', true);
      stepAtMs(v.at, `${path}.at`);
      return;
    case 'series':
      stepAtMs(v.start, `${path}.start`);
      checkSeries(v, path, FRACTION_MAX);
      if (v.factor !== undefined) checkCurve(v.factor, `${path}.factor`);
      return;
  }
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant of a step's `at` or a series' `start`: an RFC 3339 time, as Kubernetes writes times. */
function stepAtMs(x: unknown, path: string): number {
  const ms = typeof x === 'string' && RFC3339.test(x) ? Date.parse(x) : NaN;
  if (!Number.isFinite(ms)) throw new UsageModelError(path, `must be an RFC 3339 time such as 2026-01-01T00:10:00Z, got ${JSON.stringify(x)}`);
  return ms;
}

function checkQuantity(x: unknown, path: string): void {
  const bad = () => new UsageModelError(path, `must be a quantity such as 250m or 512Mi, got ${JSON.stringify(x)}`);
  if (typeof x !== 'string' && typeof x !== 'number') throw bad();
  let n: number;
  try {
    n = parseQuantity(x);
  } catch {
    throw bad();
  }
  if (!(n >= 0)) throw new UsageModelError(path, `must not be negative, got ${JSON.stringify(x)}`);
}

function noiseIntervalMs(x: unknown, path: string): number {
  let ms = NaN;
  try {
    if (typeof x === 'string') ms = parseDuration(x);
  } catch { /* reported below */ }
  if (!(ms >= 1000)) throw new UsageModelError(path, `must be a duration of at least 1s, such as 5m, got ${JSON.stringify(x)}`);
  return ms;
}

/** A curve ready to evaluate for one pod: the fraction of the request (or the pod's quantity) at a time. */
export interface Curve {
  /** `fraction`: times each container's request; `quantity`: the pod's total, in cores or bytes. */
  of: 'fraction' | 'quantity';
  at(atMs: number): number;
  /** The most `at` ever answers: a bound for memory-pressure checks. */
  max: number;
}

/** The curve of `c` for the pod whose draws come from `seed` (a hash of its uid). */
export function curveFor(c: UsageCurve, seed: number): Curve {
  switch (c.kind) {
    case 'constant': {
      const value = c.fraction ?? parseQuantity(c.quantity!);
      return { of: c.fraction !== undefined ? 'fraction' : 'quantity', at: () => value, max: value };
    }
    case 'uniform': {
      const value = c.min + (c.max - c.min) * unitHash(seed, 0);
      return { of: 'fraction', at: () => value, max: value };
    }
    case 'normal': {
      // Box-Muller from two of the pod's draws.
      const z = Math.sqrt(-2 * Math.log(1 - unitHash(seed, 0))) * Math.cos(2 * Math.PI * unitHash(seed, 1));
      const value = Math.min(c.max ?? Infinity, Math.max(c.min ?? 0, c.mean + c.stddev * z));
      return { of: 'fraction', at: () => value, max: value };
    }
    case 'daily':
      return dailyCurve(c, seed);
    case 'step': {
      const atMs = stepAtMs(c.at, 'at');
      return { of: 'fraction', at: (t) => (t < atMs ? c.before : c.after), max: Math.max(c.before, c.after) };
    }
    case 'series': {
      // The factor's own draw, apart from any the series might make: the same pod, another stream.
      const factor = c.factor ? curveFor(c.factor as UsageCurve, seed ^ 0x66616374).at(0) : 1;
      return { of: 'fraction', ...seriesAt(c, stepAtMs(c.start, 'start'), factor) };
    }
  }
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

function dailyCurve(c: Extract<UsageCurve, { kind: 'daily' }>, seed: number): Curve {
  const noise = c.noise ?? 0;
  const intervalMs = noiseIntervalMs(c.noiseInterval ?? DEFAULT_NOISE_INTERVAL, 'noiseInterval');
  const at = (atMs: number) => {
    const hours = (((atMs % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
    const shape = (1 + Math.cos((2 * Math.PI * (hours - c.peakHour)) / 24)) / 2;
    const base = c.trough + (c.peak - c.trough) * shape;
    if (noise === 0) return base;
    // The noise of a grid cell is the pod's draw for that cell: the same whenever it is asked.
    const cell = Math.floor(atMs / intervalMs);
    return Math.max(0, base * (1 + noise * (2 * unitHash(seed, cell) - 1)));
  };
  return { of: 'fraction', at, max: c.peak * (1 + noise) };
}

/** A pod's seed: FNV-1a of its uid. */
export function podSeed(uid: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < uid.length; i++) {
    h ^= uid.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A number in [0, 1) that depends only on (seed, n): a stateless draw (splitmix32's finaliser). */
export function unitHash(seed: number, n: number): number {
  let h = (seed ^ Math.imul((n | 0) + 0x9e3779b9, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x21f0aaad);
  h = Math.imul(h ^ (h >>> 15), 0x735a2d97);
  return ((h ^ (h >>> 15)) >>> 0) / 4294967296;
}
