// The namespace controller: a namespace being deleted (Terminating) has everything in it deleted,
// kind by kind (deletecollection: every namespaced kind the server serves, custom resources too,
// as discovery lists them), and once nothing is left its `kubernetes` finalizer is removed
// through /finalize, which lets the API server remove it. Contents that take time to go (pods
// finishing their grace period) are looked at again every RECHECK_MS. Keys come from a work queue
// with `concurrentNamespaceSyncs` workers.
import type { ResourceType } from '../../api/resources.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { discoverResources } from '../../client/discovery.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { NAMESPACES } from '../../api/model/core.ts';

/** The kinds a namespace holds: namespaced, stored, collection-deletable. */
const holds = (t: ResourceType) => t.scope === 'Namespaced' && t.verbs.includes('list') && t.verbs.includes('deletecollection');
/** How long to wait before looking again at a namespace whose contents are still going. */
export const RECHECK_MS = 5_000;
const FINALIZER = 'kubernetes';

export class NamespaceController extends QueuedController {
  constructor(init: QueuedControllerInit) {
    super('namespace-controller', init);
    const enqueue = (ns: KObject) => ns.metadata.deletionTimestamp && this.queue.add(ns.metadata.name!);
    init.informers.get(NAMESPACES).on({ add: enqueue, update: (_old, ns) => enqueue(ns) });
  }

  protected async sync(name: string): Promise<void> {
    const ns = this.informers.get(NAMESPACES).cache.get(undefined, name);
    if (!ns?.metadata.deletionTimestamp) return;
    const finalizers = ns.spec?.finalizers ?? [];
    if (!finalizers.includes(FINALIZER)) return;
    let remaining = 0;
    for (const type of (await discoverResources(this.client)).filter(holds)) {
      const items = (await this.client.list(type, name)).items;
      if (items.length === 0) continue;
      remaining += items.length;
      if (items.some((o) => !o.metadata.deletionTimestamp)) await this.client.deleteCollection(type, name);
    }
    if (remaining > 0) return this.queue.addAfter(name, RECHECK_MS);
    try {
      await this.client.update(NAMESPACES, { ...ns, spec: { ...ns.spec, finalizers: finalizers.filter((f) => f !== FINALIZER) } }, 'finalize');
    } catch (e) {
      // Gone already, or changed meanwhile (its event brings it back here).
      if (!(isNotFound(e) || isConflict(e))) throw e;
    }
  }
}
