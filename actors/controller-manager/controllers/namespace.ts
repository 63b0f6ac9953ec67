// The namespace controller: a namespace being deleted (Terminating) has everything in it deleted,
// kind by kind (deletecollection), and once nothing is left its `kubernetes` finalizer is removed
// through /finalize, which lets the API server remove it. Contents that take time to go (pods
// finishing their grace period) are looked at again every RECHECK_MS. Keys come from a work queue
// with `concurrentNamespaceSyncs` workers.
import type { Clock } from '../../api/env.ts';
import { lookupResource, RESOURCES } from '../../api/resources.ts';
import { StatusError } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { ApiClient } from '../../client/client.ts';
import type { RateLimiter } from '../../client/rate-limiter.ts';
import type { SharedInformers } from '../../client/shared-informers.ts';
import { WorkQueue } from '../../client/work-queue.ts';
import type { Bus } from '../../../transport/bus.ts';

const NAMESPACES = lookupResource('', 'v1', 'namespaces')!;
/** The kinds a namespace holds: namespaced, stored, collection-deletable. */
const CONTENTS = RESOURCES.filter((t) => t.scope === 'Namespaced' && !t.virtual && t.verbs.includes('deletecollection'));
/** How long to wait before looking again at a namespace whose contents are still going. */
export const RECHECK_MS = 5_000;
const FINALIZER = 'kubernetes';

export interface NamespaceInit {
  bus: Bus;
  clock: Clock;
  informers: SharedInformers;
  workers: number;
  limiter?: RateLimiter;
  onError?: (e: unknown) => void;
}

export class NamespaceController {
  readonly #init: NamespaceInit;
  readonly #client: ApiClient;
  readonly #queue: WorkQueue;

  constructor(init: NamespaceInit) {
    this.#init = init;
    this.#client = new ApiClient(init.bus, 'namespace-controller', undefined, init.limiter);
    this.#queue = new WorkQueue(init.clock, init.workers, (name) => this.#sync(name), (_k, e) => this.#onError(e));
    const enqueue = (ns: KObject) => ns.metadata.deletionTimestamp && this.#queue.add(ns.metadata.name!);
    init.informers.get(NAMESPACES).on({ add: enqueue, update: (_old, ns) => enqueue(ns) });
  }

  async start(): Promise<void> {
    await this.#init.informers.start();
    this.#queue.run();
  }

  stop(): void {
    this.#queue.stop();
  }

  #onError(e: unknown): void {
    if (this.#init.onError) this.#init.onError(e);
    else console.error('namespace-controller:', e);
  }

  async #sync(name: string): Promise<void> {
    const ns = this.#init.informers.get(NAMESPACES).cache.get(undefined, name);
    if (!ns?.metadata.deletionTimestamp) return;
    const finalizers = ((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []);
    if (!finalizers.includes(FINALIZER)) return;
    let remaining = 0;
    for (const type of CONTENTS) {
      const items = (await this.#client.list(type, name)).items;
      if (items.length === 0) continue;
      remaining += items.length;
      if (items.some((o) => !o.metadata.deletionTimestamp)) await this.#client.deleteCollection(type, name);
    }
    if (remaining > 0) return this.#queue.addAfter(name, RECHECK_MS);
    try {
      await this.#client.update(NAMESPACES, { ...ns, spec: { ...(ns.spec as object), finalizers: finalizers.filter((f) => f !== FINALIZER) } }, 'finalize');
    } catch (e) {
      // Gone already, or changed meanwhile (its event brings it back here).
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }
}
