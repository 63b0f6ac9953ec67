// Lists under strategic merge patch: merging by merge key, scalar unions, deletion lists, and
// the ordering rules (patch order first, then the live order; `$setElementOrder` overrides both).
import type { Json } from '../../api/types.ts';
import { goFormat, goFormatString, hasKey, isObject, setKey, type JsonObject } from './json-value.ts';
import { patchNotApplicable, unclassifiedPatchError } from './patch-errors.ts';
import { fieldShape, type Shape } from './shape.ts';
import { DIRECTIVE, directiveField, removeDirectives, SET_ELEMENT_ORDER } from './strategic-directives.ts';

/** Merges one object item into another: strategic-merge-patch.ts's mergeObject. */
export type MergeObject = (original: JsonObject, patch: JsonObject, shape: Shape) => JsonObject;

/** Merges list `patch` into list `original` (field strategy `merge`); items are private copies. */
export function mergeList(original: Json[], patch: Json[], element: Shape, mergeKey: string, merge: MergeObject): Json[] {
  if (original.length === 0 && patch.length === 0) return original;
  if (elementKind(original, patch) !== 'object') return orderMerged(unique([...original, ...patch]), patch, original, '');
  if (!mergeKey) {
    throw unclassifiedPatchError(`cannot merge lists without merge key for type ${element.kind === 'struct' ? 'struct' : 'map'}`);
  }
  let server = original;
  const items: JsonObject[] = [];
  let replace = false;
  for (const item of patch as JsonObject[]) {
    if (!hasKey(item, DIRECTIVE)) items.push(item);
    else if (item[DIRECTIVE] === 'delete') server = server.filter((s) => !sameKey(s, requireKey(item, mergeKey), mergeKey));
    else if (item[DIRECTIVE] === 'replace') replace = true;
    else if (item[DIRECTIVE] === 'merge') throw unclassifiedPatchError('merging lists cannot yet be specified in the patch');
    else throw unclassifiedPatchError(`unknown patch type: ${goFormatString(item[DIRECTIVE])} in map: ${goFormat(item)}`);
  }
  // Items replacing the list, or new to it, are stored as the patch has them (the real merge does
  // not clean them); decoding then drops their nulls and reports stray directives.
  if (replace) return orderMerged(items, [], items, mergeKey);
  const merged = [...server];
  for (const item of items) {
    const key = requireKey(item, mergeKey);
    const i = merged.findIndex((s) => sameKey(s, key, mergeKey));
    if (i >= 0) merged[i] = merge(merged[i] as JsonObject, item, element);
    else merged.push(item);
  }
  return orderMerged(merged, items, server, mergeKey);
}

/** `$deleteFromPrimitiveList/<field>`: drops the listed values from a scalar list. */
export function deleteFromList(current: Json, toDelete: Json): Json {
  if (!Array.isArray(current)) throw unclassifiedPatchError(badArgType('[]interface {}', current));
  if (!Array.isArray(toDelete)) throw unclassifiedPatchError(badArgType('[]interface {}', toDelete));
  return current.filter((v) => isObject(v) || !toDelete.includes(v));
}

/**
 * `$setElementOrder/<field>` (`key`): merges the field's patch list (if any) into the live list,
 * then orders the items the directive names as it says, the others where they were. The checks
 * come in the real order: the order must be a list, then the key well formed, then the lists lists.
 */
export function applySetElementOrder(original: JsonObject, patch: JsonObject, key: string, order: Json, shape: Shape, merge: MergeObject): void {
  if (!Array.isArray(order)) throw unclassifiedPatchError(badArgType('[]interface {}', order));
  const field = directiveField(key, SET_ELEMENT_ORDER, 'invalid patch format of setElementOrder list');
  const current = hasKey(original, field) ? original[field] : undefined;
  const patchList = hasKey(patch, field) ? patch[field] : undefined;
  if (current !== undefined && !Array.isArray(current)) throw unclassifiedPatchError(badArgType('[]interface {}', current));
  if (patchList !== undefined && !Array.isArray(patchList)) throw unclassifiedPatchError(badArgType('[]interface {}', patchList));
  const list = fieldShape(shape, field);
  const rule = list.kind === 'list' ? list.rule : undefined;
  const element = list.kind === 'list' ? list.element : list;
  const mergeKey = rule?.mergeKey ?? '';
  checkOrderMatchesPatch(patchList ?? [], order, mergeKey);
  delete patch[field];
  if (current === undefined && patchList === undefined) return;
  let merged: Json[];
  if (patchList === undefined) merged = current as Json[];
  else if (current === undefined) merged = removeDirectives(patchList) as Json[];
  else merged = rule?.merge ? mergeList(current as Json[], patchList as Json[], element, mergeKey, merge) : patchList as Json[];
  const kind = elementKind((current ?? []) as Json[], (patchList ?? []) as Json[]);
  if (kind === undefined) setKey(original, field, merged);
  else setKey(original, field, orderMerged(merged, order, (current ?? []) as Json[], kind === 'object' ? mergeKey : ''));
}

