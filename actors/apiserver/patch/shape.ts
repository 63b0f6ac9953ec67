// What the patch walkers need to know about a field while walking an object: is it a struct
// (a named model), a string-keyed map, a list (and how its items are matched), or a scalar.
// Types come from @kubernetes/client-node's model classes, list strategies from list-keys.ts.
import * as k8s from '@kubernetes/client-node';
import { listKeys } from '../validation/list-keys.ts';

/** How a list is merged and how its items are told apart. */
export interface ListRule {
  /** Server-side apply: 'map' items are keyed by `keys`, 'set' items by value, 'atomic' is one leaf. */
  listType: 'atomic' | 'set' | 'map';
  keys: string[];
  /** Strategic merge patch: `patchStrategy: merge` (by `mergeKey` for lists of objects). */
  merge: boolean;
  mergeKey?: string;
}

export type Shape =
  /**
   * A struct: a built-in model's fields come from its client class; a custom resource's from
   * `fields` (derived from its schema; a field it does not list is untyped).
   */
  | { kind: 'struct'; model: string; atomic: boolean; fields?: ReadonlyMap<string, Shape> }
  | { kind: 'map'; element: Shape }
  | { kind: 'list'; element: Shape; rule: ListRule }
  | { kind: 'scalar' }
  /**
   * `any`, or a kind with no model (custom resources): objects merge key by key, lists are
   * atomic. At the root of such a kind, `metadata` is still ObjectMeta.
   */
  | { kind: 'untyped'; root?: boolean };

interface Attribute {
  baseName: string;
  type: string;
}
interface ModelClass {
  getAttributeTypeMap(): Attribute[];
}

const UNTYPED: Shape = { kind: 'untyped' };
const SCALAR: Shape = { kind: 'scalar' };
const SCALAR_TYPES = new Set(['string', 'number', 'boolean', 'Date', 'IntOrString']);

// Structs marked `+structType=atomic` in k8s.io/api: apply replaces them whole, and their
// managed fields are a single leaf (`f:selector: {}`). The client models do not carry this.
const ATOMIC_STRUCTS = new Set(['V1LabelSelector', 'V1LocalObjectReference']);

const attributesByModel = new Map<string, Map<string, Attribute> | null>();

function attributes(model: string): Map<string, Attribute> | null {
  let found = attributesByModel.get(model);
  if (found === undefined) {
    const cls = (k8s as unknown as Record<string, Partial<ModelClass> | undefined>)[model];
    found = typeof cls?.getAttributeTypeMap === 'function' ? new Map(cls.getAttributeTypeMap().map((a) => [a.baseName, a])) : null;
    attributesByModel.set(model, found);
  }
  return found;
}

/** True when `model` names a built-in model class (V1Pod, V1Deployment, ...). */
export const isKnownModel = (model: string): boolean => attributes(model) !== null;

/** The shape of a whole object of `model`: untyped when the model is unknown. */
export const rootShape = (model: string): Shape =>
  isKnownModel(model) ? { kind: 'struct', model, atomic: ATOMIC_STRUCTS.has(model) } : { kind: 'untyped', root: true };

/** The shape of field `field` inside a value of shape `parent`. Unknown fields are untyped. */
export function fieldShape(parent: Shape, field: string): Shape {
  if (parent.kind === 'map') return parent.element;
  if (parent.kind === 'untyped' && parent.root && field === 'metadata') return rootShape('V1ObjectMeta');
  if (parent.kind !== 'struct') return UNTYPED;
  if (parent.fields) return parent.fields.get(field) ?? UNTYPED;
  const attribute = attributes(parent.model)?.get(field);
  return attribute ? parseType(attribute.type, parent.model, field) : UNTYPED;
}

function parseType(type: string, model: string, field: string): Shape {
  if (SCALAR_TYPES.has(type)) return SCALAR;
  const list = /^Array<(.+)>$/.exec(type);
  if (list) {
    const element = parseType(list[1], model, field);
    return { kind: 'list', element, rule: listRule(model, field, element) };
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) return { kind: 'map', element: parseType(map[1], model, field) };
  return isKnownModel(type) ? { kind: 'struct', model: type, atomic: ATOMIC_STRUCTS.has(type) } : UNTYPED;
}

// Lists without an explicit x-kubernetes-list-type follow their patch strategy, as the OpenAPI
// to structured-merge-diff conversion does: merge with a key is a map, merge of scalars a set.
function listRule(model: string, field: string, element: Shape): ListRule {
  const keys = listKeys(model, field);
  const merge = keys?.strategy?.split(',').includes('merge') ?? false;
  const rule: ListRule = { listType: 'atomic', keys: [], merge };
  if (keys?.mergeKey) rule.mergeKey = keys.mergeKey;
  if (keys?.listType === 'map' && keys.mapKeys?.length) {
    rule.listType = 'map';
    rule.keys = keys.mapKeys;
  } else if (keys?.listType) {
    rule.listType = keys.listType === 'map' ? 'atomic' : keys.listType;
  } else if (merge && keys?.mergeKey) {
    rule.listType = 'map';
    rule.keys = [keys.mergeKey];
  } else if (merge && element.kind === 'scalar') {
    rule.listType = 'set';
  }
  return rule;
}
