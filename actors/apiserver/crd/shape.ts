// The patch shape of a custom resource version: how server-side apply walks its objects, from the
// structural schema as the real server builds its structured-merge-diff types from the CRD's
// OpenAPI (x-kubernetes-list-type and list-map-keys, x-kubernetes-map-type). Objects with
// properties are structs (atomic under map-type atomic), additionalProperties a map, lists merge
// by their type (atomic when unset), and preserve-unknown-fields or untyped nodes merge key by
// key. Each resource's and embedded resource's metadata is ObjectMeta.
import { rootShape, type ListRule, type Shape } from '../patch/shape.ts';
import type { Structural } from './structural.ts';

const SCALAR: Shape = { kind: 'scalar' };
const UNTYPED: Shape = { kind: 'untyped' };

export function schemaShape(root: Structural): Shape {
  return shapeOf({ ...root, embeddedResource: true });
}

function shapeOf(s: Structural | undefined): Shape {
  if (!s) return UNTYPED;
  if (s.type === 'array') return { kind: 'list', element: shapeOf(s.items), rule: listRule(s) };
  if (s.type === 'object' || s.embeddedResource || s.properties || s.additionalProperties) return objectShape(s);
  if (!s.type && !s.intOrString && s.preserveUnknownFields) return UNTYPED;
  return SCALAR;
}

function objectShape(s: Structural): Shape {
  const atomic = s.mapType === 'atomic';
  if (s.additionalProperties && !s.properties) return atomic ? SCALAR : { kind: 'map', element: shapeOf(s.additionalProperties.schema) };
  if (!s.properties && !s.embeddedResource) return atomic ? SCALAR : UNTYPED;
  const fields = new Map<string, Shape>();
  s.properties?.forEach((p, k) => fields.set(k, shapeOf(p)));
  if (s.embeddedResource) {
    fields.set('metadata', rootShape('V1ObjectMeta'));
    fields.set('apiVersion', SCALAR);
    fields.set('kind', SCALAR);
  }
  return { kind: 'struct', model: '', atomic, fields };
}

function listRule(s: Structural): ListRule {
  if (s.listType === 'map' && s.listMapKeys && s.listMapKeys.length > 0) return { listType: 'map', keys: s.listMapKeys, merge: false };
  if (s.listType === 'set') return { listType: 'set', keys: [], merge: false };
  return { listType: 'atomic', keys: [], merge: false };
}
