// Cron schedules as CronJobs read them: github.com/robfig/cron/v3's ParseStandard, which the API
// server validates `spec.schedule` with and the CronJob controller schedules by. Five fields
// (minute, hour, day of month, month, day of week), each a comma-separated list of `*`, `?`, `N`,
// `N-M`, with an optional `/step` (`N/step` meaning N to the end); months and days of week by
// number or by three-letter name in any case (days of week 0-6, Sunday 0); the descriptors
// @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly and `@every <duration>`; a
// leading `TZ=<zone>` or `CRON_TZ=<zone>`. Error texts are the library's. When neither day field
// is `*` (or `?`), a day matches if either does; otherwise both must.
import { parseDuration } from './duration.ts';
import { TimeZone } from './time-zone.ts';

/** A schedule's next activation strictly after an instant, in epoch milliseconds. */
export interface CronSchedule {
  /** NEVER when none comes within five years (Go's zero time). */
  next(afterMs: number): number;
}

/** Go's zero time.Time (0001-01-01T00:00:00Z), which Next returns for a schedule that never fires. */
export const NEVER = -62_135_596_800_000;

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/** The values a field allows, and whether it was written `*` or `?` (which decides how day fields combine). */
interface FieldSet {
  readonly on: readonly boolean[];
  readonly star: boolean;
}

/** Parses a schedule; a string is the error. */
export function parseCron(spec: string): CronSchedule | string {
  if (spec.length === 0) return 'empty spec string';
  let zone = TimeZone.UTC;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const end = space < 0 ? spec.length : space;
    const name = spec.slice(spec.indexOf('=') + 1, end);
    const loaded = TimeZone.load(name);
    if (typeof loaded === 'string') return `provided bad location ${name}: ${loaded}`;
    zone = loaded;
    spec = spec.slice(end).trim();
  }
  if (spec.startsWith('@')) return descriptor(spec, zone);
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  const parsed: FieldSet[] = [];
  const bounds = [MINUTES, HOURS, DOM, MONTHS, DOW];
  for (let i = 0; i < 5; i++) {
    const f = field(fields[i]!, bounds[i]!);
    if (typeof f === 'string') return f;
    parsed.push(f);
  }
  const [minute, hour, dom, month, dow] = parsed as [FieldSet, FieldSet, FieldSet, FieldSet, FieldSet];
  return new SpecSchedule(only(0, 59), minute, hour, dom, month, dow, zone);
}

/** A field: a comma-separated list of ranges, empty ones skipped. */
function field(text: string, r: Bounds): FieldSet | string {
  const on = new Array<boolean>(r.max + 1).fill(false);
  let star = false;
  for (const expr of text.split(',')) {
    if (expr === '') continue;
    const range = parseRange(expr, r);
    if (typeof range === 'string') return range;
    for (let v = range.start; v <= range.end; v += range.step) on[v] = true;
    star ||= range.star;
  }
  return { on, star };
}