// Every item the patch list names must appear in the order list, in the same relative order.
function checkOrderMatchesPatch(patchList: Json[], order: Json[], mergeKey: string): void {
  if (patchList.length === 0 || order.length === 0) return;
  const items = mergeKey ? patchList.filter((i) => !(asObject(i)[DIRECTIVE] === 'delete')) : patchList;
  let p = 0;
  for (let o = 0; p < items.length && o < order.length; o++) {
    while (p < items.length && isObject(items[p]) && hasKey(items[p] as JsonObject, DIRECTIVE)) p++;
    if (p < items.length && keyOf(items[p], mergeKey) === keyOf(order[o], mergeKey)) p++;
  }
  if (p < items.length) {
    throw unclassifiedPatchError(`The order in patch list:\n${goFormat(patchList)}\n doesn't match $setElementOrder list:\n${goFormat(order)}\n`);
  }
}

/**
 * Orders a merged list: items named in `patchOrder` follow that order, the others keep their
 * `serverOrder` order, and the two runs are interleaved by their live positions; items new to
 * the server are placed as soon as they come up.
 */
function orderMerged(merged: Json[], patchOrder: Json[], serverOrder: Json[], mergeKey: string): Json[] {
  for (const list of [merged, patchOrder, serverOrder]) for (const item of list) keyOf(item, mergeKey);
  const inPatch = new Set(patchOrder.map((p) => keyOf(p, mergeKey)));
  const right = sortByOrder(merged.filter((m) => inPatch.has(keyOf(m, mergeKey))), patchOrder, mergeKey);
  const left = sortByOrder(merged.filter((m) => !inPatch.has(keyOf(m, mergeKey))), serverOrder, mergeKey);
  const livePosition = (v: Json): number => indexIn(serverOrder, keyOf(v, mergeKey), mergeKey);
  const out: Json[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]);
    else if (i >= left.length) out.push(right[j++]);
    else {
      const l = livePosition(left[i]);
      const r = livePosition(right[j]);
      out.push(l >= 0 && r >= 0 && l < r ? left[i++] : right[j++]);
    }
  }
  return out;
}

function sortByOrder(items: Json[], order: Json[], mergeKey: string): Json[] {
  const position = (v: Json): number => {
    const i = indexIn(order, keyOf(v, mergeKey), mergeKey);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return items.map((v, i) => ({ v, i, p: position(v) })).sort((a, b) => a.p - b.p || a.i - b.i).map((e) => e.v);
}

const indexIn = (list: Json[], key: Json, mergeKey: string): number => list.findIndex((v) => keyOf(v, mergeKey) === key);

/** The identity of a list item: its merge key's value for objects, the value itself otherwise. */
function keyOf(item: Json, mergeKey: string): Json {
  return mergeKey ? requireKey(asObject(item), mergeKey) : item;
}

function requireKey(item: JsonObject, mergeKey: string): Json {
  if (!hasKey(item, mergeKey)) throw unclassifiedPatchError(`map: ${goFormat(item)} does not contain declared merge key: ${mergeKey}`);
  return item[mergeKey];
}

const sameKey = (item: Json, key: Json, mergeKey: string): boolean => isObject(item) && hasKey(item, mergeKey) && item[mergeKey] === key;

function asObject(item: Json): JsonObject {
  if (!isObject(item)) throw unclassifiedPatchError(badArgType('map[string]interface {}', item));
  return item;
}

/** 'object' or 'scalar' for a list's items, undefined when there are none. */
function elementKind(...lists: Json[][]): 'object' | 'scalar' | undefined {
  let kind: string | undefined;
  for (const list of lists) {
    for (const item of list) {
      const k = goTypeName(item);
      if (kind === undefined && Array.isArray(item)) throw patchNotApplicable('lists of lists are not supported');
      if (kind !== undefined && k !== kind) throw unclassifiedPatchError(`list element types are not identical: ${goFormat(lists)}`);
      kind = k;
    }
  }
  if (kind === undefined) return undefined;
  return kind === 'map[string]interface {}' ? 'object' : 'scalar';
}

function unique(values: Json[]): Json[] {
  return values.filter((v, i) => values.indexOf(v) === i);
}

/** mergepatch.ErrBadArgType's text; a nil is printed by %s as `%!s(<nil>)`. */
const badArgType = (expected: string, actual: Json): string => `expected a ${expected}, but received a ${actual === null ? '%!s(<nil>)' : goTypeName(actual)}`;

/** Go's reflect type name of a value decoded with integers preserved. */
function goTypeName(v: Json): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (isObject(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}
