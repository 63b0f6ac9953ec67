// `components.schemas` of an OpenAPI v3 group-version document, in the real server's shape: nested
// models by `allOf: [{$ref}]` beside the field's description, arrays with `items`, maps with
// `additionalProperties`, the list merge markers strategic merge patch and apply read, and the
// group-version-kind array on top-level kinds (what `kubectl explain` looks kinds up by).
import type { Json } from '../api/types.ts';
import { META_PREFIX, schemaName } from './openapi-names.ts';
import { listKeys } from './validation/list-keys.ts';
import { goNameOf, innermost, model, reachableModels, type Field, type FieldType } from './validation/schema-source.ts';

type JsonObject = { [key: string]: Json };

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

const REF = '#/components/schemas/';

/** Named types the client models flatten into scalars, with the schemas real servers give them. */
const BUILTIN: Record<string, JsonObject> = {
  [`${META_PREFIX}Time`]: {
    description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON. It is represented as an RFC 3339 date and time string.',
    type: 'string',
    format: 'date-time',
  },
  [`${META_PREFIX}MicroTime`]: {
    description: 'MicroTime is version of Time with microsecond level precision.',
    type: 'string',
    format: 'date-time',
  },
  [`${META_PREFIX}FieldsV1`]: {
    description: 'FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.',
    type: 'object',
  },
  [`${META_PREFIX}Patch`]: {
    description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
    type: 'object',
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    description: 'IntOrString is a type that can hold an int32 or a string.',
    format: 'int-or-string',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
  },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    description: 'Quantity is a fixed-point representation of a number, written as a plain number or with a suffix such as 500m, 1Gi or 2e3.',
    oneOf: [{ type: 'string' }, { type: 'number' }],
  },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {
    description: 'RawExtension is used to hold extensions in external versions: any JSON object.',
    type: 'object',
  },
};

/** Free-form fields that are not RawExtension. */
const RAW_FIELDS: Record<string, string> = { 'ManagedFieldsEntry.fieldsV1': `${META_PREFIX}FieldsV1` };

const ref = (name: string): JsonObject => ({ $ref: `${REF}${name}` });

function namedScalar(t: FieldType, rawName: string): string | undefined {
  if (t.kind === 'time') return `${META_PREFIX}${t.micro ? 'MicroTime' : 'Time'}`;
  if (t.kind === 'intOrString') return 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
  if (t.kind === 'quantity') return 'io.k8s.apimachinery.pkg.api.resource.Quantity';
  if (t.kind === 'raw') return rawName;
  return undefined;
}

/** The schema of a value of type `t`, without description; named types are bare `$ref`s. */
function typeSchema(t: FieldType, rawName: string): JsonObject {
  const named = namedScalar(t, rawName);
  if (named) return ref(named);
  switch (t.kind) {
    case 'string':
      return { type: 'string' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
      return { type: 'integer', format: t.format };
    case 'number':
      return { type: 'number', format: 'double' };
    case 'model':
      return ref(schemaName(t.model));
    case 'array':
      return { type: 'array', items: typeSchema(t.items, rawName) };
    case 'map':
      return { type: 'object', additionalProperties: typeSchema(t.values, rawName) };
    default:
      return {};
  }
}

function propertySchema(owner: string, f: Field): JsonObject {
  const rawName = RAW_FIELDS[`${goNameOf(owner)}.${f.name}`] ?? 'io.k8s.apimachinery.pkg.runtime.RawExtension';
  const base = typeSchema(f.type, rawName);
  // The client drops the descriptions of fields that hold a model; the model's own stands in, so
  // explain's field lists do not read "<no description>" for every spec and status.
  const description = f.description ?? (f.type.kind === 'model' ? model(f.type.model)?.description : undefined);
  const out: JsonObject = typeof base.$ref === 'string' ? { allOf: [base] } : base;
  if (description) out.description = description;
  const keys = f.type.kind === 'array' ? listKeys(owner, f.name) : undefined;
  if (keys?.listType) out['x-kubernetes-list-type'] = keys.listType;
  if (keys?.mapKeys) out['x-kubernetes-list-map-keys'] = [...keys.mapKeys];
  if (keys?.mergeKey) out['x-kubernetes-patch-merge-key'] = keys.mergeKey;
  if (keys?.strategy) out['x-kubernetes-patch-strategy'] = keys.strategy;
  return out;
}

function modelSchema(className: string, gvks: GroupVersionKind[] | undefined): JsonObject {
  const m = model(className);
  if (!m) throw new Error(`no client model ${className}`);
  const properties: JsonObject = {};
  for (const f of m.fields.values()) properties[f.name] = propertySchema(className, f);
  const out: JsonObject = { description: m.description, type: 'object', properties };
  if (m.required.length > 0) out.required = [...m.required];
  if (gvks) out['x-kubernetes-group-version-kind'] = gvks.map((g) => ({ group: g.group, kind: g.kind, version: g.version }));
  return out;
}

function namedScalarsOf(className: string, into: Set<string>): void {
  for (const f of model(className)?.fields.values() ?? []) {
    const rawName = RAW_FIELDS[`${goNameOf(className)}.${f.name}`] ?? 'io.k8s.apimachinery.pkg.runtime.RawExtension';
    const named = namedScalar(innermost(f.type), rawName);
    if (named) into.add(named);
  }
}

/**
 * The schemas of `roots` (client classes) and everything they contain, sorted by name.
 * `gvks` gives the group-version-kinds of the top-level ones.
 */
export function componentSchemas(roots: readonly string[], gvks: ReadonlyMap<string, GroupVersionKind[]>): JsonObject {
  const out: JsonObject = {};
  const scalars = new Set<string>([`${META_PREFIX}Patch`]);
  for (const className of reachableModels(roots)) {
    out[schemaName(className)] = modelSchema(className, gvks.get(className));
    namedScalarsOf(className, scalars);
  }
  for (const name of scalars) out[name] = BUILTIN[name] ?? { type: 'object' };
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
