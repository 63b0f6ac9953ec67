// Resource quantities ("100m", "128Mi", "1.5", "2e3", "1G") as plain numbers in base units:
// cores for CPU, bytes for memory and storage, items for counts. Binary suffixes are powers of
// 1024, decimal ones powers of 1000, as the resource protocol defines them.

const SUFFIX: Record<string, number> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?)$/;

/** Parsed quantities: a cluster's requests and capacities are a few texts read over and over. */
const parsed = new Map<string, number>();
const PARSED_MAX = 4_096;

/** The quantity's value in base units, or a RangeError naming the text and the accepted forms. */
export function parseQuantity(text: string | number): number {
  if (typeof text === 'number') {
    if (!Number.isFinite(text)) throw new RangeError(`invalid quantity ${text}: must be a finite number`);
    return text;
  }
  let value = parsed.get(text);
  if (value === undefined) {
    value = parseText(text);
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(text, value);
  }
  return value;
}

function parseText(text: string): number {
  const m = QUANTITY.exec(String(text).trim());
  if (!m) throw new RangeError(`invalid quantity ${JSON.stringify(text)}: expected a number with an optional suffix (m, k, M, G, Ki, Mi, Gi, ...), e.g. 500m or 128Mi`);
  const value = Number(m[1]) * (m[2] ? 10 ** Number(m[2].slice(1)) : SUFFIX[m[3] ?? '']!);
  if (!Number.isFinite(value)) throw new RangeError(`invalid quantity ${JSON.stringify(text)}: too large`);
  return value;
}

/** CPU in whole millicores, rounded up as the real scheduler does (a request of 0.1m counts as 1m). */
export const milliCPU = (text: string | number): number => Math.ceil(parseQuantity(text) * 1000 - 1e-9);

/** Bytes (or items), rounded up to a whole number. */
export const wholeUnits = (text: string | number): number => Math.ceil(parseQuantity(text) - 1e-9);

// Exact quantities, for arithmetic whose results are shown back to users (quota usage, the limits
// the LimitRanger compares): resource.Quantity's value to the nanounit, and the format its
// String() keeps, so sums print as the real server prints them (1500m, 3Gi, 2147483648).

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in billionths of the base unit (resource.Quantity keeps nanounits, rounding finer values up). */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

const NANOS_PER_UNIT = 1_000_000_000n;
const DECIMAL_EXPONENT: Record<string, number> = { '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_EXPONENT: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX = new Map(Object.entries(DECIMAL_EXPONENT).map(([suffix, e]) => [e, suffix]));
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

export const ZERO_QUANTITY: Quantity = { nanos: 0n, format: 'DecimalSI' };

/** `n / d`, rounded away from zero (inf.RoundUp). */
function divideUp(n: bigint, d: bigint): bigint {
  const q = n / d;
  if (q * d === n) return q;
  return n < 0n ? q - 1n : q + 1n;
}

/** ParseQuantity: the exact value and the format its suffix implies; a RangeError as parseQuantity's. */
export function toQuantity(text: string | number): Quantity {
  const source = typeof text === 'number' ? String(text) : String(text).trim();
  const m = QUANTITY.exec(source);
  if (!m || !Number.isFinite(parseQuantity(text))) throw new RangeError(`invalid quantity ${JSON.stringify(text)}`);
  const [whole = '', fraction = ''] = m[1]!.replace(/^[+-]/, '').split('.');
  const digits = BigInt(`${whole}${fraction}` || '0');
  const negative = m[1]!.startsWith('-');
  let nanos: bigint;
  let format: QuantityFormat;
  if (m[3] !== undefined && m[3] in BINARY_EXPONENT) {
    format = 'BinarySI';
    nanos = divideUp(digits * (1n << BigInt(BINARY_EXPONENT[m[3]]!)) * NANOS_PER_UNIT, 10n ** BigInt(fraction.length));
    if (nanos > 0n && nanos < NANOS_PER_UNIT) format = 'DecimalSI';
  } else {
    format = m[2] ? 'DecimalExponent' : 'DecimalSI';
    const exponent = (m[2] ? Number(m[2].slice(1)) : DECIMAL_EXPONENT[m[3] ?? '']!) + 9 - fraction.length;
    nanos = exponent >= 0 ? digits * 10n ** BigInt(exponent) : divideUp(digits, 10n ** BigInt(-exponent));
  }
  return { nanos: negative ? -nanos : nanos, format: nanos === 0n ? 'DecimalSI' : format };
}

/** Quantity.String(): the canonical text, as the real server writes quantities back. */
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  const abs = q.nanos < 0n ? -q.nanos : q.nanos;
  const sign = q.nanos < 0n ? '-' : '';
  // Binary only for whole values of at least 1024, which print without rounding.
  if (q.format === 'BinarySI' && abs >= 1024n * NANOS_PER_UNIT && abs % NANOS_PER_UNIT === 0n) {
    let units = abs / NANOS_PER_UNIT;
    let power = 0;
    while (power < BINARY_SUFFIX.length - 1 && units >= 1024n && units % 1024n === 0n) {
      units /= 1024n;
      power++;
    }
    return `${sign}${units}${BINARY_SUFFIX[power]}`;
  }
  let mantissa = abs;
  let exponent = -9;
  while (mantissa >= 10n && mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  const down = ((exponent % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(down);
  exponent -= down;
  if (q.format === 'DecimalExponent') return `${sign}${mantissa}${exponent === 0 ? '' : `e${exponent}`}`;
  while (exponent > 18) {
    mantissa *= 1000n;
    exponent -= 3;
  }
  return `${sign}${mantissa}${DECIMAL_SUFFIX.get(exponent)}`;
}

/** Quantity.Add: the sum keeps the left side's format, unless the left side is zero. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** Quantity.Sub, with Add's rule for the format. */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

export const compareQuantities = (a: Quantity, b: Quantity): number => (a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0);

/** MilliValue(): thousandths, rounded up. */
export const milliValue = (q: Quantity): bigint => divideUp(q.nanos, 1_000_000n);

/** Value(): whole units, rounded up. */
export const unitValue = (q: Quantity): bigint => divideUp(q.nanos, NANOS_PER_UNIT);

/** NewMilliQuantity / NewQuantity: a DecimalSI quantity of `n` thousandths or units. */
export const milliQuantity = (n: bigint): Quantity => ({ nanos: n * 1_000_000n, format: 'DecimalSI' });
export const unitQuantity = (n: bigint): Quantity => ({ nanos: n * NANOS_PER_UNIT, format: 'DecimalSI' });
