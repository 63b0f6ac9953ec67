// The OpenAPI v3 document of a group version that CustomResourceDefinitions serve, as the real
// server publishes it: each kind's schema (the definition's openAPIV3Schema, with apiVersion, kind
// and ObjectMeta added) named by the reversed group (`com.example.v1.Widget`), its List, the
// paths of every resource with its group-version-kind, and patches without strategic merge,
// which custom resources do not take.
import type { Json } from '../api/types.ts';
import type { Catalogue, DefinedType } from './catalogue.ts';
import { groupWords, META_PREFIX } from './openapi-names.ts';
import { resourcePaths, type JsonObject, type Names } from './openapi-paths.ts';
import { componentSchemas, type GroupVersionKind } from './openapi-schemas.ts';
import { modelForKind } from './validation/schema-source.ts';

const REF = '#/components/schemas/';
const CUSTOM_PATCH_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json'];

/** `example.com`, `v1`, `Widget` → `com.example.v1.Widget`. */
export function customSchemaName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

const gvkList = (gvk: GroupVersionKind): Json => [{ group: gvk.group, version: gvk.version, kind: gvk.kind }];

function kindSchema(d: DefinedType, gvk: GroupVersionKind): JsonObject {
  const schema = (d.openapi ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as JsonObject;
  const properties = { ...((schema.properties as JsonObject | undefined) ?? {}) };
  properties.apiVersion = { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' };
  properties.kind = { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' };
  properties.metadata = { allOf: [{ $ref: `${REF}${META_PREFIX}ObjectMeta` }], description: 'Standard object\'s metadata.' };
  return { ...schema, type: 'object', properties, 'x-kubernetes-group-version-kind': gvkList(gvk) };
}

function listSchema(name: string, gvk: GroupVersionKind): JsonObject {
  return {
    description: `${gvk.kind} is a list of ${gvk.kind.replace(/List$/, '')}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      items: { type: 'array', items: { $ref: `${REF}${name}` } },
      kind: { type: 'string' },
      metadata: { allOf: [{ $ref: `${REF}${META_PREFIX}ListMeta` }] },
    },
    'x-kubernetes-group-version-kind': gvkList(gvk),
  };
}

/** The meta types every custom document refers to, and autoscaling/v1 Scale for scale subresources. */
const SHARED_MODELS: readonly [string, string][] = [['v1', 'Status'], ['v1', 'DeleteOptions'], ['autoscaling/v1', 'Scale']];

export function customDocument(catalogue: Catalogue, group: string, version: string): JsonObject {
  const defined = catalogue.all().filter((t) => t.group === group && t.version === version)
    .map((t) => catalogue.definedType(t)).filter((d) => d !== undefined);
  const names: Names = { tag: `${group.replace(/\./g, '_')}_${version}`, prefix: `${groupWords(group)}${version.charAt(0).toUpperCase()}${version.slice(1)}` };
  const paths: JsonObject = {};
  const schemas: JsonObject = {};
  const schemaOf = (_apiVersion: string, kind: string) => customSchemaName(group, version, kind);
  for (const d of defined) {
    const t = d.type;
    const name = customSchemaName(group, version, t.kind);
    schemas[name] = kindSchema(d, { group, version, kind: t.kind });
    schemas[`${name}List`] = listSchema(name, { group, version, kind: `${t.kind}List` });
    resourcePaths(t, names, paths, schemaOf, CUSTOM_PATCH_TYPES);
  }
  const roots = SHARED_MODELS.map(([apiVersion, kind]) => modelForKind(apiVersion, kind)!);
  const gvks = new Map<string, GroupVersionKind[]>();
  SHARED_MODELS.forEach(([apiVersion, kind], i) => {
    const [g, v] = apiVersion.includes('/') ? apiVersion.split('/') as [string, string] : ['', apiVersion];
    // Status and DeleteOptions are served in every group version; Scale only in its own.
    gvks.set(roots[i]!, [{ group: g, version: v, kind }, ...(kind === 'Scale' ? [] : [{ group, version, kind }])]);
  });
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { openapi: '3.0.0', info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' }, paths: sorted,
    components: { schemas: { ...componentSchemas(roots, gvks), ...schemas } } };
}
