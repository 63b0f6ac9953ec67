// The ages `kubectl get` prints: apimachinery's duration.HumanDuration (pkg/util/duration) and the
// printers' translateTimestampSince around it (kubernetes pkg/printers/internalversion). Pure: the
// caller passes "now", so a table rendered twice at the same virtual time reads the same.

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const HOURS_PER_DAY = 24;
const DAYS_PER_YEAR = 365;

/**
 * About two or three significant figures of a duration: "119s", "5m20s", "10m", "7h5m", "2d3h",
 * "400d", "3y12d", "9y". A clock up to two seconds behind reads "0s"; further behind, "<invalid>".
 */
export function humanDuration(durationMs: number): string {
  if (!Number.isFinite(durationMs)) return '<invalid>';
  // Go truncates toward zero: -1.5s is -1, which still reads as "0s".
  const seconds = Math.trunc(durationMs / SECOND_MS);
  if (seconds < -1) return '<invalid>';
  if (seconds <= 0) return '0s';
  if (seconds < 2 * 60) return `${seconds}s`;
  const minutes = Math.floor(durationMs / MINUTE_MS);
  if (minutes < 10) return withRest(minutes, 'm', seconds % 60, 's');
  if (minutes < 3 * 60) return `${minutes}m`;
  const hours = Math.floor(durationMs / HOUR_MS);
  if (hours < 8) return withRest(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / HOURS_PER_DAY);
  if (hours < HOURS_PER_DAY * 8) return withRest(days, 'd', hours % HOURS_PER_DAY, 'h');
  if (hours < HOURS_PER_DAY * DAYS_PER_YEAR * 2) return `${days}d`;
  const years = Math.floor(days / DAYS_PER_YEAR);
  if (hours < HOURS_PER_DAY * DAYS_PER_YEAR * 8) return withRest(years, 'y', days % DAYS_PER_YEAR, 'd');
  return `${years}y`;
}

function withRest(major: number, majorUnit: string, rest: number, restUnit: string): string {
  return rest === 0 ? `${major}${majorUnit}` : `${major}${majorUnit}${rest}${restUnit}`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since the epoch of a UTC calendar time, for any year (Date.UTC maps 0 to 99 onto 19xx). */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

/** Go's zero time.Time, 0001-01-01T00:00:00Z: what an unset metav1.Time decodes to. */
export const GO_ZERO_TIME_MS = utcMs(1, 1, 1);

/**
 * Milliseconds since the epoch of an RFC 3339 timestamp (metav1.Time or MicroTime), or undefined
 * when the value is absent, not a string, or not a timestamp.
 */
export function parseTimestampMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zulu, sign, oh, om] = m;
  const fractionMs = frac ? Math.floor(Number(`0.${frac}`) * SECOND_MS) : 0;
  const offsetMs = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * HOUR_MS + Number(om) * MINUTE_MS);
  const ms = utcMs(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), fractionMs) - offsetMs;
  return Number.isNaN(ms) ? undefined : ms;
}

/** Whether a timestamp is set: present, parseable, and not Go's zero time (metav1.Time.IsZero). */
export function timestampIsSet(value: unknown): boolean {
  const ms = parseTimestampMs(value);
  return ms !== undefined && ms !== GO_ZERO_TIME_MS;
}

/** The age of a timestamp at `nowMs`, or "<unknown>" when it is unset (translateTimestampSince). */
export function translateTimestampSince(timestamp: unknown, nowMs: number): string {
  return ageSince(parseTimestampMs(timestamp), nowMs);
}

/** As translateTimestampSince, for an already parsed time; undefined and Go's zero time are unset. */
export function ageSince(timeMs: number | undefined, nowMs: number): string {
  if (timeMs === undefined || timeMs === GO_ZERO_TIME_MS) return '<unknown>';
  return humanDuration(nowMs - timeMs);
}
