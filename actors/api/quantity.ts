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
