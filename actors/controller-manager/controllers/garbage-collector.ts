// The garbage collector, background propagation (the default for the workload kinds): an object
// whose owners (its ownerReferences) are all gone is deleted; one that keeps some owner loses the
// references to the gone ones. An owner counts as gone only when a live read of it finds nothing
// with that uid (a cache can lag behind a create, as the real collector verifies too). It watches
// the kinds the simulator's controllers own and are owned: pods, ReplicaSets, Deployments,
// DaemonSets, StatefulSets and ControllerRevisions; keys are reconciled from a work queue.
// Orphan and foreground propagation (the API server's finalizers for them) are not done yet.
import { lookupKind, lookupResource, type ResourceType } from '../../api/resources.ts';
import { StatusError } from '../../api/status.ts';
import type { KObject, OwnerReference } from '../../api/types.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';

/** The kinds watched, as dependents and as owners. */
const WATCHED: ResourceType[] = [
  lookupResource('', 'v1', 'pods')!,
  lookupResource('apps', 'v1', 'replicasets')!,
  lookupResource('apps', 'v1', 'deployments')!,
  lookupResource('apps', 'v1', 'daemonsets')!,
  lookupResource('apps', 'v1', 'statefulsets')!,
  lookupResource('apps', 'v1', 'controllerrevisions')!,
];


export interface GarbageCollectorInit extends QueuedControllerInit {
  /** Told of each object it deletes. */
  onCollect?: (kind: string, key: string) => void;
}

const ownersOf = (o: KObject) => o.metadata.ownerReferences ?? [];
/** Queue keys: `<group>/<resource>/<namespace>/<name>`. */
const keyOf = (t: ResourceType, o: KObject) => `${t.group}/${t.resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

export class GarbageCollector extends QueuedController {
  readonly #onCollect: GarbageCollectorInit['onCollect'];
  /** Dependents by the uid of an owner they name. */
  readonly #dependents = new Map<string, Set<string>>();

  constructor(init: GarbageCollectorInit) {
    super('generic-garbage-collector', init);
    this.#onCollect = init.onCollect;
    for (const type of WATCHED) {
      init.informers.get(type).on({
        add: (o) => this.#seen(type, o),
        update: (_old, o) => this.#seen(type, o),
        delete: (o) => this.#gone(type, o),
      });
    }
  }

  #seen(type: ResourceType, o: KObject): void {
    const owners = ownersOf(o);
    if (owners.length === 0) return;
    const key = keyOf(type, o);
    for (const ref of owners) {
      let set = this.#dependents.get(ref.uid);
      if (!set) this.#dependents.set(ref.uid, (set = new Set()));
      set.add(key);
    }
    // A dependent whose owner the cache does not hold may be an orphan: look.
    if (owners.some((ref) => !this.#cached(ref, o.metadata.namespace))) this.queue.add(key);
  }

  #gone(type: ResourceType, o: KObject): void {
    const uid = o.metadata.uid ?? '';
    const dependents = this.#dependents.get(uid);
    this.#dependents.delete(uid);
    for (const key of dependents ?? []) this.queue.add(key);
    for (const ref of ownersOf(o)) this.#dependents.get(ref.uid)?.delete(keyOf(type, o));
  }

  #cached(ref: OwnerReference, namespace: string | undefined): boolean {
    const type = lookupKind(ref.apiVersion, ref.kind);
    if (!type || !WATCHED.includes(type)) return true; // an owner of a kind not watched is never judged gone
    const owner = this.informers.get(type).cache.get(namespaceOf(type, namespace), ref.name);
    return owner?.metadata.uid === ref.uid;
  }

  /** Whether a live read finds the owner: the same name with the same uid. */
  async #exists(ref: OwnerReference, namespace: string | undefined): Promise<boolean> {
    const type = lookupKind(ref.apiVersion, ref.kind);
    if (!type) return true;
    try {
      const owner = await this.client.get(type, namespaceOf(type, namespace), ref.name);
      return owner.metadata.uid === ref.uid;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return false;
      throw e;
    }
  }

  protected async sync(key: string): Promise<void> {
    const [group, resource, namespace, name] = key.split('/') as [string, string, string, string];
    const type = WATCHED.find((t) => t.group === group && t.resource === resource)!;
    const o = this.informers.get(type).cache.get(namespaceOf(type, namespace), name);
    if (!o || o.metadata.deletionTimestamp) return;
    const owners = ownersOf(o);
    if (owners.length === 0) return;
    const gone: OwnerReference[] = [];
    for (const ref of owners) if (!this.#cached(ref, o.metadata.namespace) && !(await this.#exists(ref, o.metadata.namespace))) gone.push(ref);
    if (gone.length === 0) return;
    try {
      if (gone.length === owners.length) {
        this.#onCollect?.(type.kind, `${namespace}/${name}`);
        await this.client.delete(type, namespaceOf(type, namespace), name, { preconditions: { uid: o.metadata.uid } });
      } else {
        const kept = owners.filter((r) => !gone.includes(r));
        await this.client.patch(type, namespaceOf(type, namespace), name, { metadata: { resourceVersion: o.metadata.resourceVersion, ownerReferences: kept } }, 'merge');
      }
    } catch (e) {
      // Gone already, or changed meanwhile (its next event brings it back here).
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }
}

/** The namespace to address an object of `type` by: none for cluster-scoped kinds. */
const namespaceOf = (t: ResourceType, namespace: string | undefined) => (t.scope === 'Namespaced' ? namespace : undefined);
