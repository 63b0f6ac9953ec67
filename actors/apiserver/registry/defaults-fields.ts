// How defaulting reads and fills a decoded JSON object, in the terms of the Go types it mirrors:
// a non-pointer field is unset when it holds its zero value, a pointer only when it is nil.
import { isPlainObject } from '../../api/types.ts';

export type Fields = Record<string, unknown>;

/** One field's default: `zero` fills Go's zero value ("", 0, absent), `nil` only absent or null. */
export interface FieldDefault {
  key: string;
  value: unknown;
  when: 'zero' | 'nil';
}

export const zero = (key: string, value: unknown): FieldDefault => ({ key, value, when: 'zero' });
export const nil = (key: string, value: unknown): FieldDefault => ({ key, value, when: 'nil' });

const isNil = (v: unknown) => v === undefined || v === null;
const isZero = (v: unknown) => isNil(v) || v === '' || v === 0 || v === false;

/** Fills each unset field of `o`. Object values are copied, so no two objects share one. */
export function fill(o: Fields, defaults: readonly FieldDefault[]): void {
  for (const d of defaults) {
    if (d.when === 'zero' ? isZero(o[d.key]) : isNil(o[d.key])) o[d.key] = typeof d.value === 'object' ? structuredClone(d.value) : d.value;
  }
}

/** The object at o[key], created when missing: a non-pointer struct (or a pointer defaulting allocates). */
export function child(o: Fields, key: string): Fields {
  const v = o[key];
  if (isPlainObject(v)) return v;
  const created: Fields = {};
  o[key] = created;
  return created;
}

/** The object at o[key] when there is one: a pointer struct that defaulting leaves nil. */
export function present(o: Fields, key: string): Fields | undefined {
  const v = o[key];
  return isPlainObject(v) ? v : undefined;
}

/** The objects in the array at o[key]; anything else in it is left for validation to reject. */
export function items(o: Fields, key: string): Fields[] {
  const v = o[key];
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}
