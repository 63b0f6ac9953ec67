// The path items of a resource in an OpenAPI v3 document: its collection, item, all-namespaces and
// subresource paths, each operation with the `x-kubernetes-group-version-kind` and the query
// parameters clients look for (kubectl's field-validation check finds a kind's PATCH operation and
// its `fieldValidation` parameter). Built-in and custom resources' documents (openapi.ts,
// openapi-custom.ts) are made of these.
import { apiVersionOf, groupVersion, type ResourceType, type Subresource } from '../api/resources.ts';
import type { Json } from '../api/types.ts';
import { META_PREFIX, schemaName } from './openapi-names.ts';
import type { GroupVersionKind } from './openapi-schemas.ts';
import { modelForKind } from './validation/schema-source.ts';

export type JsonObject = { [key: string]: Json };

export const KUBERNETES_VERSION = 'v1.32.0';
const REF = '#/components/schemas/';
const STATUS = `${META_PREFIX}Status`;
export const PATCH_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];

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

export interface Names {
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
const patchBody = (types: string[]): JsonObject => ({ content: Object.fromEntries(types.map((t) => [t, { schema: { $ref: `${REF}${META_PREFIX}Patch` } }])), required: true });

function gvkOf(t: ResourceType): GroupVersionKind {
  return { group: t.group, version: t.version, kind: t.kind };
}

/** The component schema name of a kind. */
export type SchemaNames = (apiVersion: string, kind: string) => string;

/** Built-in kinds' schemas are named after their client models. */
export const builtinSchemaOf: SchemaNames = (apiVersion, kind) => {
  const className = modelForKind(apiVersion, kind);
  if (!className) throw new Error(`no client model for ${apiVersion} ${kind}: the resource table serves a kind the OpenAPI cannot describe`);
  return schemaName(className);
};

/**
 * The path items of one resource: collection, item, all-namespaces list and subresources. Patches
 * take every patch type unless `patchTypes` says otherwise (custom resources have no strategic merge).
 */
export function resourcePaths(t: ResourceType, names: Names, paths: JsonObject, schemaOf: SchemaNames = builtinSchemaOf, patchTypes = PATCH_TYPES): void {
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
        parameters: [P.dryRun, P.fieldManager, P.fieldValidation, P.force], body: patchBody(patchTypes), response: kindSchema, codes: ['200', '201'] }, id('patch'), names);
    if (can('delete'))
      itemPath.delete = operation({ action: 'delete', description: `delete a ${t.kind}`, gvk,
        parameters: [P.dryRun, P.gracePeriodSeconds, P.orphanDependents, P.propagationPolicy], body: jsonBody(`${META_PREFIX}DeleteOptions`),
        response: STATUS, codes: ['200', '202'] }, id('delete'), names);
    paths[item] = itemPath;
    for (const s of t.subresources) paths[`${item}/${s.name}`] = subresourcePath(t, s, names, itemPath.parameters as JsonObject[], schemaOf, patchTypes);
  }
  if (namespaced && can('list'))
    paths[`${base}/${t.resource}`] = { parameters: [P.pretty], get: operation({ action: 'list', description: `list or watch objects of kind ${t.kind}`, gvk,
      parameters: P.list, response: schemaOf(apiVersionOf(t), `${t.kind}List`), codes: ['200'] }, `list${names.prefix}${t.kind}ForAllNamespaces`, names) };
}

function subresourcePath(t: ResourceType, s: Subresource, names: Names, parameters: JsonObject[], schemaOf: SchemaNames, patchTypes: string[]): JsonObject {
  const group = s.group ?? t.group;
  const version = s.version ?? t.version;
  const gvk = { group, version, kind: s.kind };
  // A subresource of another group (a custom resource's autoscaling/v1 Scale) is a built-in kind.
  const schema = (s.group === undefined ? schemaOf : builtinSchemaOf)(groupVersion(group, version), s.kind);
  const suffix = s.name.charAt(0).toUpperCase() + s.name.slice(1);
  const scope = t.scope === 'Namespaced' ? 'Namespaced' : '';
  const id = (verb: string) => `${verb}${names.prefix}${scope}${t.kind}${suffix}`;
  const out: JsonObject = { parameters };
  const write = [P.dryRun, P.fieldManager, P.fieldValidation];
  for (const verb of s.verbs) {
    if (verb === 'get') out.get = operation({ action: 'get', description: `read ${s.name} of the specified ${t.kind}`, gvk, parameters: [], response: schema, codes: ['200'] }, id('read'), names);
    if (verb === 'update') out.put = operation({ action: 'put', description: `replace ${s.name} of the specified ${t.kind}`, gvk, parameters: write, body: jsonBody(schema), response: schema, codes: ['200', '201'] }, id('replace'), names);
    if (verb === 'patch') out.patch = operation({ action: 'patch', description: `partially update ${s.name} of the specified ${t.kind}`, gvk, parameters: [...write, P.force], body: patchBody(patchTypes), response: schema, codes: ['200', '201'] }, id('patch'), names);
    if (verb === 'create') out.post = operation({ action: 'post', description: `create ${s.name} of a ${t.kind}`, gvk, parameters: write, body: jsonBody(schema), response: schema, codes: ['200', '201', '202'] }, id('create'), names);
  }
  return out;
}

/** `api/v1` or `apis/apps/v1`: the key of a group version in `/openapi/v3`. */
export function pathKey(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}
