// The string formats custom resources are checked against: apiextensions keeps only these
// (pkg/apiserver/validation/formats.go) and drops every other format (int32, int64, float, double
// are never checked), and kube-openapi's strfmt registry says what each accepts. Names are
// compared without dashes, as strfmt normalizes them (`date-time` is `datetime`).
import { isIPv4 as isIpv4, isIPv6 as isIpv6 } from 'node:net';

type Check = (s: string) => boolean;

const re = (pattern: RegExp): Check => (s) => pattern.test(s);

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const RGB_PART = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const RGB = new RegExp(`^rgb\\(${RGB_PART},${RGB_PART},${RGB_PART}\\)$`);
const TIME_OF_DAY = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const GO_DURATION = /^[-+]?([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+$/;
const SCALA_DURATION = /(\d+)\s*([A-Za-zµ]+)/g;
const SCALA_UNITS = ['ns', 'nano', 'us', 'µs', 'micro', 'ms', 'milli', 's', 'sec', 'm', 'min', 'h', 'hr', 'hour', 'd', 'day', 'w', 'wk', 'week'];
const EMAIL = /^(?:"[^"\r\n]*"|[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*)@(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[^\]\r\n]*\])$/;
const MAC = /^(?:[0-9a-fA-F]{2}(?:[:-][0-9a-fA-F]{2}){5}|[0-9a-fA-F]{2}(?:[:-][0-9a-fA-F]{2}){7}|[0-9a-fA-F]{2}(?:[:-][0-9a-fA-F]{2}){19}|[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){2}|[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){3}|[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){9})$/;

/** time.Parse("2006-01-02"): four-digit year, a real day of its month. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] as number;
  return d <= days;
}

/** strfmt.IsDateTime: a date, a `t` (any case), then hh:mm:ss[.frac] and `z` or an offset. */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0] as string)) return false;
  const m = TIME_OF_DAY.exec(parts[1] as string);
  return m !== null && (m[1] as string) <= '23' && (m[2] as string) <= '59' && (m[3] as string) <= '59';
}

/** strfmt.ParseDuration: Go's time.ParseDuration, else Scala-style `3 days 4 hours`. */
function isDuration(s: string): boolean {
  if (s !== '' && s !== '-' && s !== '+' && GO_DURATION.test(s) && /\d/.test(s)) return true;
  if (s === '0') return true;
  for (const m of s.matchAll(SCALA_DURATION)) {
    const unit = (m[2] as string).toLowerCase();
    if (SCALA_UNITS.some((u) => unit === u || unit.startsWith(u))) return true;
  }
  return false;
}

function isHostname(s: string): boolean {
  return HOSTNAME.test(s) && s.length <= 255 && s.split('.').every((p) => Buffer.byteLength(p) <= 63);
}

/** url.ParseRequestURI: an absolute URI, or an absolute path. */
function isRequestUri(s: string): boolean {
  if (s.startsWith('/')) return !/\s/.test(s);
  try {
    const u = new URL(s);
    return u.protocol.length > 1 && !/\s/.test(s);
  } catch {
    return false;
  }
}

function isCidr(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  const n = Number(bits);
  return isIpv4(ip) ? n <= 32 : isIpv6(ip) && n <= 128;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

const CREDIT_CARD = /^(?:4[0-9]{12}(?:[0-9]{3,6})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12,15}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14}|^(81[0-9]{14,17}))$/;

function isCreditCard(s: string): boolean {
  const digits = s.replace(/[^0-9]+/g, '');
  return CREDIT_CARD.test(digits) && luhn(digits);
}

function isIsbn(s: string, version: 10 | 13): boolean {
  const clean = s.replace(/[\s-]+/g, '');
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(clean)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * Number(clean[i]);
    sum += clean[9] === 'X' ? 100 : 10 * Number(clean[9]);
    return sum % 11 === 0;
  }
  if (!/^[0-9]{13}$/.test(clean)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(clean[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(clean[12]);
}

const FORMATS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['bsonobjectid', re(/^[0-9a-fA-F]{24}$/)],
  ['uri', isRequestUri],
  ['email', re(EMAIL)],
  ['hostname', isHostname],
  ['ipv4', isIpv4],
  ['ipv6', (s) => isIpv6(s)],
  ['cidr', isCidr],
  ['mac', re(MAC)],
  ['uuid', re(UUID)],
  ['uuid3', re(UUID3)],
  ['uuid4', re(UUID4)],
  ['uuid5', re(UUID5)],
  ['isbn', (s) => isIsbn(s, 10) || isIsbn(s, 13)],
  ['isbn10', (s) => isIsbn(s, 10)],
  ['isbn13', (s) => isIsbn(s, 13)],
  ['creditcard', isCreditCard],
  ['ssn', re(/^\d{3}[- ]?\d{2}[- ]?\d{4}$/)],
  ['hexcolor', re(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/)],
  ['rgbcolor', re(RGB)],
  ['byte', re(BASE64)],
  ['password', () => true],
  ['date', isDate],
  ['duration', isDuration],
  ['datetime', isDateTime],
]);

/** The format as the validator keeps it: '' when apiextensions strips it (unknown or numeric). */
export function checkedFormat(format: string | undefined): string {
  if (!format) return '';
  const name = format.replaceAll('-', '');
  return FORMATS.has(name) ? format : '';
}

/** Whether `s` is of `format` (one checkedFormat kept). */
export function matchesFormat(format: string, s: string): boolean {
  const check = FORMATS.get(format.replaceAll('-', ''));
  return check ? check(s) : true;
}

