// The v1 defaults of a CustomResourceDefinition (apiextensions pkg/apis/apiextensions/v1
// defaults.go) and what its strategy sets on create (registry/customresourcedefinition
// strategy.go): singular is the lower-cased kind, listKind `<Kind>List`, conversion None; on
// create the status starts empty but for the storage version in storedVersions; on update a
// new storage version is added to storedVersions.
import { isPlainObject } from '../../api/types.ts';
import type { CustomResourceDefinition, CustomResourceDefinitionSpec } from './types.ts';

export function defaultSpec(spec: CustomResourceDefinitionSpec): CustomResourceDefinitionSpec {
  if (!isPlainObject(spec)) return spec;
  const names = isPlainObject(spec.names) ? { ...spec.names } : spec.names;
  if (isPlainObject(names)) {
    if (!names.singular && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  }
  const out: CustomResourceDefinitionSpec = { ...spec, names };
  if (out.conversion === undefined || out.conversion === null) out.conversion = { strategy: 'None' };
  return out;
}

const storageVersion = (spec: CustomResourceDefinitionSpec): string | undefined =>
  Array.isArray(spec?.versions) ? spec.versions.find((v) => isPlainObject(v) && v.storage === true)?.name : undefined;

/** Create: defaults, an empty status, and the storage version as the one stored version. */
export function prepareCRDForCreate(crd: CustomResourceDefinition): CustomResourceDefinition {
  const spec = defaultSpec(crd.spec);
  const storage = storageVersion(spec);
  return { ...crd, spec, status: { storedVersions: storage ? [storage] : [] } };
}

/** Update: defaults, the status kept, and a new storage version appended to storedVersions. */
export function prepareCRDForUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): CustomResourceDefinition {
  const spec = defaultSpec(crd.spec);
  const stored = [...(old.status?.storedVersions ?? [])];
  const storage = storageVersion(spec);
  if (storage && !stored.includes(storage)) stored.push(storage);
  return { ...crd, spec, status: { ...(old.status ?? {}), storedVersions: stored } };
}
