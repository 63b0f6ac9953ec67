// The Deployment controller, as the real one rolls a template out through ReplicaSets:
//
// - Each template gets its own ReplicaSet, named `<deployment>-<hash of the template>`, the hash
//   also added to its selector and its pods as the `pod-template-hash` label, owned by the
//   Deployment, with the revision in the `deployment.kubernetes.io/revision` annotation.
// - RollingUpdate: the new set grows while all sets together stay within replicas + maxSurge
//   (25% rounded up by default), and old sets shrink, oldest first, while at least replicas -
//   maxUnavailable (25% rounded down) pods stay available. Recreate: old sets go to zero first,
//   the new one grows once their pods are gone.
// - Old sets with no replicas beyond revisionHistoryLimit (10) are deleted, oldest first.
// - Status: replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas,
//   observedGeneration, and the Available and Progressing conditions. (Pausing and progress
//   deadlines are not done.)
// Keys come from a work queue with `concurrentDeploymentSyncs` workers.
import { timestamp } from '../../api/env.ts';
import { lookupResource } from '../../api/resources.ts';
import { StatusError } from '../../api/status.ts';
import type { KObject, OwnerReference } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { REPLICASETS } from './replicaset.ts';

const DEPLOYMENTS = lookupResource('apps', 'v1', 'deployments')!;
export const TEMPLATE_HASH = 'pod-template-hash';
export const REVISION = 'deployment.kubernetes.io/revision';

type Rec = Record<string, unknown>;
interface DeploymentSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Rec };
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
  revisionHistoryLimit?: number;
}
interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}
interface SetStatus {
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
}

/** Keys sorted, so equal templates give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Rec)[k])}`).join(',')}}`;
  return JSON.stringify(value);
}

const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * A short name-safe hash of a pod template: FNV-1a over its canonical JSON, its decimal digits
 * mapped to the real alphabet without vowels (as rand.SafeEncodeString does).
 */
