// Scalars whose Go types parse their own text: resource quantities, base64 bytes and timestamps.
// Each check returns the error Go's decoder would give, or null when the value is accepted.

const QUANTITY_PATTERN = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const QUANTITY_FORMAT = `quantities must match the regular expression '${QUANTITY_PATTERN}'`;
const QUANTITY_SPLIT = /^([+-]?[0-9]*(?:\.[0-9]*)?)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const QUANTITY_SUFFIXES = new Set(['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);

/**
 * resource.Quantity's UnmarshalJSON: a JSON string, or any other JSON token taken as text (so bare
 * numbers work), then ParseQuantity (apimachinery pkg/api/resource/quantity.go).
 */
export function quantityError(value: unknown): string | null {
  if (value === null) return null;
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : JSON.stringify(value);
  const parts = QUANTITY_SPLIT.exec(text);
  if (text === '' || !parts) return QUANTITY_FORMAT;
  const suffix = parts[2] as string;
  if (!QUANTITY_SUFFIXES.has(suffix) && !/^[eE][-+]?[0-9]+$/.test(suffix)) return "unable to parse quantity's suffix";
  return null;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** []byte fields decode base64.StdEncoding (padded); line breaks are skipped. */
export function base64Error(value: string): string | null {
  const clean = value.replace(/[\r\n]/g, '');
  if (BASE64.test(clean)) return null;
  const bad = clean.search(/[^A-Za-z0-9+/=]/);
  const at = bad >= 0 ? bad : clean.length - (clean.length % 4 || 4);
  return `illegal base64 data at input byte ${Math.max(0, at)}`;
}

/**
 * metav1.Time and MicroTime: an RFC 3339 string. MicroTime's layout wants six fraction digits; any
 * precision is accepted for both, so second-precision clients are not turned away.
 */
export function timeError(value: string, micro: boolean): string | null {
  if (isRfc3339(value)) return null;
  const layout = micro ? '2006-01-02T15:04:05.000000Z07:00' : '2006-01-02T15:04:05Z07:00';
  return `parsing time ${JSON.stringify(value)} as "${layout}": cannot parse ${JSON.stringify(value)} as "2006"`;
}

/**
 * `YYYY-MM-DDTHH:MM:SS`, 1 to 9 fraction digits after a dot if any, then `Z` or `±HH:MM`; month
 * 1-12, day 1-31, hour 0-23, minute 0-59, second 0-60 (a leap second), offset hours 0-23. Read
 * character by character: every write of a lease or a pod condition checks a time or two, and a
 * regular expression's match allocated its array and nine strings each time.
 */
export function isRfc3339(s: string): boolean {
  if (s.length < 20 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  if (digits(s, 0, 4) < 0) return false;
  if (!within(s, 5, 1, 12) || !within(s, 8, 1, 31) || !within(s, 11, 0, 23) || !within(s, 14, 0, 59) || !within(s, 17, 0, 60)) return false;
  let i = 19;
  if (s.charCodeAt(i) === 46) {
    let n = 0;
    while (i + 1 + n < s.length && isDigit(s.charCodeAt(i + 1 + n))) n++;
    if (n < 1 || n > 9) return false;
    i += 1 + n;
  }
  const zone = s.charCodeAt(i);
  if (zone === 90) return i + 1 === s.length;
  if (zone !== 43 && zone !== 45) return false;
  return i + 6 === s.length && s.charCodeAt(i + 3) === 58 && within(s, i + 1, 0, 23) && within(s, i + 4, 0, 59);
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** The number written by `count` ASCII digits at `at`, or -1 when one is not a digit. */
function digits(s: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const c = s.charCodeAt(i);
    if (!isDigit(c)) return -1;
    n = n * 10 + (c - 48);
  }
  return n;
}

/** Two digits at `at` within [min, max]. */
function within(s: string, at: number, min: number, max: number): boolean {
  const n = digits(s, at, 2);
  return n >= min && n <= max;
}
