// From a CustomResourceDefinition to the types and kinds it serves: one type per served version
// (the storage version's marked), each with its kind's rules from the version compiled by the
// structural-schema engine (crd/): DNS-subdomain names, generations counted on everything but
// metadata (and status, when status is a subresource), the status and scale subresources it
// declares, pruning on decode, defaults, validation (of status writes apart), Table columns, the
// shape server-side apply merges by, and no strategic merge patches. A definition being deleted
// still serves reads and deletes, but no creates, as the real server refuses them.
import { groupVersion, scaleSubresource, type ResourceType, type Subresource } from '../../api/resources.ts';
import { StatusError } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { DefinedType } from '../catalogue.ts';
import { compileVersion, type CustomResourceDefinition, type CustomResourceVersion } from '../crd/index.ts';
import { deepEqual } from '../registry/deep-equal.ts';
import { defineKind, type Kind } from '../registry/kind.ts';

const STORED = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

type Fields = Record<string, unknown>;

/** The object's content other than metadata and, when it is a subresource, status. */
function content(obj: KObject, statusApart: boolean): Fields {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = obj;
  if (statusApart) delete rest.status;
  return rest;
}

const atVersion = (obj: KObject, apiVersion: string): KObject => (obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion });

function customKind(v: CustomResourceVersion, storageApiVersion: string, terminating: boolean): Kind {
  const hasStatus = v.statusSubresource;
  const apiVersion = groupVersion(v.group, v.version);
  return defineKind({
    nameRule: 'subdomain',
    hasStatus,
    hasGeneration: true,
    prepareForCreate(obj) {
      if (terminating) throw new StatusError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating');
      if (hasStatus) delete obj.status;
    },
    specChanged: (next, current) => !deepEqual(content(next, hasStatus), content(current, hasStatus)),
    defaults(obj) {
      const defaulted = v.applyDefaults(obj as never);
      if (defaulted !== (obj as unknown)) Object.assign(obj, defaulted);
    },
    validate(stored, storedOld, subresource) {
      // Validated as the version asked for; stored as the storage version (conversion None: only apiVersion differs).
      const obj = atVersion(stored, apiVersion);
      const old = storedOld && atVersion(storedOld, apiVersion);
      return subresource === 'status' && old ? v.validateStatus(obj as never, old as never) : v.validate(obj as never, old as never);
    },
    printer: v.printer,
    scale: v.scale,
    storageApiVersion,
    schema: { prune: v.prune, shape: v.shape, strategicMerge: false },
  });
}

/** The types a definition serves now (its served versions, compiled). */
export function customTypes(crd: KObject, terminating: boolean): DefinedType[] {
  const definition = crd as unknown as CustomResourceDefinition;
  const served = definition.spec.versions.filter((v) => v.served);
  const storage = definition.spec.versions.find((v) => v.storage);
  const storageApiVersion = groupVersion(definition.spec.group, storage?.name ?? '');
  return served.map((version) => {
    const v = compileVersion(definition, version.name);
    const subresources: Subresource[] = [];
    if (v.statusSubresource) subresources.push({ name: 'status', kind: v.kind, verbs: ['get', 'patch', 'update'] });
    if (v.scale) subresources.push(scaleSubresource);
    const names = definition.spec.names;
    const type: ResourceType = {
      group: v.group, version: v.version, resource: v.plural, singular: v.singular, kind: v.kind, scope: v.namespaced ? 'Namespaced' : 'Cluster',
      shortNames: names.shortNames ?? [], categories: names.categories ?? [], verbs: STORED, subresources, virtual: false,
    };
    return { type, kind: customKind(v, storageApiVersion, terminating), storage: v.storage, openapi: v.openAPIComponents() };
  });
}
