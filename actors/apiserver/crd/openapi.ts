// The OpenAPI v3 component schemas the real server publishes for a CRD version (apiextensions
// pkg/controller/openapi/builder): the object's schema as written (int-or-string unfolded into
// its anyOf) with apiVersion, kind and metadata added at the root and in every embedded resource,
// and the list kind; both carry x-kubernetes-group-version-kind. Names are the group reversed:
// `stable.example.com/v1/CronTab` → `com.example.stable.v1.CronTab`.
import { isPlainObject, type Json } from '../../api/types.ts';
import type { JSONSchemaProps } from './types.ts';

type JsonObject = { [key: string]: Json };

const REF = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.';
const API_VERSION_DOC =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DOC =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const EMBEDDED_API_VERSION_DOC =
  'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const EMBEDDED_KIND_DOC =
  'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const METADATA_DOC = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_METADATA_DOC = 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

export interface CustomResourceNames {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
}

/** `com.example.stable.v1.CronTab`: the component name of a kind. */
export function componentName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

const ref = (type: string, description: string): JsonObject => ({ description, allOf: [{ $ref: `${REF}${type}` }] });

/** The kind's and the list kind's component schemas, by name. */
export function customResourceComponents(schema: JSONSchemaProps | undefined, n: CustomResourceNames): JsonObject {
  const gvk = (kind: string): Json => [{ group: n.group, kind, version: n.version }];
  const object: JsonObject = isPlainObject(schema) ? publish(schema) : { type: 'object' };
  const properties = (isPlainObject(object.properties) ? object.properties : {}) as JsonObject;
  object.properties = {
    ...properties,
    apiVersion: { description: API_VERSION_DOC, type: 'string' },
    kind: { description: KIND_DOC, type: 'string' },
    metadata: ref('ObjectMeta', METADATA_DOC),
  };
  object['x-kubernetes-group-version-kind'] = gvk(n.kind);
  const name = componentName(n.group, n.version, n.kind);
  const list: JsonObject = {
    description: `${n.listKind} is a list of ${n.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { description: API_VERSION_DOC, type: 'string' },
      items: {
        description: `List of ${n.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: { $ref: `#/components/schemas/${name}` },
      },
      kind: { description: KIND_DOC, type: 'string' },
      metadata: ref('ListMeta', LIST_METADATA_DOC),
    },
    'x-kubernetes-group-version-kind': gvk(n.listKind),
  };
  return { [name]: object, [componentName(n.group, n.version, n.listKind)]: list };
}

// A copy of the schema as published: int-or-string unfolded, embedded resources with type meta.
function publish(s: JSONSchemaProps): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s)) if (v !== undefined) out[k] = v as Json;
  if (isPlainObject(s.properties)) {
    const props: JsonObject = {};
    for (const [k, p] of Object.entries(s.properties)) props[k] = isPlainObject(p) ? publish(p) : (p as Json);
    out.properties = props;
  }
  if (isPlainObject(s.items)) out.items = publish(s.items as JSONSchemaProps);
  if (isPlainObject(s.additionalProperties)) out.additionalProperties = publish(s.additionalProperties as JSONSchemaProps);
  if (s['x-kubernetes-int-or-string'] === true && !(Array.isArray(s.anyOf) && s.anyOf.length > 0)) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  if (s['x-kubernetes-embedded-resource'] === true) {
    out.properties = {
      ...((out.properties as JsonObject | undefined) ?? {}),
      apiVersion: { description: EMBEDDED_API_VERSION_DOC, type: 'string' },
      kind: { description: EMBEDDED_KIND_DOC, type: 'string' },
      metadata: ref('ObjectMeta', METADATA_DOC),
    };
    const required = Array.isArray(s.required) ? [...s.required] : [];
    for (const r of ['kind', 'apiVersion']) if (!required.includes(r)) required.push(r);
    out.required = required;
  }
  return out;
}
