// Strategic merge patch, the `application/strategic-merge-patch+json` patch type (and the body of
// kubectl's client-side apply, cordon, label...). Semantics of apimachinery
// pkg/util/strategicpatch StrategicMergeMapPatch, as the server runs it (parallel lists merged,
// nulls that match nothing ignored).
import type { Json } from '../../api/types.ts';
import { copyJson, goFormat, goFormatString, goJsonKind, hasKey, isObject, setKey, type JsonObject } from './json-value.ts';
import { malformedPatch, unclassifiedPatchError } from './patch-errors.ts';
import { fieldShape, isKnownModel, rootShape, type Shape } from './shape.ts';
import { DELETE_FROM_PRIMITIVE_LIST, DIRECTIVE, directiveField, inserted, RETAIN_KEYS, SET_ELEMENT_ORDER } from './strategic-directives.ts';
import { applySetElementOrder, deleteFromList, mergeList } from './strategic-lists.ts';

/**
 * Whether `model` has a schema strategic merge patch can follow. Kinds without one (custom
 * resources) must be answered 415 UnsupportedMediaType, as the real server does.
 */
export const supportsStrategicMerge = (model: string): boolean => isKnownModel(model);

/**
 * Applies a strategic merge patch to a copy of `target`, an object of schema model `model`.
 * Maps merge recursively and `null` deletes; lists whose field has `patchStrategy: merge` merge
 * by their `patchMergeKey` (scalar lists become unions); other lists are replaced. Directives:
 * `$patch: replace|delete` on maps, `$patch: replace|delete` on list items, `$retainKeys`,
 * `$setElementOrder/<field>`, `$deleteFromPrimitiveList/<field>`.
 */
export function applyStrategicMergePatch(target: Json, patch: Json, model: string): Json {
  if (patch === null) return copyJson(target); // Go decodes `null` into an empty patch map
  if (!isObject(patch)) {
    throw malformedPatch(`json: cannot unmarshal ${goJsonKind(patch)} into Go value of type map[string]interface {}`);
  }
  const original = isObject(target) ? copyJson(target) : {};
  return mergeObject(original, copyJson(patch), rootShape(model));
}

// Merges `patch` into `original`; both are private copies this call may change.
function mergeObject(original: JsonObject, patch: JsonObject, shape: Shape): JsonObject {
  if (hasKey(patch, DIRECTIVE)) return objectDirective(patch);
  applyRetainKeys(original, patch);
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key]!;
    delete patch[key];
    applySetElementOrder(original, patch, key, order, shape, mergeObject);
  }
  const deletions: [string, Json][] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) deletions.push([key, value]);
    else mergeField(original, key, value, shape);
  }
  for (const [key, value] of deletions) {
    const field = directiveField(key, DELETE_FROM_PRIMITIVE_LIST, 'invalid patch format of primitive list');
    const current = hasKey(original, field) ? original[field] : undefined;
    if (value === null) delete original[field];
    // A deletion list and a field of different types: the real merge passes over it.
    else if (Array.isArray(current) && Array.isArray(value)) setKey(original, field, deleteFromList(current, value));
  }
  return original;
}

/** Sets `key` to the value, or deletes it when the value is dropped. */
function store(original: JsonObject, key: string, value: Json | undefined): void {
  if (value === undefined) delete original[key];
  else setKey(original, key, value);
}

function mergeField(original: JsonObject, key: string, value: Json, shape: Shape): void {
  if (value === null) {
    delete original[key];
    return;
  }
  const current = hasKey(original, key) ? original[key] : undefined;
  if (current === undefined || !sameKind(current, value)) {
    store(original, key, inserted(value));
    return;
  }
  const child = fieldShape(shape, key);
  if (isObject(current) && isObject(value)) {
    setKey(original, key, mergeObject(current, value, child));
  } else if (Array.isArray(current) && Array.isArray(value)) {
    const rule = child.kind === 'list' ? child.rule : undefined;
    const element = child.kind === 'list' ? child.element : child;
    // A list replaced whole is stored as the patch has it, directives and all (decoding reports them).
    setKey(original, key, rule?.merge ? mergeList(current, value, element, rule.mergeKey ?? '', mergeObject) : value);
  } else {
    setKey(original, key, value);
  }
}

// Go compares reflect types; JSON numbers here are one kind, and null matches only null.
function sameKind(a: Json, b: Json): boolean {
  return goJsonKind(a) === goJsonKind(b);
}

/** `$patch` in a map: replace stores the rest of the patch as it is, delete empties the map; any other value is refused. */
function objectDirective(patch: JsonObject): JsonObject {
  const directive = patch[DIRECTIVE];
  if (directive === 'replace') {
    delete patch[DIRECTIVE];
    return patch;
  }
  if (directive === 'delete') return {};
  throw unclassifiedPatchError(`unknown patch type: ${goFormatString(directive)} in map: ${goFormat(patch)}`);
}

// `$retainKeys`: every key the patch sets must be listed, and keys of the original that are not
// listed are cleared (volume sources, deployment strategy).
function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!hasKey(patch, RETAIN_KEYS)) return;
  const retained = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(retained)) throw malformedPatch('invalid patch format of retainKeys');
  const keep = new Set(retained);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(key)) throw malformedPatch('invalid patch format of retainKeys');
  }
  for (const key of Object.keys(original)) if (!keep.has(key)) delete original[key];
}
