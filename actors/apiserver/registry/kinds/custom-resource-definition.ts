// CustomResourceDefinitions (apiextensions.k8s.io/v1, apiextensions-apiserver's registry): their
// v1 defaults (no conversion webhook, the singular and list kind named after the kind), the
// stored versions recorded as storage versions come and go, and the cleanup finalizer a first
// delete adds, so the definition stays until its objects are gone (custom-resources/definitions.ts
// does that). What makes one valid is the structural-schema engine's business (crd/).
import type { KObject } from '../../../api/types.ts';
import { child, fill, present, zero } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { fields, list, text } from '../tables-format.ts';
import { specOf } from './rules.ts';

/** The finalizer that holds a definition being deleted until its objects are. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

function defaults(crd: KObject): void {
  const spec = child(crd, 'spec');
  const conversion = child(spec, 'conversion');
  fill(conversion, [zero('strategy', 'None')]);
  const service = present(present(present(conversion, 'webhook') ?? {}, 'clientConfig') ?? {}, 'service');
  if (service) fill(service, [zero('port', 443)]);
  const names = child(spec, 'names');
  if (typeof names.kind === 'string' && names.kind) fill(names, [zero('singular', names.kind.toLowerCase()), zero('listKind', `${names.kind}List`)]);
}

/** The versions objects may be stored at: every storage version the definition has had. */
function withStoredVersion(crd: KObject): void {
  const storage = list(specOf(crd).versions).map((v) => fields(v)).find((v) => v.storage === true);
  if (!storage) return;
  const status = fields(crd.status);
  const stored = list(status.storedVersions).map(text);
  if (!stored.includes(text(storage.name))) crd.status = { ...status, storedVersions: [...stored, text(storage.name)] };
}

function terminatingCondition(crd: KObject): KObject {
  const status = fields(crd.status);
  const conditions = list(status.conditions).map((c) => fields(c)).filter((c) => c.type !== 'Terminating');
  conditions.push({ type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
    message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' });
  return { ...crd, status: { ...status, conditions } };
}

export const customResourceDefinition = defineKind({
  nameRule: 'subdomain',
  hasStatus: true,
  hasGeneration: true,
  defaults,
  prepareForCreate(crd) {
    crd.status = {};
    withStoredVersion(crd);
  },
  prepareForUpdate: (next) => withStoredVersion(next),
  prepareForDelete(crd) {
    const finalizers = crd.metadata.finalizers ?? [];
    const metadata = finalizers.includes(CLEANUP_FINALIZER) ? crd.metadata : { ...crd.metadata, finalizers: [...finalizers, CLEANUP_FINALIZER] };
    return terminatingCondition({ ...crd, metadata });
  },
});