export function templateHash(template: unknown): string {
  let h = 0x811c9dc5;
  const text = canonical(template);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return [...String(h)].map((c) => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}

/** An int-or-percent of `total`: percentages round up for maxSurge and down for maxUnavailable. */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean, fallback: string): number {
  const value = v ?? fallback;
  if (typeof value === 'number') return value;
  const percent = Number(value.replace(/%$/, ''));
  const exact = (percent * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** maxSurge and maxUnavailable, never both 0 (the real ResolveFenceposts). */
export function fenceposts(d: DeploymentSpec, replicas: number): { surge: number; unavailable: number } {
  const ru = d.strategy?.rollingUpdate;
  const surge = scaledValue(ru?.maxSurge, replicas, true, '25%');
  let unavailable = scaledValue(ru?.maxUnavailable, replicas, false, '25%');
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

const specOf = (rs: KObject) => (rs.spec ?? {}) as { replicas?: number; template?: DeploymentSpec['template'] };
const statusOf = (rs: KObject) => (rs.status ?? {}) as SetStatus;
const replicasOf = (rs: KObject) => specOf(rs).replicas ?? 0;
const revisionOf = (rs: KObject) => Number(rs.metadata.annotations?.[REVISION] ?? 0);
const sum = (sets: KObject[], f: (rs: KObject) => number) => sets.reduce((n, rs) => n + f(rs), 0);
const byAge = (a: KObject, b: KObject) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || cacheKey(a).localeCompare(cacheKey(b));

export class DeploymentController extends QueuedController {
  constructor(init: QueuedControllerInit) {
    super('deployment-controller', init);
    init.informers.get(DEPLOYMENTS).on({ add: (d) => this.queue.add(cacheKey(d)), update: (_o, d) => this.queue.add(cacheKey(d)) });
    const owner = (rs: KObject) => {
      const ref = (rs.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'Deployment');
      if (ref) this.queue.add(`${rs.metadata.namespace}/${ref.name}`);
    };
    init.informers.get(REPLICASETS).on({ add: owner, update: (_o, rs) => owner(rs), delete: owner });
  }

  protected async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const d = this.informers.get(DEPLOYMENTS).cache.get(namespace, name);
    if (!d || d.metadata.deletionTimestamp) return;
    const spec = (d.spec ?? {}) as DeploymentSpec;
    const replicas = spec.replicas ?? 1;
    const sets = this.informers.get(REPLICASETS).cache.inNamespace(namespace)
      .filter((rs) => rs.metadata.ownerReferences?.some((r) => r.controller && r.uid === d.metadata.uid));
    const hash = templateHash(spec.template ?? {});
    let newSet = sets.find((rs) => rs.metadata.labels?.[TEMPLATE_HASH] === hash);
    const old = sets.filter((rs) => rs !== newSet).sort(byAge);
    if (!newSet) newSet = await this.#createSet(d, spec, hash, Math.max(0, ...sets.map(revisionOf)) + 1, replicas, old);
    if (!newSet) return;
    if (spec.strategy?.type === 'Recreate') await this.#recreate(newSet, old, replicas);
    else await this.#rollingUpdate(newSet, old, replicas, fenceposts(spec, replicas));
    await this.#cleanup(old, spec.revisionHistoryLimit ?? 10);
    await this.#writeStatus(d, newSet, sets.includes(newSet) ? sets : [...sets, newSet]);
  }

  async #createSet(d: KObject, spec: DeploymentSpec, hash: string, revision: number, replicas: number, old: KObject[]): Promise<KObject | undefined> {
    const labels = { ...spec.template?.metadata?.labels, [TEMPLATE_HASH]: hash };
    const ref: OwnerReference = { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name!, uid: d.metadata.uid!, controller: true, blockOwnerDeletion: true };
    // A rolling update starts the new set within the surge; a first rollout or Recreate at once.
    const rolling = spec.strategy?.type !== 'Recreate' && old.length > 0;
    const start = rolling ? Math.max(0, Math.min(replicas, replicas + fenceposts(spec, replicas).surge - sum(old, replicasOf))) : spec.strategy?.type === 'Recreate' && old.some((rs) => replicasOf(rs) > 0) ? 0 : replicas;
    try {
      return await this.client.create(REPLICASETS, {
        metadata: { name: `${d.metadata.name}-${hash}`, namespace: d.metadata.namespace, labels, annotations: { [REVISION]: String(revision) }, ownerReferences: [ref] },
        spec: {
          replicas: start,
          selector: { ...spec.selector, matchLabels: { ...spec.selector?.matchLabels, [TEMPLATE_HASH]: hash } },
          template: { ...spec.template, metadata: { ...spec.template?.metadata, labels } },
        },
      } as KObject);
    } catch (e) {
      // Made already (the cache had not seen it): the next sync finds it.
      if (e instanceof StatusError && e.code === 409) return undefined;
      throw e;
    }
  }

  async #scale(rs: KObject, replicas: number): Promise<void> {
    if (replicasOf(rs) === replicas) return;
    try {
      await this.client.patch(REPLICASETS, rs.metadata.namespace, rs.metadata.name!, { metadata: { resourceVersion: rs.metadata.resourceVersion }, spec: { replicas } }, 'merge');
    } catch (e) {
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }

  /** The real rolloutRolling: grow the new set within the surge, shrink old ones within the unavailability. */
  async #rollingUpdate(newSet: KObject, old: KObject[], replicas: number, f: { surge: number; unavailable: number }): Promise<void> {
    const size = new Map([newSet, ...old].map((rs) => [rs, replicasOf(rs)]));
    const scale = async (rs: KObject, to: number) => (size.set(rs, to), this.#scale(rs, to));
    const total = () => [...size.values()].reduce((a, b) => a + b, 0);
    const newReplicas = size.get(newSet)!;
    if (newReplicas > replicas) await scale(newSet, replicas);
    else if (newReplicas < replicas && total() < replicas + f.surge) await scale(newSet, newReplicas + Math.min(replicas + f.surge - total(), replicas - newReplicas));
    if (old.every((rs) => size.get(rs) === 0)) return;
    const available = (rs: KObject) => Math.min(size.get(rs)!, statusOf(rs).availableReplicas ?? 0);
    const minAvailable = replicas - f.unavailable;
    // Old sets' pods that are not available go first, as far as the new set's unavailable pods allow.
    const maxScaledDown = total() - minAvailable - (replicasOf(newSet) - (statusOf(newSet).availableReplicas ?? 0));
    let scaledDown = 0;
    for (const rs of old) {
      if (scaledDown >= maxScaledDown) break;
      const unhealthy = size.get(rs)! - available(rs);
      if (unhealthy <= 0) continue;
      const by = Math.min(maxScaledDown - scaledDown, unhealthy);
      scaledDown += by;
      await scale(rs, size.get(rs)! - by);
    }
    // Then available ones, oldest set first, while replicas - maxUnavailable stay available.
    const canGo = [newSet, ...old].reduce((n, rs) => n + available(rs), 0) - minAvailable;
    let gone = 0;
    for (const rs of old) {
      if (gone >= canGo) break;
      const by = Math.min(size.get(rs)!, canGo - gone);
      if (by <= 0) continue;
      gone += by;
      await scale(rs, size.get(rs)! - by);
    }
  }

  /** Old sets to zero; the new one grows once none of their pods is left. */
  async #recreate(newSet: KObject, old: KObject[], replicas: number): Promise<void> {
    for (const rs of old) await this.#scale(rs, 0);
    if (old.every((rs) => (statusOf(rs).replicas ?? 0) === 0)) await this.#scale(newSet, replicas);
  }

  async #cleanup(old: KObject[], limit: number): Promise<void> {
    const idle = old.filter((rs) => replicasOf(rs) === 0 && (statusOf(rs).replicas ?? 0) === 0);
    for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) {
      try {
        await this.client.delete(REPLICASETS, rs.metadata.namespace, rs.metadata.name!, { preconditions: { uid: rs.metadata.uid } });
      } catch (e) {
        if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
      }
    }
  }

  async #writeStatus(d: KObject, newSet: KObject, sets: KObject[]): Promise<void> {
    const spec = (d.spec ?? {}) as DeploymentSpec;
    const replicas = spec.replicas ?? 1;
    const available = sum(sets, (rs) => statusOf(rs).availableReplicas ?? 0);
    const counts = {
      observedGeneration: d.metadata.generation ?? 1,
      replicas: sum(sets, (rs) => statusOf(rs).replicas ?? 0),
      updatedReplicas: statusOf(newSet).replicas ?? 0,
      readyReplicas: sum(sets, (rs) => statusOf(rs).readyReplicas ?? 0),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, replicas - available),
    };
    // The conditions kubectl rollout status and users read: enough pods available, and the rollout's progress.
    const minAvailable = replicas - (spec.strategy?.type === 'Recreate' ? 0 : fenceposts(spec, replicas).unavailable);
    const complete = counts.updatedReplicas === replicas && counts.replicas === replicas && available === replicas;
    const wanted = [
      available >= minAvailable
        ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
        : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' },
      complete
        ? { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${newSet.metadata.name}" has successfully progressed.` }
        : { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${newSet.metadata.name}" is progressing.` },
    ];
    const old = (d.status ?? {}) as Rec & { conditions?: Condition[] };
    const now = timestamp(this.clock.now());
    const conditions = wanted.map((c) => {
      const was = old.conditions?.find((x) => x.type === c.type);
      const same = was && was.status === c.status && was.reason === c.reason && was.message === c.message;
      return same ? was : { ...c, lastUpdateTime: now, lastTransitionTime: was && was.status === c.status ? was.lastTransitionTime : now };
    });
    if (Object.entries(counts).every(([k, v]) => (old[k] ?? 0) === v) && conditions.every((c, i) => c === old.conditions?.find((x) => x.type === wanted[i]!.type))) return;
    try {
      await this.client.patch(DEPLOYMENTS, d.metadata.namespace, d.metadata.name!, { metadata: { resourceVersion: d.metadata.resourceVersion }, status: { ...counts, conditions } }, 'merge', 'status');
    } catch (e) {
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }

}
