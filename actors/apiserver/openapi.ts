// OpenAPI v3 (`/openapi/v3` and one document per served group version), built once from the
// resource table and the client models. What clients rely on: kubectl's field-validation check
// finds a kind's PATCH operation by `x-kubernetes-group-version-kind` and looks for the
// `fieldValidation` parameter; client-side apply builds strategic merge patches from the schemas
// when that operation accepts `application/strategic-merge-patch+json`; `kubectl explain` finds
// schemas by their group-version-kind array.
import { createHash } from 'node:crypto';
import { RESOURCES, groupVersion, groupVersions } from '../api/resources.ts';
import type { Json } from '../api/types.ts';
import type { Catalogue } from './catalogue.ts';
import { customDocument } from './openapi-custom.ts';
import { groupWords } from './openapi-names.ts';
import { KUBERNETES_VERSION, pathKey, resourcePaths, type JsonObject, type Names } from './openapi-paths.ts';
import { componentSchemas, type GroupVersionKind } from './openapi-schemas.ts';
import { modelForKind } from './validation/schema-source.ts';
function buildDocument(group: string, version: string): JsonObject {
  const names: Names = { tag: `${group ? group.replace(/\.k8s\.io$/, '').replace(/\./g, '_') : 'core'}_${version}`, prefix: `${groupWords(group)}${version.charAt(0).toUpperCase()}${version.slice(1)}` };
  const paths: JsonObject = {};
  const roots: string[] = [];
  const gvks = new Map<string, GroupVersionKind[]>();
  const addKind = (g: string, v: string, kind: string) => {
    const className = modelForKind(groupVersion(g, v), kind);
    if (!className) throw new Error(`no client model for ${groupVersion(g, v)} ${kind}`);
    if (!gvks.has(className)) roots.push(className);
    gvks.set(className, [{ group: g, version: v, kind }]);
  };
  for (const t of RESOURCES.filter((r) => r.group === group && r.version === version)) {
    addKind(t.group, t.version, t.kind);
    if (t.verbs.includes('list')) addKind(t.group, t.version, `${t.kind}List`);
    for (const s of t.subresources) addKind(s.group ?? t.group, s.version ?? t.version, s.kind);
    resourcePaths(t, names, paths);
  }
  for (const [kind, className] of [['Status', 'V1Status'], ['DeleteOptions', 'V1DeleteOptions']] as const) {
    roots.push(className);
    gvks.set(className, [{ group: '', version: 'v1', kind }, ...(group ? [{ group, version, kind }] : [])]);
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: KUBERNETES_VERSION }, paths: sorted, components: { schemas: componentSchemas(roots, gvks) } };
}

interface Built {
  doc: JsonObject;
  hash: string;
}

let built: Map<string, Built> | undefined;

function hashed(doc: JsonObject): Built {
  // Real servers hash the served bytes with SHA-512 and print the digest in upper-case hex.
  return { doc, hash: createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase() };
}

/** The built-in group versions' documents, built once. */
function builtinDocuments(): Map<string, Built> {
  if (!built) {
    built = new Map();
    for (const { group, version } of groupVersions()) built.set(pathKey(group, version), hashed(buildDocument(group, version)));
  }
  return built;
}

/** Documents of the group versions a catalogue defines, built again when its types change. */
const defined = new WeakMap<Catalogue, { generation: number; docs: Map<string, Built> }>();

function documents(catalogue: Catalogue): Map<string, Built> {
  const builtins = builtinDocuments();
  if (catalogue.generation === 0) return builtins;
  let cached = defined.get(catalogue);
  if (!cached || cached.generation !== catalogue.generation) {
    const docs = new Map(builtins);
    for (const { group, version } of catalogue.groupVersions()) {
      const key = pathKey(group, version);
      if (!docs.has(key)) docs.set(key, hashed(customDocument(catalogue, group, version)));
    }
    defined.set(catalogue, (cached = { generation: catalogue.generation, docs }));
  }
  return cached.docs;
}

/** `/openapi/v3`: every served group version and where its document is. */
export function openapiRoot(catalogue: Catalogue): Json {
  const paths: JsonObject = {};
  for (const [key, { hash }] of documents(catalogue)) paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  return { paths };
}

/** `/openapi/v3/<groupVersionPath>` (`api/v1`, `apis/apps/v1`), or undefined when not served. */
export function openapiDocument(catalogue: Catalogue, groupVersionPath: string): Json | undefined {
  return documents(catalogue).get(groupVersionPath.replace(/^\/+|\/+$/g, ''))?.doc;
}
