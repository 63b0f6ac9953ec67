// How the report writes numbers, durations and lists for people: compact, locale-free (the same
// input always gives the same text), and never "NaN" or "Infinity": a value that is not a finite
// number prints as an en dash.

const MISSING = '–';
const SI_SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P'];

/** "1.50" → "1.5", "2.0" → "2"; leaves integers alone. */
function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** A non-negative number below 1000 with about three significant digits. */
function small(abs: number): string {
  if (Number.isInteger(abs)) return String(abs);
  if (abs >= 100) return abs.toFixed(0);
  if (abs >= 10) return trimZeros(abs.toFixed(1));
  if (abs >= 1) return trimZeros(abs.toFixed(2));
  return String(Number(abs.toPrecision(2)));
}

/** 999 → "999", 1234 → "1.2k", 3_400_000 → "3.4M", 0.051 → "0.051". */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return MISSING;
  const sign = n < 0 ? '-' : '';
  let value = Math.abs(n);
  // 999.7 would round to "1000": print it as "1k" instead.
  if (value < 999.5 || (value < 1000 && Number.isInteger(value))) return sign + small(value);
  let unit = 0;
  while (value >= 1000 && unit < SI_SUFFIXES.length - 1) {
    value /= 1000;
    unit++;
  }
  let text = value.toFixed(value < 100 ? 1 : 0);
  if (Number(text) >= 1000 && unit < SI_SUFFIXES.length - 1) {
    value /= 1000;
    unit++;
    text = value.toFixed(1);
  }
  return sign + trimZeros(text) + SI_SUFFIXES[unit];
}

/** Exact, with thousands separated by commas: 1234567 → "1,234,567". Fractions keep two digits at most. */
export function formatInteger(n: number): string {
  if (!Number.isFinite(n)) return MISSING;
  const text = Number.isInteger(n) ? String(Math.abs(n)) : trimZeros(Math.abs(n).toFixed(2));
  const [whole = '', fraction] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (n < 0 ? '-' : '') + grouped + (fraction ? `.${fraction}` : '');
}

const DURATION_UNITS: [sizeMs: number, suffix: string][] = [
  [1, 'ms'],
  [1000, 's'],
  [60_000, 'm'],
  [3_600_000, 'h'],
  [86_400_000, 'd'],
];

/** A duration in its largest whole unit: 250 → "250ms", 1500 → "1.5s", 90_000 → "1.5m", 7_200_000 → "2h". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return MISSING;
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  let unit = 0;
  while (unit < DURATION_UNITS.length - 1 && abs >= DURATION_UNITS[unit + 1]![0]) unit++;
  const text = (u: number) => {
    const value = abs / DURATION_UNITS[u]![0];
    return value >= 100 ? value.toFixed(0) : value >= 10 ? trimZeros(value.toFixed(1)) : trimZeros(value.toFixed(2));
  };
  let shown = text(unit);
  // 59_999 ms is "60s" once rounded: say "1m".
  const next = DURATION_UNITS[unit + 1];
  if (next && Number(shown) * DURATION_UNITS[unit]![0] >= next[0]) shown = text(++unit);
  return `${sign}${shown}${DURATION_UNITS[unit]![1]}`;
}

export interface ClockOptions {
  /** Always write hours (h:mm:ss); by default only from one hour on. */
  withHours?: boolean;
  /** Digits after the seconds, for axes whose ticks are closer than a second. */
  fractionDigits?: number;
}

/** Virtual time since the start as m:ss, or h:mm:ss from one hour: 75_000 → "1:15", 3_725_000 → "1:02:05". */
export function formatClock(ms: number, options: ClockOptions = {}): string {
  if (!Number.isFinite(ms)) return MISSING;
  const digits = Math.min(3, Math.max(0, Math.floor(options.fractionDigits ?? 0)));
  const scale = 10 ** digits;
  const totalSec = Math.round((Math.abs(ms) / 1000) * scale) / scale;
  const hours = Math.floor(totalSec / 3600);
  const minutes = Math.floor((totalSec % 3600) / 60);
  const seconds = (totalSec % 60).toFixed(digits).padStart(digits > 0 ? 3 + digits : 2, '0');
  const sign = ms < 0 && totalSec > 0 ? '-' : '';
  if (hours > 0 || options.withHours) return `${sign}${hours}:${String(minutes).padStart(2, '0')}:${seconds}`;
  return `${sign}${minutes}:${seconds}`;
}

/** A ratio (0..1) as a percentage: 0.4234 → "42.3%". */
export function formatPercent(ratio: number, fractionDigits = 1): string {
  if (!Number.isFinite(ratio)) return MISSING;
  return `${(ratio * 100).toFixed(fractionDigits)}%`;
}

/** Binary units: 1536 → "1.5 KiB", 328_000_000 → "312.8 MiB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return MISSING;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${bytes < 0 ? '-' : ''}${unit === 0 ? String(value) : value.toFixed(1)} ${units[unit]}`;
}

/** The first `shown` items, then "+N more": ["a", "b", "c", "d"], 2 → "a, b +2 more". */
export function formatList(items: readonly string[], shown = 3): string {
  const head = items.slice(0, Math.max(0, shown)).join(', ');
  const rest = items.length - Math.min(items.length, Math.max(0, shown));
  if (rest === 0) return head;
  return head ? `${head} +${rest} more` : `+${rest} more`;
}

/** A cost (an hour, in whatever currency the scenario counts in) with two decimals: 8.4 → "8.40". */
export function formatCost(v: number): string {
  if (!Number.isFinite(v)) return MISSING;
  return (Math.round(v * 100) / 100).toFixed(2);
}
