// OpenAPI v3 (`/openapi/v3` and one document per served group version), built once from the
// resource table and the client models. What clients rely on: kubectl's field-validation check
// finds a kind's PATCH operation by `x-kubernetes-group-version-kind` and looks for the
// `fieldValidation` parameter; client-side apply builds strategic merge patches from the schemas
// when that operation accepts `application/strategic-merge-patch+json`; `kubectl explain` finds
// schemas by their group-version-kind array.
import { createHash } from 'node:crypto';
import { RESOURCES, apiVersionOf, groupVersion, groupVersions, type ResourceType, type Subresource } from '../api/resources.ts';
import type { Json } from '../api/types.ts';
import { META_PREFIX, groupWords, schemaName } from './openapi-names.ts';
import { componentSchemas, type GroupVersionKind } from './openapi-schemas.ts';
import { modelForKind } from './validation/schema-source.ts';

type JsonObject = { [key: string]: Json };

const KUBERNETES_VERSION = 'v1.32.0';
const REF = '#/components/schemas/';
const STATUS = `${META_PREFIX}Status`;
const PATCH_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];

const query = (name: string, type: string, description: string): JsonObject => ({ name, in: 'query', description, schema: { type, uniqueItems: true } });

const P = {
  pretty: query('pretty', 'string', "If 'true', then the output is pretty printed."),
  dryRun: query('dryRun', 'string', 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed'),
  fieldManager: query('fieldManager', 'string', 'A name for the actor making these changes; required for apply patches.'),
  fieldValidation: query('fieldValidation', 'string', 'How the server treats unknown and duplicate fields in the request body. Valid values are: - Ignore - Warn (the default) - Strict: fail the request'),
  force: query('force', 'boolean', 'Force an apply request to take over fields other managers own. Must be unset for non-apply patches.'),
  gracePeriodSeconds: query('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted.'),
  orphanDependents: query('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy.'),
  propagationPolicy: query('propagationPolicy', 'string', "Whether and how garbage collection will be performed: 'Orphan', 'Background' or 'Foreground'."),
  list: [
    query('allowWatchBookmarks', 'boolean', 'Requests watch events with type "BOOKMARK".'),
    query('continue', 'string', 'The continue token of a previous chunked list call.'),
    query('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields.'),
    query('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels.'),
    query('limit', 'integer', 'The maximum number of objects to return; more are announced by a continue token.'),
    query('resourceVersion', 'string', 'The resource version a list or watch may be served from.'),
    query('resourceVersionMatch', 'string', 'How resourceVersion applies to a list call.'),
    query('sendInitialEvents', 'boolean', 'Start a watch with synthetic events for the current state.'),
    query('timeoutSeconds', 'integer', 'Timeout for the list/watch call.'),
    query('watch', 'boolean', 'Watch for changes to the described resources.'),
  ],
};

const pathParam = (name: string, description: string): JsonObject => ({ name, in: 'path', required: true, description, schema: { type: 'string', uniqueItems: true } });

function content(schema: string, types = ['application/json', 'application/yaml']): JsonObject {
  return Object.fromEntries(types.map((t) => [t, { schema: { $ref: `${REF}${schema}` } }]));
}

function responses(schema: string, codes: string[]): JsonObject {
  const text: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };
  const out: JsonObject = {};
  for (const code of codes) out[code] = { description: text[code] ?? code, content: content(schema) };
  out['401'] = { description: 'Unauthorized' };
  return out;
}

interface OperationSpec {
  action: string;
  description: string;
  gvk: GroupVersionKind;
  parameters: JsonObject[];
  body?: JsonObject;
  response: string;
  codes: string[];
}

interface Names {
  tag: string;
  /** `CoreV1`, `AppsV1`: the middle of operation ids. */
  prefix: string;
}

function operation(o: OperationSpec, id: string, names: Names): JsonObject {
  const op: JsonObject = {
    description: o.description,
    operationId: id,
    tags: [names.tag],
    parameters: o.parameters,
    responses: responses(o.response, o.codes),
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': { group: o.gvk.group, version: o.gvk.version, kind: o.gvk.kind },
  };
  if (o.body) op.requestBody = o.body;
  return op;
}

const jsonBody = (schema: string): JsonObject => ({ content: content(schema, ['application/json']), required: true });
const patchBody = (): JsonObject => ({ content: Object.fromEntries(PATCH_TYPES.map((t) => [t, { schema: { $ref: `${REF}${META_PREFIX}Patch` } }])), required: true });

function gvkOf(t: ResourceType): GroupVersionKind {
  return { group: t.group, version: t.version, kind: t.kind };
}

function schemaOf(apiVersion: string, kind: string): string {
  const className = modelForKind(apiVersion, kind);
  if (!className) throw new Error(`no client model for ${apiVersion} ${kind}: the resource table serves a kind the OpenAPI cannot describe`);
  return schemaName(className);
}

