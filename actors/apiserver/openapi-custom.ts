// The OpenAPI v3 document of a group version that CustomResourceDefinitions serve, as the real
// server publishes it: each kind's schema and its List's (crd/ openapi.ts, named by the reversed
// group: `com.example.v1.Widget`), the paths of every resource with its group-version-kind, and
// patches without strategic merge, which custom resources do not take.
import type { Catalogue } from './catalogue.ts';
import { componentName } from './crd/index.ts';
import { groupWords } from './openapi-names.ts';
import { resourcePaths, type JsonObject, type Names } from './openapi-paths.ts';
import { componentSchemas, type GroupVersionKind } from './openapi-schemas.ts';
import { modelForKind } from './validation/schema-source.ts';

const CUSTOM_PATCH_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json'];

/** The meta types every custom document refers to, and autoscaling/v1 Scale for scale subresources. */
const SHARED_MODELS: readonly [string, string][] = [['v1', 'Status'], ['v1', 'DeleteOptions'], ['autoscaling/v1', 'Scale']];

export function customDocument(catalogue: Catalogue, group: string, version: string): JsonObject {
  const defined = catalogue.all().filter((t) => t.group === group && t.version === version)
    .map((t) => catalogue.definedType(t)).filter((d) => d !== undefined);
  const names: Names = { tag: `${group.replace(/\./g, '_')}_${version}`, prefix: `${groupWords(group)}${version.charAt(0).toUpperCase()}${version.slice(1)}` };
  const paths: JsonObject = {};
  const schemas: JsonObject = {};
  const schemaOf = (_apiVersion: string, kind: string) => componentName(group, version, kind);
  for (const d of defined) {
    Object.assign(schemas, d.openapi);
    resourcePaths(d.type, names, paths, schemaOf, CUSTOM_PATCH_TYPES);
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
