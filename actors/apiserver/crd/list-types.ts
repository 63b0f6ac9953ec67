// The invariants of x-kubernetes-list-type (apiextensions pkg/apiserver/schema/listtype): a `set`
// holds no value twice, a `map` holds objects with no two alike in their key fields. The second
// occurrence of each repeated value is reported once, as a Duplicate of the value (a map list's
// key fields as `map[string]interface {}{"name":"a"}`).
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject, type Json } from '../../api/types.ts';
import { child, duplicate, index, invalid, key } from './field-errors.ts';
import type { Structural } from './structural.ts';

type JsonObject = { [key: string]: Json };

/** ValidateListSetsAndMaps from the root object. */
export function validateListTypes(obj: Json, s: Structural | undefined, path = ''): StatusCause[] {
  const out: StatusCause[] = [];
  walkObject(obj, s, path, out);
  return out;
}

function walkObject(obj: Json, s: Structural | undefined, path: string, out: StatusCause[]): void {
  if (!s || !isPlainObject(obj)) return;
  const o = obj as JsonObject;
  const additional = s.additionalProperties?.schema;
  if (additional) for (const k in o) walk(o[k] as Json, additional, key(path, k), out);
  if (s.properties)
    for (const k in o) {
      const sub = s.properties.get(k);
      if (sub) walk(o[k] as Json, sub, child(path, k), out);
    }
}

function walk(v: Json, s: Structural, path: string, out: StatusCause[]): void {
  if (Array.isArray(v)) walkList(v, s, path, out);
  else if (isPlainObject(v)) walkObject(v, s, path, out);
}

function walkList(list: Json[], s: Structural, path: string, out: StatusCause[]): void {
  if (s.listType === 'set') for (const i of repeated(list)) out.push(duplicate(index(path, i), list[i]));
  else if (s.listType === 'map') out.push(...mapDuplicates(list, s.listMapKeys ?? [], path));
  if (s.items) for (let i = 0; i < list.length; i++) walk(list[i] as Json, s.items, index(path, i), out);
}

/** Indices of the second occurrence of each value seen more than once. */
function repeated(list: readonly Json[]): number[] {
  return list.length <= 1 ? [] : repeatedIds(list.map(identity));
}

function repeatedIds(ids: readonly string[]): number[] {
  const counts = new Map<string, number>();
  const found: number[] = [];
  ids.forEach((id, i) => {
    const times = counts.get(id) ?? 0;
    counts.set(id, times + 1);
    if (times === 1) found.push(i);
  });
  return found;
}

// Scalars compare by type and value, compound values by their JSON (Go marshals maps sorted).
function identity(v: Json): string {
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'number') return `n${v}`;
  if (v === null || typeof v === 'boolean') return `b${v}`;
  return `j${sortedJson(v)}`;
}

function sortedJson(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (isPlainObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sortedJson((v as JsonObject)[k] as Json)}`).join(',')}}`;
  return JSON.stringify(v);
}

function mapDuplicates(list: Json[], keys: readonly string[], path: string): StatusCause[] {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && !isPlainObject(x)) return [invalid(index(path, i), x as Json, 'must be an object for an array of list-type map')];
  }
  if (list.length <= 1) return [];
  if (keys.length === 1) {
    // One key: compare the key values themselves (an item without it counts as unspecified).
    const k = keys[0] as string;
    const ids = list.map((x) => (isPlainObject(x) && Object.hasOwn(x as JsonObject, k) ? identity((x as JsonObject)[k] as Json) : '-'));
    return repeatedIds(ids).map((i) => duplicate(index(path, i), ids[i] === '-' ? {} : { [k]: (list[i] as JsonObject)[k] as Json }));
  }
  const keyValues: JsonObject[] = list.map((x) => {
    const k: JsonObject = {};
    if (x === null) return k;
    for (const f of keys) if (Object.hasOwn(x as JsonObject, f)) k[f] = (x as JsonObject)[f] as Json;
    return k;
  });
  return repeated(keyValues).map((i) => duplicate(index(path, i), keyValues[i] as JsonObject));
}