/** The path items of one resource: collection, item, all-namespaces list and subresources. */
function resourcePaths(t: ResourceType, names: Names, paths: JsonObject): void {
  const base = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  const namespaced = t.scope === 'Namespaced';
  const collection = namespaced ? `${base}/namespaces/{namespace}/${t.resource}` : `${base}/${t.resource}`;
  const item = `${collection}/{name}`;
  const scope = namespaced ? 'Namespaced' : '';
  const kindSchema = schemaOf(apiVersionOf(t), t.kind);
  const gvk = gvkOf(t);
  const common = namespaced ? [pathParam('namespace', 'object name and auth scope, such as for teams and projects'), P.pretty] : [P.pretty];
  const can = (verb: string) => t.verbs.includes(verb);
  const id = (verb: string) => `${verb}${names.prefix}${scope}${t.kind}`;

  const collectionItem: JsonObject = { parameters: common };
  if (can('list'))
    collectionItem.get = operation({ action: 'list', description: `list or watch objects of kind ${t.kind}`, gvk, parameters: P.list,
      response: schemaOf(apiVersionOf(t), `${t.kind}List`), codes: ['200'] }, id('list'), names);
  if (can('create'))
    collectionItem.post = operation({ action: 'post', description: `create a ${t.kind}`, gvk, parameters: [P.dryRun, P.fieldManager, P.fieldValidation],
      body: jsonBody(kindSchema), response: kindSchema, codes: ['200', '201', '202'] }, id('create'), names);
  if (can('deletecollection'))
    collectionItem.delete = operation({ action: 'deletecollection', description: `delete collection of ${t.kind}`, gvk,
      parameters: [...P.list, P.dryRun, P.gracePeriodSeconds, P.orphanDependents, P.propagationPolicy], body: jsonBody(`${META_PREFIX}DeleteOptions`),
      response: STATUS, codes: ['200'] }, `delete${names.prefix}Collection${scope}${t.kind}`, names);
  paths[collection] = collectionItem;

  if (can('get') || can('update') || can('patch') || can('delete')) {
    const itemPath: JsonObject = { parameters: [pathParam('name', `name of the ${t.kind}`), ...common] };
    if (can('get')) itemPath.get = operation({ action: 'get', description: `read the specified ${t.kind}`, gvk, parameters: [], response: kindSchema, codes: ['200'] }, id('read'), names);
    if (can('update'))
      itemPath.put = operation({ action: 'put', description: `replace the specified ${t.kind}`, gvk, parameters: [P.dryRun, P.fieldManager, P.fieldValidation],
        body: jsonBody(kindSchema), response: kindSchema, codes: ['200', '201'] }, id('replace'), names);
    if (can('patch'))
      itemPath.patch = operation({ action: 'patch', description: `partially update the specified ${t.kind}`, gvk,
        parameters: [P.dryRun, P.fieldManager, P.fieldValidation, P.force], body: patchBody(), response: kindSchema, codes: ['200', '201'] }, id('patch'), names);
    if (can('delete'))
      itemPath.delete = operation({ action: 'delete', description: `delete a ${t.kind}`, gvk,
        parameters: [P.dryRun, P.gracePeriodSeconds, P.orphanDependents, P.propagationPolicy], body: jsonBody(`${META_PREFIX}DeleteOptions`),
        response: STATUS, codes: ['200', '202'] }, id('delete'), names);
    paths[item] = itemPath;
    for (const s of t.subresources) paths[`${item}/${s.name}`] = subresourcePath(t, s, names, itemPath.parameters as JsonObject[]);
  }
  if (namespaced && can('list'))
    paths[`${base}/${t.resource}`] = { parameters: [P.pretty], get: operation({ action: 'list', description: `list or watch objects of kind ${t.kind}`, gvk,
      parameters: P.list, response: schemaOf(apiVersionOf(t), `${t.kind}List`), codes: ['200'] }, `list${names.prefix}${t.kind}ForAllNamespaces`, names) };
}

function subresourcePath(t: ResourceType, s: Subresource, names: Names, parameters: JsonObject[]): JsonObject {
  const group = s.group ?? t.group;
  const version = s.version ?? t.version;
  const gvk = { group, version, kind: s.kind };
  const schema = schemaOf(groupVersion(group, version), s.kind);
  const suffix = s.name.charAt(0).toUpperCase() + s.name.slice(1);
  const scope = t.scope === 'Namespaced' ? 'Namespaced' : '';
  const id = (verb: string) => `${verb}${names.prefix}${scope}${t.kind}${suffix}`;
  const out: JsonObject = { parameters };
  const write = [P.dryRun, P.fieldManager, P.fieldValidation];
  for (const verb of s.verbs) {
    if (verb === 'get') out.get = operation({ action: 'get', description: `read ${s.name} of the specified ${t.kind}`, gvk, parameters: [], response: schema, codes: ['200'] }, id('read'), names);
    if (verb === 'update') out.put = operation({ action: 'put', description: `replace ${s.name} of the specified ${t.kind}`, gvk, parameters: write, body: jsonBody(schema), response: schema, codes: ['200', '201'] }, id('replace'), names);
    if (verb === 'patch') out.patch = operation({ action: 'patch', description: `partially update ${s.name} of the specified ${t.kind}`, gvk, parameters: [...write, P.force], body: patchBody(), response: schema, codes: ['200', '201'] }, id('patch'), names);
    if (verb === 'create') out.post = operation({ action: 'post', description: `create ${s.name} of a ${t.kind}`, gvk, parameters: write, body: jsonBody(schema), response: schema, codes: ['200', '201', '202'] }, id('create'), names);
  }
  return out;
}

/** `api/v1` or `apis/apps/v1`: the key of a group version in `/openapi/v3`. */
function pathKey(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

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

function documents(): Map<string, Built> {
  if (!built) {
    built = new Map();
    for (const { group, version } of groupVersions()) {
      const doc = buildDocument(group, version);
      // Real servers hash the served bytes with SHA-512 and print the digest in upper-case hex.
      const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();
      built.set(pathKey(group, version), { doc, hash });
    }
  }
  return built;
}

/** `/openapi/v3`: every served group version and where its document is. */
export function openapiRoot(): Json {
  const paths: JsonObject = {};
  for (const [key, { hash }] of documents()) paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  return { paths };
}

/** `/openapi/v3/<groupVersionPath>` (`api/v1`, `apis/apps/v1`), or undefined when not served. */
export function openapiDocument(groupVersionPath: string): Json | undefined {
  return documents().get(groupVersionPath.replace(/^\/+|\/+$/g, ''))?.doc;
}
