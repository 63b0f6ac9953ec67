// The ServiceAccount admission plugin, as the real one (plugin/pkg/admission/serviceaccount):
// a pod without spec.serviceAccountName runs as `default`, and the account it names must exist
// in its namespace. `default` is made by the serviceaccount controller moments after a namespace
// is, so the plugin asks again for it, up to ten times a random 100 to 200 ms apart (drawn once
// per pod), before it refuses: `kubectl run` right after `kubectl create namespace` works, as on
// a real cluster. Any other missing account is refused at once. Refusal: 403, `pods "x" is
// forbidden: error looking up service account ns/name: serviceaccount "name" not found`.
// Deviation: the real plugin also mounts a projected token volume (kube-api-access-*); orchsim
// runs no containers that would read it, so pods are left without one.
import type { Clock, Random } from '../../api/env.ts';
import { forbidden } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { AdmissionLookup, AdmissionPlugin } from './chain.ts';

const DEFAULT_ACCOUNT = 'default';
const DEFAULT_ATTEMPTS = 10;

/** Where the retries for `default` wait; without a clock a missing account is refused at once. */
export interface ServiceAccountPluginOptions {
  clock?: Clock;
  random?: Random;
}

export function serviceAccountPlugin(o: ServiceAccountPluginOptions): AdmissionPlugin {
  const retry = o.random?.fork('service-account-admission');
  return {
    name: 'ServiceAccount',
    mutate(a, lookup) {
      if (a.operation !== 'CREATE' || a.type.group !== '' || a.type.resource !== 'pods' || a.subresource || !a.object) return undefined;
      const spec = (a.object.spec ??= {}) as Record<string, unknown>;
      // Mirror pods (a node's static pods) are left as they are.
      if (a.object.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return undefined;
      spec.serviceAccountName ||= (spec.serviceAccount as string | undefined) || DEFAULT_ACCOUNT;
      spec.serviceAccount = spec.serviceAccountName;
      return lookUp(a.namespace ?? '', spec.serviceAccountName as string, lookup, o.clock, retry).then((found) => {
        if (!found)
          throw forbidden({ group: '', resource: 'pods', name: a.name },
            `error looking up service account ${a.namespace}/${spec.serviceAccountName}: serviceaccount "${spec.serviceAccountName}" not found`);
      });
    },
  };
}

async function lookUp(namespace: string, name: string, lookup: AdmissionLookup, clock: Clock | undefined, random: Random | undefined): Promise<KObject | undefined> {
  const attempts = name === DEFAULT_ACCOUNT && clock ? DEFAULT_ATTEMPTS : 1;
  const intervalMs = 100 + Math.floor((random?.next() ?? 0) * 100);
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise<void>((resolve) => clock!.setTimeout(resolve, intervalMs));
    const account = await lookup.getServiceAccount(namespace, name);
    if (account) return account;
  }
  return undefined;
}
