// The ReplicaSet controller, as the real one keeps a set's pods at its replica count:
//
// - A set owns the active pods (not being deleted, not Succeeded or Failed) whose controller
//   reference names it; it adopts orphans its selector matches (an ownerReference added).
// - Too few: it creates the missing pods from its template in batches of 1, 2, 4, ... (slow start,
//   at most burstReplicas per sync); too many: it deletes the surplus, unscheduled before
//   scheduled, Pending before Running, not Ready before Ready, newest first.
// - Expectations: after creating or deleting it waits until its informer has seen those pods come
//   or go before acting on the set again (or five minutes), so a stale cache never doubles them.
// - It writes the status: replicas, fullyLabeledReplicas, readyReplicas, availableReplicas
//   (Ready for minReadySeconds), observedGeneration.
// - Each pod created or deleted is recorded on the set (SuccessfulCreate, SuccessfulDelete, or
//   their failures), as the real pod control records it.
// Keys are reconciled from a work queue with `concurrentReplicasetSyncs` workers.
import { isConflict, isNotFound } from '../../api/status.ts';
import { isReady } from '../../api/fields.ts';
import type { KObject, OwnerReference } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { compileLabelSelector, type LabelSelector } from '../../scheduler/label-selector.ts';
import { Expectations } from '../expectations.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { referenceTo } from '../../client/events/index.ts';
import { podCreated, podDeleted } from '../pod-control-events.ts';
import { REPLICASETS, type ReplicaSet } from '../../api/model/apps.ts';
import { PODS, type Pod } from '../../api/model/core.ts';

/** The most pods one sync creates or deletes (the real controller's BurstReplicas). */
export const BURST_REPLICAS = 500;

type Rec = Record<string, unknown>;

/** The reference a set's pods carry to it. */
const controllerRef = (rs: KObject): OwnerReference =>
  ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name!, uid: rs.metadata.uid!, controller: true, blockOwnerDeletion: true });
const ownerOf = (pod: KObject): OwnerReference | undefined =>
  (pod.metadata.ownerReferences ?? []).find((r) => r.controller);
const phaseOf = (pod: Pod) => pod.status?.phase ?? 'Pending';
const readySince = (pod: Pod): number | undefined => {
  const c = (pod.status?.conditions ?? [])
    .find((x) => x.type === 'Ready');
  return c?.status === 'True' ? Date.parse(c.lastTransitionTime ?? '') || 0 : undefined;
};
const isActive = (pod: KObject) => !pod.metadata.deletionTimestamp && phaseOf(pod) !== 'Succeeded' && phaseOf(pod) !== 'Failed';
const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** The real ActivePods ordering: the pods to delete first come first. */
export function deletionOrder(a: Pod, b: Pod): number {
  const nodeA = a.spec?.nodeName ? 1 : 0, nodeB = b.spec?.nodeName ? 1 : 0;
  if (nodeA !== nodeB) return nodeA - nodeB;
  const phase = (PHASE_RANK[phaseOf(a)] ?? 1) - (PHASE_RANK[phaseOf(b)] ?? 1);
  if (phase !== 0) return phase;
  const readyA = isReady(a) ? 1 : 0, readyB = isReady(b) ? 1 : 0;
  if (readyA !== readyB) return readyA - readyB;
  const created = (Date.parse(b.metadata.creationTimestamp ?? '') || 0) - (Date.parse(a.metadata.creationTimestamp ?? '') || 0);
  return created !== 0 ? created : cacheKey(a) < cacheKey(b) ? -1 : 1;
}

export class ReplicaSetController extends QueuedController {
  readonly #sets: Informer<ReplicaSet>;
  readonly #pods: Informer<Pod>;
  readonly #expectations: Expectations;

