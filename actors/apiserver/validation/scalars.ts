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

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * metav1.Time and MicroTime: an RFC 3339 string. MicroTime's layout wants six fraction digits; any
 * precision is accepted for both, so second-precision clients are not turned away.
 */
export function timeError(value: string, micro: boolean): string | null {
  const m = RFC3339.exec(value);
  const ok = m !== null && inRange(m[2], 1, 12) && inRange(m[3], 1, 31) && inRange(m[4], 0, 23) && inRange(m[5], 0, 59) &&
    inRange(m[6], 0, 60) && (m[7] === undefined || (inRange(m[7], 0, 23) && inRange(m[8], 0, 59)));
  if (ok) return null;
  const layout = micro ? '2006-01-02T15:04:05.000000Z07:00' : '2006-01-02T15:04:05Z07:00';
  return `parsing time ${JSON.stringify(value)} as "${layout}": cannot parse ${JSON.stringify(value)} as "2006"`;
}

function inRange(digits: string | undefined, min: number, max: number): boolean {
  const n = Number(digits);
  return n >= min && n <= max;
}
