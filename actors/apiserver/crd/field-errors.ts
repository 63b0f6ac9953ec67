// apimachinery's field errors (pkg/util/validation/field) as the causes of an Invalid Status: the
// path in `field`, the reason, and the message ErrorBody writes, with the bad value printed as Go's
// fmt prints it (%q for strings, %v for numbers and booleans, %#v for maps and lists).
import type { StatusCause } from '../../api/status.ts';
import type { Json } from '../../api/types.ts';
import { goFormat } from '../patch/json-value.ts';

/** A value already spelled as Go prints it (a struct the server would dump with %#v). */
export class GoText {
  constructor(readonly text: string) {}
}

export type BadValue = Json | undefined | GoText;

/** field.Path's String(): `spec.versions[0].name`, `properties[spec]`; '' is the root. */
export const child = (path: string, name: string): string => (path ? `${path}.${name}` : name);
export const key = (path: string, k: string): string => `${path}[${k}]`;
export const index = (path: string, i: number): string => `${path}[${i}]`;

/** A JSON number as Go's decoder types it: int64 when integral and in range, else float64. */
export const isInt64 = (n: number): boolean => Number.isInteger(n) && Math.abs(n) < 2 ** 63;

/** %v of a decoded JSON number: an int64 in full, a float64 in strconv's shortest 'g'. */
export const goNumber = (n: number): string => (isInt64(n) ? BigInt(n).toString() : goFormat(n));

/** %v of a JSON value decoded as apimachinery decodes it (integers are int64): `map[a:1]`, `[x y]`. */
export function goPrint(v: Json | undefined): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return goNumber(v);
  if (Array.isArray(v)) return `[${v.map(goPrint).join(' ')}]`;
  if (typeof v === 'object') return `map[${Object.keys(v).sort().map((k) => `${k}:${goPrint(v[k])}`).join(' ')}]`;
  return String(v);
}

/** strconv.Quote: JSON's escapes, except control bytes as \x.. the way Go writes them. */
export function goQuote(s: string): string {
  return JSON.stringify(s)
    .replace(/\\u00([01][0-9a-f])/g, (_, hex: string) => `\\x${hex}`)
    .replace(/\u007f/g, '\\x7f');
}

/** %#v of a decoded JSON value: `map[string]interface {}{"name":"a"}`, `[]interface {}{1, "b"}`. */
export function goSyntax(v: Json | undefined): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  const keys = Object.keys(v).sort();
  return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSyntax(v[k])}`).join(', ')}}`;
}

/** How ErrorBody prints a bad value: null, %v of numbers and booleans, %q of strings, else %#v. */
export function goValue(v: BadValue): string {
  if (v instanceof GoText) return v.text;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  return goSyntax(v);
}

const withDetail = (body: string, detail: string): string => (detail ? `${body}: ${detail}` : body);

export const required = (field: string, detail = ''): StatusCause => ({ reason: 'FieldValueRequired', message: withDetail('Required value', detail), field });

export const forbidden = (field: string, detail: string): StatusCause => ({ reason: 'FieldValueForbidden', message: withDetail('Forbidden', detail), field });

export const invalid = (field: string, value: BadValue, detail: string): StatusCause => ({
  reason: 'FieldValueInvalid',
  message: withDetail(`Invalid value: ${goValue(value)}`, detail),
  field,
});

/** A value of the wrong schema type: worded as Invalid, with its own reason. */
export const typeInvalid = (field: string, value: BadValue, detail: string): StatusCause => ({
  reason: 'FieldValueTypeInvalid',
  message: withDetail(`Invalid value: ${goValue(value)}`, detail),
  field,
});

export const duplicate = (field: string, value: BadValue): StatusCause => ({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${goValue(value)}`, field });

export const notSupported = (field: string, value: BadValue, supported: readonly string[]): StatusCause => ({
  reason: 'FieldValueNotSupported',
  message: withDetail(`Unsupported value: ${goValue(value)}`, supported.length ? `supported values: ${supported.map((s) => goQuote(s)).join(', ')}` : ''),
  field,
});

export const tooLong = (field: string, max: number): StatusCause => ({
  reason: 'FieldValueTooLong',
  message: max >= 0 ? `Too long: may not be more than ${max} bytes` : 'Too long: value is too long',
  field,
});

export const tooMany = (field: string, actual: number, max: number): StatusCause => ({
  reason: 'FieldValueTooMany',
  message: `Too many${actual >= 0 ? `: ${actual}` : ''}: ${max >= 0 ? `must have at most ${max} items` : 'has too many items'}`,
  field,
});

export const internalError = (field: string, detail: string): StatusCause => ({ reason: 'InternalError', message: `Internal error: ${detail}`, field });

/** ErrorList.ToAggregate's rule: a cause whose `field: message` repeats an earlier one is dropped. */
export function uniqueCauses(causes: readonly StatusCause[]): StatusCause[] {
  const seen = new Set<string>();
  return causes.filter((c) => {
    const text = `${c.field ?? ''}: ${c.message ?? ''}`;
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}
