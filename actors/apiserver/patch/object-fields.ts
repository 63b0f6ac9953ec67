// The field sets of objects, walked with their schema: which fields an applied configuration
// sets, and which fields changed between two versions of an object (structured-merge-diff's
// typed ToFieldSet and Compare).
import type { Json } from '../../api/types.ts';
import { fieldElement, FieldSet, indexElement, keyElement, valueElement, type Path } from './field-set.ts';
import { hasKey, isObject, jsonEqual, type JsonObject } from './json-value.ts';
import { fieldShape, type ListRule, type Shape } from './shape.ts';

// Key fields every Kubernetes schema defaults when omitted (ContainerPort, ServicePort, ...
// `protocol` defaults to TCP), so an item keyed without it matches the stored, defaulted item.
const KEY_DEFAULTS: { [field: string]: Json } = { protocol: 'TCP' };

/** The path element naming a list item: by its key fields, by its value, or by position. */
export function itemElement(item: Json, index: number, rule: ListRule): string {
  if (rule.listType === 'set') return valueElement(item);
  if (rule.listType === 'map' && isObject(item)) {
    const keys: JsonObject = {};
    for (const k of rule.keys) {
      if (hasKey(item, k) && item[k] !== null) keys[k] = item[k];
      else if (hasKey(KEY_DEFAULTS, k)) keys[k] = KEY_DEFAULTS[k];
    }
    if (Object.keys(keys).length > 0) return keyElement(keys);
  }
  return indexElement(index);
}

/** A list's items by path element; a repeated element keeps its first item. */
export function itemsByElement(list: Json[], rule: ListRule): Map<string, Json> {
  const items = new Map<string, Json>();
  list.forEach((item, i) => {
    const element = itemElement(item, i, rule);
    if (!items.has(element)) items.set(element, item);
  });
  return items;
}

type Granular = { kind: 'object'; entries: Map<string, Json> } | { kind: 'list'; entries: Map<string, Json> };

/**
 * A value the walk descends into, with its children by path element; undefined for leaves
 * (scalars, atomic structs and lists, lists of untyped shape, values of the wrong type).
 */
export function granular(value: Json | undefined, shape: Shape): Granular | undefined {
  if (isObject(value) && descendsIntoObjects(shape)) {
    return { kind: 'object', entries: new Map(Object.entries(value).map(([k, v]) => [fieldElement(k), v])) };
  }
  if (Array.isArray(value) && shape.kind === 'list' && shape.rule.listType !== 'atomic') {
    return { kind: 'list', entries: itemsByElement(value, shape.rule) };
  }
  return undefined;
}

const descendsIntoObjects = (shape: Shape): boolean => shape.kind !== 'scalar' && shape.kind !== 'list' && !(shape.kind === 'struct' && shape.atomic);

/** The shape of the child named `element` of a granular value of shape `shape`. */
export function childShape(shape: Shape, element: string): Shape {
  return shape.kind === 'list' ? shape.element : fieldShape(shape, element.slice(2));
}

// Entries of string-keyed maps and list items are paths in their own right; struct fields are
// only where they end in a leaf.
const entriesAreMembers = (shape: Shape): boolean => shape.kind !== 'struct';

/** The fields an applied configuration sets (what its manager will own). */
export function fieldSetOf(value: Json, shape: Shape): FieldSet {
  const set = new FieldSet();
  collect(value, shape, [], set, false);
  return set;
}

function collect(value: Json, shape: Shape, path: Path, set: FieldSet, member: boolean): void {
  const node = granular(value, shape);
  if (!node || node.entries.size === 0) {
    // A null struct, map or list sets nothing (structured-merge-diff reads it as absent).
    const nullContainer = value === null && (shape.kind === 'struct' || shape.kind === 'map' || shape.kind === 'list');
    if (path.length > 0 && (member || !nullContainer)) set.insert(path);
    return;
  }
  if (member) set.insert(path);
  for (const [element, child] of node.entries) {
    collect(child, childShape(shape, element), [...path, element], set, entriesAreMembers(shape));
  }
}

export interface Changes {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** The fields added, modified and removed from `before` to `after`. */
export function compareObjects(before: Json | undefined, after: Json | undefined, shape: Shape): Changes {
  const changes: Changes = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  diff(before, after, shape, [], changes, false);
  return changes;
}

// Versions share the subtrees an update did not touch: one and the same value has no changes.
// Equal values have none either: a deep comparison costs far less than walking them by shape (an
// update sent as a whole object shares nothing with the stored one, yet changes little).
const same = (a: Json | undefined, b: Json | undefined): boolean => a === b || (a !== undefined && b !== undefined && jsonEqual(a, b));

function diff(a: Json | undefined, b: Json | undefined, shape: Shape, path: Path, out: Changes, member: boolean): void {
  if (!same(a, b)) diffUnequal(a, b, shape, path, out, member);
}

function diffUnequal(a: Json | undefined, b: Json | undefined, shape: Shape, path: Path, out: Changes, member: boolean): void {
  if (isObject(a) && isObject(b) && descendsIntoObjects(shape) && !isEmptyObject(a) && !isEmptyObject(b)) return diffFields(a, b, shape, path, out);
  const ga = granular(a, shape);
  const gb = granular(b, shape);
  const emptyA = !ga || ga.entries.size === 0;
  const emptyB = !gb || gb.entries.size === 0;
  if ((!ga && !gb) || (emptyA && emptyB)) {
    if (path.length === 0) return;
    if (a === undefined && b !== undefined) out.added.insert(path);
    else if (b === undefined && a !== undefined) out.removed.insert(path);
    else if (!jsonEqual(a, b)) out.modified.insert(path);
    return;
  }
  if ((ga && gb && ga.kind !== gb.kind) || (a !== undefined && !ga) || (b !== undefined && !gb)) {
    // The value changed between a leaf and a container: everything under it goes and comes.
    diff(a, undefined, shape, path, out, member);
    diff(undefined, b, shape, path, out, member);
    return;
  }
  if (path.length > 0) {
    // A container that appears is owned as a whole when it is a map entry, a list item, or a
    // string-keyed map (the `".": {}` of `f:labels` in Update entries); one that goes is removed.
    if (a === undefined && (member || shape.kind === 'map' || shape.kind === 'untyped')) out.added.insert(path);
    if (b === undefined) out.removed.insert(path);
  }
  const elements = new Set([...(ga?.entries.keys() ?? []), ...(gb?.entries.keys() ?? [])]);
  for (const element of elements) {
    diff(ga?.entries.get(element), gb?.entries.get(element), childShape(shape, element), [...path, element], out, entriesAreMembers(shape));
  }
}

function isEmptyObject(o: JsonObject): boolean {
  for (const _ in o) return false;
  return true;
}

// Two non-empty objects walked field by field, as the general case does through `granular` but
// without its maps: the common case, as most of an object is structs and string maps. Equal
// fields are skipped before their path is made.
function diffFields(a: JsonObject, b: JsonObject, shape: Shape, path: Path, out: Changes): void {
  const member = entriesAreMembers(shape);
  for (const k in a) {
    const va = a[k];
    const vb = hasKey(b, k) ? b[k] : undefined;
    if (same(va, vb)) continue;
    const element = fieldElement(k);
    diffUnequal(va, vb, childShape(shape, element), [...path, element], out, member);
  }
  for (const k in b) {
    if (hasKey(a, k)) continue;
    const element = fieldElement(k);
    diffUnequal(undefined, b[k], childShape(shape, element), [...path, element], out, member);
  }
}