  constructor(init: QueuedControllerInit) {
    super('replicaset-controller', init);
    this.#expectations = new Expectations(init.clock);
    this.#sets = init.informers.get(REPLICASETS);
    this.#pods = init.informers.get(PODS);
    this.#sets.on({ add: (rs) => this.queue.add(cacheKey(rs)), update: (_o, rs) => this.queue.add(cacheKey(rs)), delete: (rs) => this.#forget(rs) });
    this.#pods.on({ add: (p) => this.#podAdded(p), update: (o, p) => this.#podUpdated(o, p), delete: (p) => this.#podDeleted(p) });
  }

  // ---- Events -------------------------------------------------------------------------------------

  #ownerKey(pod: KObject): string | undefined {
    const ref = ownerOf(pod);
    if (ref?.kind !== 'ReplicaSet') return undefined;
    const rs = this.#sets.cache.get(pod.metadata.namespace, ref.name);
    return rs && rs.metadata.uid === ref.uid ? cacheKey(rs) : undefined;
  }

  /** Orphans wake every set whose selector matches them (one may adopt them). */
  #enqueueMatching(pod: KObject): void {
    for (const rs of this.#sets.cache.inNamespace(pod.metadata.namespace ?? '')) {
      const selector = compileLabelSelector(rs.spec?.selector);
      if (selector.matches(pod.metadata.labels ?? {})) this.queue.add(cacheKey(rs));
    }
  }

  #podAdded(pod: KObject): void {
    const key = this.#ownerKey(pod);
    if (key) {
      this.#observe(key, pod.metadata.deletionTimestamp ? 'deletes' : 'adds');
      this.queue.add(key);
    } else if (!ownerOf(pod)) this.#enqueueMatching(pod);
  }

  #podUpdated(old: KObject, pod: KObject): void {
    const key = this.#ownerKey(pod);
    if (key && pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) this.#observe(key, 'deletes');
    if (key) this.queue.add(key);
    else if (!ownerOf(pod)) this.#enqueueMatching(pod);
  }

  #podDeleted(pod: KObject): void {
    const key = this.#ownerKey(pod);
    if (!key) return;
    if (!pod.metadata.deletionTimestamp) this.#observe(key, 'deletes');
    this.queue.add(key);
  }

  #forget(rs: KObject): void {
    this.#expectations.forget(cacheKey(rs));
  }

  #observe(key: string, what: 'adds' | 'deletes'): void {
    this.#expectations.observed(key, what);
  }

  // ---- Sync ---------------------------------------------------------------------------------------

  protected async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const rs = this.#sets.cache.get(namespace, name);
    if (!rs) return void this.#expectations.forget(key);
    const spec = (rs.spec ?? {}) as { replicas?: number; selector?: LabelSelector; minReadySeconds?: number; template?: KObject };
    const selector = compileLabelSelector(spec.selector);
    const owned: KObject[] = [];
    const adopt: KObject[] = [];
    // The pods its uid's index holds, and the namespace's orphans, as the real one's FilterPodsByOwner.
    for (const pod of this.#pods.cache.ownedBy(namespace, rs.metadata.uid!)) if (isActive(pod)) owned.push(pod);
    if (!rs.metadata.deletionTimestamp)
      for (const pod of this.#pods.cache.orphansIn(namespace)) if (isActive(pod) && selector.matches(pod.metadata.labels ?? {})) adopt.push(pod);
    for (const pod of adopt) if (await this.#adopt(rs, pod)) owned.push(pod);
    if (this.#expectations.satisfied(key) && !rs.metadata.deletionTimestamp) await this.#manage(rs, key, owned, spec.replicas ?? 1, spec.template);
    await this.#writeStatus(rs, owned, spec);
    // Pods Ready but not yet for minReadySeconds become available later: look again then.
    if ((spec.minReadySeconds ?? 0) > 0) this.queue.addAfter(key, spec.minReadySeconds! * 1000);
  }

  async #adopt(rs: KObject, pod: KObject): Promise<boolean> {
    const ref = controllerRef(rs);
    const patch = { metadata: { resourceVersion: pod.metadata.resourceVersion, ownerReferences: [...(pod.metadata.ownerReferences ?? []), ref] } };
    try {
      await this.client.patch(PODS, pod.metadata.namespace, pod.metadata.name!, patch, 'merge');
      return true;
    } catch (e) {
      if (isNotFound(e) || isConflict(e)) return false;
      throw e;
    }
  }

  async #manage(rs: KObject, key: string, owned: KObject[], replicas: number, template: KObject | undefined): Promise<void> {
    const diff = owned.length - replicas;
    if (diff < 0) {
      const want = Math.min(-diff, BURST_REPLICAS);
      this.#expectations.expect(key, want, 0);
      let created = 0;
      // Slow start: a batch of 1, then 2, 4, ...; a failed create stops the rest of the sync.
      for (let batch = 1; created < want; batch *= 2) {
        const size = Math.min(batch, want - created);
        const results = await Promise.allSettled(Array.from({ length: size }, () => this.#createPod(rs, template)));
        for (const r of results) podCreated(this.events, referenceTo(REPLICASETS, rs), r.status === 'fulfilled' ? { name: r.value.metadata.name! } : { error: r.reason });
        created += size;
        const failed = results.filter((r) => r.status === 'rejected');
        if (failed.length === 0) continue;
        this.#expectations.observed(key, 'adds', failed.length + (want - created));
        throw (failed[0] as PromiseRejectedResult).reason;
      }
    } else if (diff > 0) {
      const victims = [...owned].sort(deletionOrder).slice(0, Math.min(diff, BURST_REPLICAS));
      this.#expectations.expect(key, 0, victims.length);
      const results = await Promise.allSettled(victims.map((p) => this.client.delete(PODS, p.metadata.namespace, p.metadata.name!)));
      results.forEach((r, i) => podDeleted(this.events, referenceTo(REPLICASETS, rs), victims[i]!.metadata.name!, r.status === 'rejected' ? r.reason : undefined));
      for (const r of results) {
        if (r.status === 'fulfilled') continue;
        this.#expectations.observed(key, 'deletes');
        if (!isNotFound(r.reason)) throw r.reason;
      }
    }
  }

  #createPod(rs: KObject, template: KObject | undefined): Promise<KObject> {
    const meta = (template?.metadata ?? {}) as KObject['metadata'];
    const ref = controllerRef(rs);
    const pod = {
      metadata: { generateName: `${rs.metadata.name}-`, namespace: rs.metadata.namespace, ...(meta.labels ? { labels: meta.labels } : {}),
        ...(meta.annotations ? { annotations: meta.annotations } : {}), ownerReferences: [ref] },
      spec: template?.spec ?? {},
    } as KObject;
    return this.client.create(PODS, pod);
  }

  async #writeStatus(rs: KObject, owned: KObject[], spec: { minReadySeconds?: number; template?: KObject }): Promise<void> {
    const now = this.clock.now();
    const labels = Object.entries(spec.template?.metadata.labels ?? {});
    const ready = owned.filter(isReady);
    const minReadyMs = (spec.minReadySeconds ?? 0) * 1000;
    const status = {
      replicas: owned.length,
      fullyLabeledReplicas: owned.filter((p) => labels.every(([k, v]) => p.metadata.labels?.[k] === v)).length,
      readyReplicas: ready.length,
      availableReplicas: minReadyMs === 0 ? ready.length : ready.filter((p) => now - readySince(p)! >= minReadyMs).length,
      observedGeneration: rs.metadata.generation ?? 1,
    };
    const old = (rs.status ?? {}) as Rec;
    if (Object.entries(status).every(([k, v]) => (old[k] ?? 0) === v)) return;
    try {
      await this.client.patch(REPLICASETS, rs.metadata.namespace, rs.metadata.name!, { metadata: { resourceVersion: rs.metadata.resourceVersion }, status }, 'merge', 'status');
    } catch (e) {
      // A set changed meanwhile is synced again on its own event.
      if (!(isNotFound(e) || isConflict(e))) throw e;
    }
  }
}
