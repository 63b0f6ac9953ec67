// Defaulting of a custom object (apiextensions pkg/apiserver/schema/defaulting/algorithm.go): at
// every level a missing property with a default, or a null one that is not nullable, takes a copy
// of the default; null items of lists and values of additionalProperties that are not nullable
// take their schema's default (or stay null without one); then the walk goes on inside, defaults
// included. Inputs are never changed: objects are copied along the branches that change.
import { jsonCopy } from '../../api/json-copy.ts';
import { isPlainObject, type Json } from '../../api/types.ts';
import type { Structural } from './structural.ts';

type JsonObject = { [key: string]: Json };

const nonNullableNull = (v: Json | undefined, s: Structural | undefined): boolean => v === null && s !== undefined && !s.nullable;
const copyOf = (v: Json | undefined): Json => (v === undefined ? null : (jsonCopy(v) ?? null));

/** `value` with the defaults of `s` applied; the same value when nothing was defaulted. */
export function applyDefaults(value: Json, s: Structural | undefined): Json {
  if (!s) return value;
  if (Array.isArray(value)) {
    let out: Json[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as Json;
      const start = nonNullableNull(item, s.items) ? copyOf(s.items?.default) : item;
      const next = applyDefaults(start, s.items);
      if (next !== item) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  const obj = value as JsonObject;
  let out: JsonObject | null = null;
  if (s.properties)
    for (const [k, prop] of s.properties) {
      if (prop.default === undefined) continue;
      if (!Object.hasOwn(obj, k) || nonNullableNull(obj[k], prop)) (out ??= { ...obj })[k] = copyOf(prop.default);
    }
  const current = out ?? obj;
  for (const k in current) {
    const prop = s.properties?.get(k);
    const v = current[k] as Json;
    let next: Json;
    if (prop) next = applyDefaults(v, prop);
    else if (s.additionalProperties) {
      const schema = s.additionalProperties.schema;
      next = applyDefaults(nonNullableNull(v, schema) ? copyOf(schema?.default) : v, schema);
    } else continue;
    if (next !== v) (out ??= { ...obj })[k] = next;
  }
  return out ?? obj;
}
