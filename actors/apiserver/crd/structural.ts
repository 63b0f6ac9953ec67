// The structural view of a schema (apiextensions-apiserver pkg/apiserver/schema structural.go and
// convert.go): per node its type, the Kubernetes extensions, defaults and the shape of its
// children. Pruning, defaulting, list types, embedded metadata, CEL and the patch shape all walk
// this form; value validation compiles the full schema separately (value-validator.ts).
import { isPlainObject, type Json } from '../../api/types.ts';
import type { JSONSchemaProps, ValidationRule } from './types.ts';

export interface Structural {
  /** '' when the schema names no type (int-or-string, preserve-unknown-fields, nested clauses). */
  type: string;
  nullable: boolean;
  /** undefined when there is none; a `null` default counts as none, as Go's nil does. */
  default: Json | undefined;
  description: string;
  format: string;
  properties?: Map<string, Structural>;
  /** additionalProperties: a schema (allows), or a bare true/false. */
  additionalProperties?: { schema?: Structural; allows: boolean };
  items?: Structural;
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  intOrString: boolean;
  listType?: string;
  listMapKeys?: string[];
  mapType?: string;
  validations: ValidationRule[];
  maxItems?: number;
  maxLength?: number;
  maxProperties?: number;
  required: string[];
  enum?: Json[];
  /** The schema this node was made from. */
  source: JSONSchemaProps;
}

const UNSUPPORTED: [keyof JSONSchemaProps, string][] = [
  ['id', 'id'],
  ['$schema', 'schema'],
  ['$ref', '$ref'],
  ['patternProperties', 'patternProperties'],
  ['dependencies', 'dependencies'],
  ['additionalItems', 'additionalItems'],
  ['definitions', 'definitions'],
];

export class StructuralError extends Error {
  override readonly name = 'StructuralError';
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * NewStructural: throws StructuralError with the real wording for what no structural schema can
 * hold (an `items` array, `$ref`, `patternProperties`...). Deep input is bounded by the caller's
 * decoder; recursion follows the schema, which the CRD's size limit keeps small.
 */
export function toStructural(s: JSONSchemaProps): Structural {
  for (const [field, name] of UNSUPPORTED) {
    const v = s[field];
    if (v !== undefined && v !== null && v !== '' && !(isPlainObject(v) && Object.keys(v).length === 0))
      throw new StructuralError(`OpenAPIV3Schema '${name}' is not supported`);
  }
  const out: Structural = {
    type: str(s.type),
    nullable: s.nullable === true,
    default: s.default === null ? undefined : s.default,
    description: str(s.description),
    format: str(s.format),
    preserveUnknownFields: s['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: s['x-kubernetes-embedded-resource'] === true,
    intOrString: s['x-kubernetes-int-or-string'] === true,
    validations: Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : [],
    required: strings(s.required),
    source: s,
  };
  if (typeof s['x-kubernetes-list-type'] === 'string') out.listType = s['x-kubernetes-list-type'];
  if (Array.isArray(s['x-kubernetes-list-map-keys'])) out.listMapKeys = strings(s['x-kubernetes-list-map-keys']);
  if (typeof s['x-kubernetes-map-type'] === 'string') out.mapType = s['x-kubernetes-map-type'];
  for (const k of ['maxItems', 'maxLength', 'maxProperties'] as const) {
    const n = num(s[k]);
    if (n !== undefined) out[k] = n;
  }
  if (Array.isArray(s.enum)) out.enum = s.enum;
  if (s.items !== undefined && s.items !== null) {
    if (Array.isArray(s.items)) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    if (isPlainObject(s.items)) out.items = toStructural(s.items);
  }
  if (isPlainObject(s.properties) && Object.keys(s.properties).length > 0) {
    out.properties = new Map();
    for (const [k, v] of Object.entries(s.properties)) if (isPlainObject(v)) out.properties.set(k, toStructural(v as JSONSchemaProps));
  }
  const ap = s.additionalProperties;
  if (typeof ap === 'boolean') out.additionalProperties = { allows: ap };
  else if (isPlainObject(ap)) out.additionalProperties = { schema: toStructural(ap as JSONSchemaProps), allows: true };
  return out;
}

/** The schema of a field of an object node: its property, else additionalProperties' schema. */
export function fieldSchema(s: Structural | undefined, field: string): Structural | undefined {
  if (!s) return undefined;
  return s.properties?.get(field) ?? s.additionalProperties?.schema;
}

/** The structural root as a resource sees it: embedded, so apiVersion, kind and metadata are implicit. */
export function asResourceRoot(s: Structural | undefined): Structural {
  const root = s ?? toStructural({});
  return root.embeddedResource ? root : { ...root, embeddedResource: true };
}
