// CustomResourceDefinitions (apiextensions.k8s.io/v1, apiextensions-apiserver's registry): their
// v1 defaults and validation (the structural-schema engine, crd/), the stored versions recorded
// as storage versions come and go, and the cleanup finalizer a first delete adds, so the
// definition stays until its objects are gone (custom-resources/definitions.ts does that).
import type { KObject } from '../../../api/types.ts';
import { defaultSpec, prepareCRDForCreate, prepareCRDForUpdate, validateCRD, validateCRDUpdate, type CustomResourceDefinition } from '../../crd/index.ts';
import { defineKind } from '../kind.ts';
import { fields, list } from '../tables-format.ts';

/** The finalizer that holds a definition being deleted until its objects are. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

const asCrd = (o: KObject) => o as unknown as CustomResourceDefinition;

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
  defaults(crd) {
    if (crd.spec !== undefined) crd.spec = defaultSpec(asCrd(crd).spec);
  },
  prepareForCreate(crd) {
    crd.status = prepareCRDForCreate(asCrd(crd)).status;
  },
  prepareForUpdate(next, current) {
    next.status = prepareCRDForUpdate(asCrd(next), asCrd(current)).status;
  },
  validate: (crd, old) => (old ? validateCRDUpdate(asCrd(crd), asCrd(old)) : validateCRD(asCrd(crd))),
  prepareForDelete(crd) {
    const finalizers = crd.metadata.finalizers ?? [];
    const metadata = finalizers.includes(CLEANUP_FINALIZER) ? crd.metadata : { ...crd.metadata, finalizers: [...finalizers, CLEANUP_FINALIZER] };
    return terminatingCondition({ ...crd, metadata });
  },
});
