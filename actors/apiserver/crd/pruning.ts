// Pruning of a decoded custom object (apiextensions pkg/apiserver/schema/pruning and
// defaulting/prunenulls.go): fields the schema does not specify are dropped, except under
// x-kubernetes-preserve-unknown-fields; apiVersion, kind and metadata of the resource and of
// embedded resources are left to metadata coercion; then nulls of fields that are neither nullable
// nor defaulted are dropped. Inputs are never changed: objects are copied along the branches
// that lose a field. The dropped paths are reported as `spec.foo`, `spec.items[0].bar`, sorted.
import { isPlainObject, type Json } from '../../api/types.ts';
import { fieldSchema, type Structural } from './structural.ts';

type JsonObject = { [key: string]: Json };

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

const keyPath = (path: string, k: string) => (path ? `${path}.${k}` : k);

/** Prunes `value` by `s`; `unknown` receives the dropped paths in walk order. */
export function pruneValue(value: Json, s: Structural | undefined, path: string, unknown: string[]): Json {
  if (s?.preserveUnknownFields) return skipPrune(value, s, path, unknown);
  if (Array.isArray(value)) return mapItems(value, (item, i) => pruneValue(item, s ? s.items : undefined, `${path}[${i}]`, unknown));
  return isPlainObject(value) ? pruneFields(value as JsonObject, s, path, unknown, false) : value;
}

// Under x-kubernetes-preserve-unknown-fields unknown fields stay; specified ones are still pruned.
function skipPrune(value: Json, s: Structural, path: string, unknown: string[]): Json {
  if (Array.isArray(value)) return s.items ? mapItems(value, (item, i) => skipPruneItem(item, s.items, `${path}[${i}]`, unknown)) : value;
  return isPlainObject(value) ? pruneFields(value as JsonObject, s, path, unknown, true) : value;
}

// Fields the schema specifies are pruned inside (and dropped when a null they may not hold);
// others are dropped and reported, or kept under preserve-unknown-fields.
function pruneFields(obj: JsonObject, s: Structural | undefined, path: string, unknown: string[], keepUnknown: boolean): JsonObject {
  let out: JsonObject | null = null;
  for (const k in obj) {
    if (s?.embeddedResource && META_FIELDS.has(k)) continue;
    if (!s || !(s.properties?.has(k) || s.additionalProperties)) {
      if (keepUnknown) continue;
      if (!META_FIELDS.has(k) || path !== '') unknown.push(keyPath(path, k));
      out ??= { ...obj };
      delete out[k];
      continue;
    }
    const schema = fieldSchema(s, k);
    const v = obj[k] as Json;
    const next = pruneValue(v, schema, keyPath(path, k), unknown);
    if (droppedNull(next, schema)) {
      out ??= { ...obj };
      delete out[k];
    } else if (next !== v) (out ??= { ...obj })[k] = next;
  }
  return out ?? obj;
}

const skipPruneItem = (item: Json, s: Structural | undefined, path: string, unknown: string[]): Json => (s ? skipPrune(item, s, path, unknown) : item);

/** PruneNonNullableNullsWithoutDefaults: a null the schema neither allows nor defaults goes. */
const droppedNull = (v: Json, s: Structural | undefined): boolean => v === null && s !== undefined && !s.nullable && s.default === undefined;

function mapItems(list: Json[], f: (item: Json, i: number) => Json): Json[] {
  let out: Json[] | null = null;
  for (let i = 0; i < list.length; i++) {
    const item = list[i] as Json;
    const next = f(item, i);
    if (next !== item) {
      out ??= list.slice();
      out[i] = next;
    }
  }
  return out ?? list;
}