/** `number | number "-" number [ "/" number ]`, or `*`/`?` with an optional step. */
function parseRange(expr: string, r: Bounds): { start: number; end: number; step: number; star: boolean } | string {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const single = lowAndHigh.length === 1;
  let start: number | string, end: number | string;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    [start, end, star] = [r.min, r.max, true];
  } else {
    start = intOrName(lowAndHigh[0]!, r.names);
    if (typeof start === 'string') return start;
    if (lowAndHigh.length > 2) return `too many hyphens: ${expr}`;
    end = single ? start : intOrName(lowAndHigh[1]!, r.names);
    if (typeof end === 'string') return end;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const s = nonNegativeInt(rangeAndStep[1]!);
    if (typeof s === 'string') return s;
    step = s;
    if (single) end = r.max; // "N/step" means N to the end
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < r.min) return `beginning of range (${start}) below minimum (${r.min}): ${expr}`;
  if (end > r.max) return `end of range (${end}) above maximum (${r.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  return { start, end, step, star };
}

function intOrName(expr: string, names: Bounds['names']): number | string {
  const named = names?.[expr.toLowerCase()];
  return named ?? nonNegativeInt(expr);
}

const INT64_MAX = 9_223_372_036_854_775_807n;

/** strconv.Atoi, refusing negatives, with the library's messages. */
function nonNegativeInt(expr: string): number | string {
  const quoted = JSON.stringify(expr);
  if (!/^[+-]?\d+$/.test(expr)) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${quoted}: invalid syntax`;
  const big = BigInt(expr);
  if (big > INT64_MAX || big < -INT64_MAX - 1n) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${quoted}: value out of range`;
  if (big < 0n) return `negative number (${big}) not allowed: ${expr}`;
  return Number(big);
}

const only = (min: number, max: number, value = min): FieldSet => {
  const on = new Array<boolean>(max + 1).fill(false);
  on[value] = true;
  return { on, star: false };
};
const all = (r: Bounds): FieldSet => ({ on: new Array<boolean>(r.max + 1).fill(true).map((_, i) => i >= r.min), star: true });

function descriptor(spec: string, zone: TimeZone): CronSchedule | string {
  const zero = only(0, 59), midnight = only(0, 23), first = only(1, 31), january = only(1, 12), sunday = only(0, 6);
  switch (spec) {
    case '@yearly':
    case '@annually': return new SpecSchedule(zero, zero, midnight, first, january, all(DOW), zone);
    case '@monthly': return new SpecSchedule(zero, zero, midnight, first, all(MONTHS), all(DOW), zone);
    case '@weekly': return new SpecSchedule(zero, zero, midnight, all(DOM), all(MONTHS), sunday, zone);
    case '@daily':
    case '@midnight': return new SpecSchedule(zero, zero, midnight, all(DOM), all(MONTHS), all(DOW), zone);
    case '@hourly': return new SpecSchedule(zero, zero, all(HOURS), all(DOM), all(MONTHS), all(DOW), zone);
  }
  const every = '@every ';
  if (spec.startsWith(every)) {
    const text = spec.slice(every.length);
    let ms: number;
    try {
      ms = parseDuration(text);
    } catch {
      return `failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(text)}`;
    }
    return new EverySchedule(ms);
  }
  return `unrecognized descriptor: ${spec}`;
}

/** `@every`: a constant delay, whole seconds and at least one, counted from the start of the second. */
class EverySchedule implements CronSchedule {
  readonly #delayMs: number;

  constructor(ms: number) {
    const atLeast = Math.max(ms, 1000);
    this.#delayMs = atLeast - (atLeast % 1000);
  }

  next(afterMs: number): number {
    return afterMs + this.#delayMs - (((afterMs % 1000) + 1000) % 1000);
  }
}

const HOUR_MS = 3_600_000;

/** Fields matched against the wall clock of the schedule's zone, as robfig's SpecSchedule.Next walks them. */
class SpecSchedule implements CronSchedule {
  constructor(readonly second: FieldSet, readonly minute: FieldSet, readonly hour: FieldSet, readonly dom: FieldSet,
    readonly month: FieldSet, readonly dow: FieldSet, readonly zone: TimeZone) {}

  #dayMatches(day: number, weekday: number): boolean {
    const domMatch = this.dom.on[day] === true, dowMatch = this.dow.on[weekday] === true;
    return this.dom.star || this.dow.star ? domMatch && dowMatch : domMatch || dowMatch;
  }

  /**
   * From the next whole second, each field in turn is moved forward until it matches, the finer
   * fields reset to their start the first time one moves; a field wrapping around starts over
   * from the month. Days move by calendar date, and a midnight a transition skips is put back on
   * the day. Nothing within five years: NEVER.
   */
  next(afterMs: number): number {
    const z = this.zone;
    let t = Math.floor(afterMs / 1000) * 1000 + 1000;
    let added = false;
    const yearLimit = z.wall(t).year + 5;
    wrap: for (;;) {
      let w = z.wall(t);
      if (w.year > yearLimit) return NEVER;
      while (!this.month.on[w.month]) {
        if (!added) [added, t] = [true, z.date(w.year, w.month, 1)];
        t = z.addDate(t, 1, 0);
        w = z.wall(t);
        if (w.month === 1) continue wrap;
      }
      while (!this.#dayMatches(w.day, w.weekday)) {
        if (!added) [added, t] = [true, z.date(w.year, w.month, w.day)];
        t = z.addDate(t, 0, 1);
        w = z.wall(t);
        if (w.hour !== 0) {
          t += (w.hour > 12 ? 24 - w.hour : -w.hour) * HOUR_MS;
          w = z.wall(t);
        }
        if (w.day === 1) continue wrap;
      }
      while (!this.hour.on[w.hour]) {
        if (!added) [added, t] = [true, z.date(w.year, w.month, w.day, w.hour)];
        t += HOUR_MS;
        w = z.wall(t);
        if (w.hour === 0) continue wrap;
      }
      while (!this.minute.on[w.minute]) {
        if (!added) [added, t] = [true, Math.floor(t / 60_000) * 60_000];
        t += 60_000;
        w = z.wall(t);
        if (w.minute === 0) continue wrap;
      }
      while (!this.second.on[w.second]) {
        if (!added) [added, t] = [true, Math.floor(t / 1000) * 1000];
        t += 1000;
        w = z.wall(t);
        if (w.second === 0) continue wrap;
      }
      return t;
    }
  }
}
