// Calendar time in an IANA time zone, the way Go's time package reads and builds it, for the
// cron schedules of CronJobs (`spec.timeZone`). Pure: instants are epoch milliseconds, the zone
// rules come from the runtime's ICU data (Intl), and nothing reads a clock. "Local", the time zone
// of the controller manager's process, is UTC here, so a schedule without a zone means the same
// on every machine and in every run.

/** A wall-clock reading: month 1..12, weekday 0 (Sunday) .. 6. */
export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly weekday: number;
}

const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

export class TimeZone {
  static readonly UTC = new TimeZone('UTC', undefined);

  readonly #format: Intl.DateTimeFormat | undefined;

  private constructor(readonly name: string, format: Intl.DateTimeFormat | undefined) {
    this.#format = format;
  }

  /**
   * The zone named `name`, or the error text Go's time.LoadLocation gives ("unknown time zone X").
   * "" and "UTC" are UTC; names are matched as spelt (a canonical name in the wrong case is unknown,
   * as a zoneinfo file of that name would be missing).
   */
  static load(name: string): TimeZone | string {
    if (name === '' || name === 'UTC') return TimeZone.UTC;
    let cached = zones.get(name);
    if (cached) return cached;
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
        hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short',
      });
    } catch {
      return `unknown time zone ${name}`;
    }
    const resolved = format.resolvedOptions().timeZone;
    if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return `unknown time zone ${name}`;
    cached = new TimeZone(name, format);
    zones.set(name, cached);
    return cached;
  }

  /** The wall clock at `ms`, whole seconds. */
  wall(ms: number): WallTime {
    const format = this.#format;
    if (!format) {
      const d = new Date(ms);
      return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(),
        minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay() };
    }
    const parts: Record<string, string> = {};
    for (const p of format.formatToParts(ms)) parts[p.type] = p.value;
    return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour),
      minute: Number(parts.minute), second: Number(parts.second), weekday: WEEKDAYS[parts.weekday!] ?? 0 };
  }

  /** The zone's offset from UTC at `ms`, in milliseconds (whole seconds). */
  offsetMs(ms: number): number {
    if (!this.#format) return 0;
    const w = this.wall(ms);
    return utc(w.year, w.month, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
  }

  /**
   * Go's time.Date in this zone: fields out of range normalize (month 13 is January of the next
   * year, day 0 the last of the month before). A wall time a transition skips or repeats takes the
   * offset Go's lookup picks: the one in force at the wall time read as UTC, unless that instant
   * less the offset falls in another period.
   */
  date(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
    const wall = utc(year, month, day, hour, minute, second);
    const first = this.offsetMs(wall);
    if (first === 0) return wall;
    const second_ = this.offsetMs(wall - first);
    return wall - (second_ !== first ? second_ : first);
  }

  /** Go's time.Time.AddDate in this zone: the wall clock moved by calendar units, normalized. */
  addDate(ms: number, months: number, days: number): number {
    const w = this.wall(ms);
    return this.date(w.year, w.month + months, w.day + days, w.hour, w.minute, w.second) + (ms - Math.floor(ms / 1000) * 1000);
  }

  /** RFC 3339 in this zone, seconds precision: `2024-05-01T10:00:00+02:00`, or `Z` for UTC (Go's time.RFC3339). */
  rfc3339(ms: number): string {
    const w = this.wall(ms);
    const offset = this.offsetMs(ms) / 1000;
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 3600))}:${pad(Math.floor((Math.abs(offset) % 3600) / 60))}`;
    return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${zone}`;
  }
}

const zones = new Map<string, TimeZone>();

/** Epoch milliseconds of a UTC calendar time; out-of-range fields normalize as in Go. */
function utc(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}
