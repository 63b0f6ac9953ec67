// From a CustomResourceDefinition to the types and kinds it serves: one type per served version
// (the storage version's marked), each with its kind's rules: DNS-subdomain names, generations
// counted on everything but metadata (and status, when status is a subresource), the status and
// scale subresources it declares, and the version's schema (version-schema.ts) for defaults,
// validation and Table columns. A definition being deleted still serves reads and deletes, but no
// creates, as the real server refuses them.
import { groupVersion, scaleSubresource, type ResourceType, type Subresource } from '../../api/resources.ts';
import { StatusError } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { DefinedType } from '../catalogue.ts';
import { deepEqual } from '../registry/deep-equal.ts';
import { defineKind, type Kind, type ScalePaths } from '../registry/kind.ts';
import { fields, list, text } from '../registry/tables-format.ts';
import { versionSchema, type VersionSchema } from './version-schema.ts';

const STORED = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

type Fields = Record<string, unknown>;

/** The definition's content other than metadata and, when it is a subresource, status. */
function content(obj: KObject, statusApart: boolean): Fields {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = obj;
  if (statusApart) delete rest.status;
  return rest;
}

function scalePaths(scale: Fields | undefined): ScalePaths | undefined {
  if (!scale) return undefined;
  const labelSelectorPath = text(scale.labelSelectorPath);
  return { specReplicasPath: text(scale.specReplicasPath), statusReplicasPath: text(scale.statusReplicasPath),
    ...(labelSelectorPath ? { labelSelectorPath } : {}) };
}

function customKind(version: Fields, schema: VersionSchema, storageApiVersion: string, terminating: boolean): Kind {
  const subresources = fields(version.subresources);
  const hasStatus = subresources.status !== undefined && subresources.status !== null;
  const scale = scalePaths(subresources.scale === undefined || subresources.scale === null ? undefined : fields(subresources.scale));
  return defineKind({
    nameRule: 'subdomain',
    hasStatus,
    hasGeneration: true,
    prepareForCreate(obj) {
      if (terminating) throw new StatusError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating');
      if (hasStatus) delete obj.status;
    },
    specChanged: (next, current) => !deepEqual(content(next, hasStatus), content(current, hasStatus)),
    defaults: schema.defaults,
    validate: schema.validate,
    validateUpdate: schema.validateUpdate,
    printer: schema.printer,
    scale,
    storageApiVersion,
  });
}

/** The types a definition serves now: none while it is not established. */
export function customTypes(crd: KObject, terminating: boolean): DefinedType[] {
  const spec = fields(crd.spec);
  const names = fields(spec.names);
  const group = text(spec.group);
  const storage = list(spec.versions).map((v) => fields(v)).find((v) => v.storage === true);
  const storageApiVersion = groupVersion(group, text(storage?.name));
  return list(spec.versions).map((v) => fields(v)).filter((v) => v.served === true).map((version) => {
    const subresources = fields(version.subresources);
    const served: Subresource[] = [];
    if (subresources.status !== undefined && subresources.status !== null)
      served.push({ name: 'status', kind: text(names.kind), verbs: ['get', 'patch', 'update'] });
    if (subresources.scale !== undefined && subresources.scale !== null) served.push(scaleSubresource);
    const type: ResourceType = {
      group, version: text(version.name), resource: text(names.plural), singular: text(names.singular) || text(names.kind).toLowerCase(),
      kind: text(names.kind), scope: spec.scope === 'Cluster' ? 'Cluster' : 'Namespaced',
      shortNames: list(names.shortNames).map(text), categories: list(names.categories).map(text),
      verbs: STORED, subresources: served, virtual: false,
    };
    const schema = versionSchema(crd, version);
    return { type, kind: customKind(version, schema, storageApiVersion, terminating), storage: version.storage === true, openapi: schema.openapi };
  });
}
