// JSON values as the patch code sees them: equality, copying, and the two ways Go prints them
// (encoding/json for field-set keys, fmt's %v for error messages clients read).
import { isPlainObject, type Json } from '../../api/types.ts';

export type JsonObject = { [key: string]: Json };

export const isObject = (v: unknown): v is JsonObject => isPlainObject(v);

/** Own-property lookup: keys come from clients, so `constructor` or `__proto__` are just keys. */
export const hasKey = (o: JsonObject, key: string): boolean => Object.hasOwn(o, key);

/** Sets a client-supplied key without ever touching the prototype (`__proto__` included). */
export function setKey(o: JsonObject, key: string, value: Json): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A deep copy that is never frozen, whatever the input was. Strings are shared, not copied as
 * structuredClone copies them: stored objects would otherwise each hold their own "True" and
 * condition types. Bodies nest at most 256 deep (validation/nesting.ts), so recursion is safe.
 */
export function copyJson<T extends Json>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out: Json[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyJson(v[i] as Json);
    return out as T;
  }
  const out: JsonObject = {};
  for (const key of Object.keys(v)) {
    const value = copyJson((v as JsonObject)[key] as Json);
    if (key === '__proto__') setKey(out, key, value);
    else out[key] = value;
  }
  return out as T;
}

// Loops rather than every(): the managed-fields diff runs this over every object an update writes.
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    // for-in rather than Object.keys: no array per object (plain objects inherit no enumerable keys).
    let count = 0;
    for (const k in a) {
      if (!Object.hasOwn(b, k) || !jsonEqual(a[k], b[k])) return false;
      count++;
    }
    for (const _ in b) if (--count < 0) return false;
    return count === 0;
  }
  return false;
}

/** The JSON kind names Go's decoder uses in "cannot unmarshal <kind> into ..." messages. */
export function goJsonKind(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/**
 * Canonical JSON as Go's encoding/json writes it: object keys sorted, and <, >, & escaped.
 * Field-set keys (`k:{...}`, `v:...`) are compared as these strings.
 */
export function goJson(v: Json): string {
  return JSON.stringify(sortKeys(v)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v).sort()) setKey(out, k, sortKeys(v[k]));
  return out;
}

/** fmt's %v of a decoded JSON value: `map[image:nginx name:c]`, `[a b]`, `<nil>`. */
export function goFormat(v: Json | undefined): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  if (isObject(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goFormat(v[k])}`).join(' ')}]`;
  if (typeof v === 'number') return goNumber(v);
  return String(v);
}

/** fmt's %s of a decoded JSON value: strings as they are, other scalars as `%!s(int64=5)`, nil as `%!s(<nil>)`. */
export function goFormatString(v: Json | undefined): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(goFormatString).join(' ')}]`;
  if (isObject(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goFormatString(v[k])}`).join(' ')}]`;
  if (typeof v === 'boolean') return `%!s(bool=${v})`;
  return Number.isInteger(v) ? `%!s(int64=${v})` : `%!s(float64=${goNumber(v)})`;
}

// %v of a float64 is strconv's shortest 'g': exponent form below 1e-4 and from 1e6 ("1e+06").
function goNumber(n: number): string {
  if (n === 0 || !Number.isFinite(n)) return String(n);
  const exponential = n.toExponential();
  const exp = Number(exponential.slice(exponential.indexOf('e') + 1));
  if (exp < -4 || exp >= 6) return exponential.replace(/e([+-])(\d)$/, 'e$10$2');
  return String(n);
}
