// The ResourceQuota admission plugin (apiserver plugin/resourcequota): a validating plugin that
// charges each counted create (and service update) to the quotas of its namespace before the
// object is stored, by writing their status.used with a compare-and-swap on the quota's
// resourceVersion. This server charges one write of a namespace at a time (the real evaluator's
// per-namespace work queue); a charge that still lost the race (to another API server on the same
// store, or to the controller's recount) reads the quota again and checks once more, three times
// at most, so concurrent creates never take a quota past its hard limit. A namespace without
// quotas costs a create one map lookup.
import type { Clock } from '../../api/env.ts';
import { writeResourceList } from '../../api/resource-lists.ts';
import { conflict, type StatusError } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { objectKey } from '../registry/keys.ts';
import { StorageError } from '../storage/errors.ts';
import type { Store } from '../storage/store.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './chain.ts';
import type { PolicyObjects } from './policy-objects.ts';
import { chargeRequest, chargingEvaluator, type Charge } from './quota-check.ts';
import { RESOURCE_QUOTAS } from '../../api/model/core.ts';

const RETRIES = 3;

export interface QuotaStorage {
  objects: PolicyObjects;
  store: Store;
  keyPrefix: string;
  clock: Clock;
}

/** Writes each charge; returns the quotas whose write lost to another, and the error to give if none is left to try. */
async function write(s: QuotaStorage, charges: Charge[]): Promise<{ lost: Set<string>; error?: StatusError }> {
  const lost = new Set<string>();
  let error: StatusError | undefined;
  for (const { quota, used } of charges) {
    const next: KObject = { ...quota, metadata: { ...quota.metadata }, status: { ...(quota.status as object), used: writeResourceList(used) } };
    try {
      await s.store.update(objectKey(s.keyPrefix, RESOURCE_QUOTAS, quota.metadata.namespace, quota.metadata.name!), next, Number(quota.metadata.resourceVersion));
    } catch (e) {
      if (!(e instanceof StorageError)) throw e;
      lost.add(quota.metadata.name!);
      error = conflict({ group: '', resource: 'resourcequotas', name: quota.metadata.name });
    }
  }
  return error ? { lost, error } : { lost };
}

async function charge(s: QuotaStorage, a: AdmissionAttributes, quotas: readonly KObject[]): Promise<void> {
  const e = chargingEvaluator(a)!;
  for (let attempt = 0; ; attempt++) {
    const charges = chargeRequest(quotas, a, e, s.clock.now());
    if (a.dryRun || charges.length === 0) return;
    const { lost, error } = await write(s, charges);
    if (!error) return;
    if (attempt + 1 >= RETRIES) throw error;
    // Only the quotas whose write failed are checked again, as they are now.
    quotas = (s.objects.quotas(a.namespace!) ?? []).filter((q) => lost.has(q.metadata.name!));
  }
}

export function resourceQuotaPlugin(s: QuotaStorage): AdmissionPlugin {
  /** Per namespace, the end of the charges queued there. */
  const tails = new Map<string, Promise<void>>();
  const serialized = (namespace: string, run: () => Promise<void>): Promise<void> => {
    const result = (tails.get(namespace) ?? Promise.resolve()).then(run);
    const tail = result.catch(() => {});
    tails.set(namespace, tail);
    void tail.then(() => tails.get(namespace) === tail && tails.delete(namespace));
    return result;
  };
  return {
    name: 'ResourceQuota',
    validate(a) {
      const namespace = a.namespace;
      if (namespace === undefined || a.type.scope !== 'Namespaced' || !s.objects.quotas(namespace) || !chargingEvaluator(a)) return;
      // The quotas are read when the charge's turn comes, after the charges queued before it.
      return serialized(namespace, () => charge(s, a, s.objects.quotas(namespace) ?? []));
    },
  };
}
