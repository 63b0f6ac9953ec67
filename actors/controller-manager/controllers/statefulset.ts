// The StatefulSet controller, which gives each pod of a set a stable identity, as the real one does:
//
// - Pods are named `<set>-<ordinal>` for ordinals from spec.ordinals.start (0 by default). Each is
//   labelled `statefulset.kubernetes.io/pod-name`, `apps.kubernetes.io/pod-index` and
//   `controller-revision-hash` (the name of its revision), has the set as its controller owner,
//   and gets spec.hostname set to its name and spec.subdomain set to serviceName. Orphans whose
//   name and labels fit the set are adopted, and so are orphan revisions its selector matches.
// - OrderedReady (the default) is monotonic. Ordinal i is created only once 0..i-1 are Running and
//   Ready (and available for minReadySeconds). Surplus pods are deleted highest ordinal first, one
//   at a time, and each must finish terminating before the next goes. Parallel creates and deletes
//   without waiting, in slow-start batches of 1, 2, 4 and so on. A Failed or Succeeded pod is
//   deleted and made again.
// - History: revisions.ts, as for DaemonSets. Pods below `partition` (RollingUpdate) are made from
//   the current revision, and all other pods from the update revision.
// - RollingUpdate: a pod not at the update revision is deleted, highest ordinal first and only
//   ordinals at or above `partition`. Only one goes at a time, and only once the pods above it are
//   Running and Ready. When every pod is updated and Ready, the update revision becomes the
//   current one. OnDelete: a new template only reaches pods that someone deletes, and
//   currentRevision stays as it was (as in 1.32: kubernetes#73492).
// - Status: replicas, readyReplicas, currentReplicas, updatedReplicas, availableReplicas,
//   currentRevision, updateRevision, observedGeneration, collisionCount.
// - Each pod created or deleted is recorded on the set in the real controller's words
//   (`create Pod web-0 in StatefulSet web successful`, SuccessfulCreate; FailedCreate with the error).
// Not done: volumeClaimTemplates and the PVC retention policy (the API server serves no
// PersistentVolumeClaims), maxUnavailable (the MaxUnavailableStatefulSet gate is off), releasing
// owned pods the selector no longer matches, and conditions. A set being deleted is left alone.
// Keys come from a work queue with `concurrentStatefulsetSyncs` workers.
import type { ResourceType } from '../../api/resources.ts';
import { isFinished } from '../../api/fields.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { compileLabelSelector, type CompiledSelector, type LabelSelector } from '../../scheduler/label-selector.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { referenceTo } from '../../client/events/index.ts';
import { controllerRef, ownedRevisions, REVISION_HASH, revisionNumber, revisionTemplate, syncRevision, truncateHistory, type PodTemplate } from './revisions.ts';
import { CONTROLLER_REVISIONS, type ControllerRevision, STATEFULSETS, type StatefulSet } from '../../api/model/apps.ts';
import { PODS, type Pod } from '../../api/model/core.ts';

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: PodTemplate;
  serviceName?: string;
  podManagementPolicy?: string;
  updateStrategy?: { type?: string; rollingUpdate?: { partition?: number } };
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  ordinals?: { start?: number };
}
interface SetStatus {
  observedGeneration: number;
  replicas: number;
  readyReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
}
/** What one sync works from. */
interface Plan {
  set: StatefulSet;
  spec: StatefulSetSpec;
  start: number;
  monotonic: boolean;
  current: KObject;
  update: KObject;
  nowMs: number;
}

/** The set a pod's name says it belongs to, and its ordinal (-1: not a set's pod name). */
export function parentAndOrdinal(name: string): [string, number] {
  const m = /^(.*)-([0-9]+)$/.exec(name);
  const ordinal = m ? Number(m[2]) : -1;
  return m && ordinal <= 2 ** 31 - 1 ? [m[1]!, ordinal] : ['', -1];
}
const ordinalOf = (pod: KObject) => parentAndOrdinal(pod.metadata.name ?? '')[1];
const revisionOf = (pod: KObject) => pod.metadata.labels?.[REVISION_HASH];
const phaseOf = (pod: Pod) => pod.status?.phase;
const terminating = (pod: KObject) => Boolean(pod.metadata.deletionTimestamp);
/** When the pod turned Ready (0 when the time is not known); undefined while not Ready. */
const readySince = (pod: Pod): number | undefined => {
  const c = (pod.status?.conditions ?? []).find((x) => x.type === 'Ready');
  return c?.status === 'True' ? Date.parse(c.lastTransitionTime ?? '') || 0 : undefined;
};
const runningAndReady = (pod: KObject) => phaseOf(pod) === 'Running' && readySince(pod) !== undefined;
const healthy = (pod: KObject) => runningAndReady(pod) && !terminating(pod);
const available = (pod: KObject, p: Plan) => runningAndReady(pod) && p.nowMs - readySince(pod)! >= (p.spec.minReadySeconds ?? 0) * 1000;

export class StatefulSetController extends QueuedController {
  readonly #sets: Informer<StatefulSet>;
  readonly #pods: Informer<Pod>;
  readonly #revisions: Informer<ControllerRevision>;

  constructor(init: QueuedControllerInit) {
    super('statefulset-controller', init);
    this.#sets = init.informers.get(STATEFULSETS);
    this.#pods = init.informers.get(PODS);
    this.#revisions = init.informers.get(CONTROLLER_REVISIONS);
    this.#sets.on({ add: (s) => this.queue.add(cacheKey(s)), update: (_o, s) => this.queue.add(cacheKey(s)) });
    this.#pods.on({ add: (p) => this.#podChanged(p), update: (_o, p) => this.#podChanged(p), delete: (p) => this.#podChanged(p) });
  }

  /** Wakes the pod's set; an orphan wakes every set that could adopt it. */
  #podChanged(pod: KObject): void {
    const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller);
    if (ref) {
      if (ref.kind === 'StatefulSet') this.queue.add(`${pod.metadata.namespace}/${ref.name}`);
      return;
    }
    const [parent] = parentAndOrdinal(pod.metadata.name ?? '');
    const set = this.#sets.cache.get(pod.metadata.namespace, parent);
    if (set && compileLabelSelector(set.spec?.selector).matches(pod.metadata.labels ?? {})) this.queue.add(cacheKey(set));
  }

  protected async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const set = this.#sets.cache.get(namespace, name);
    if (!set || set.metadata.deletionTimestamp) return;
    const spec = (set.spec ?? {}) as StatefulSetSpec;
    const selector = compileLabelSelector(spec.selector);
    const revisions = await this.#claim(set, selector, CONTROLLER_REVISIONS, ownedRevisions(this.#revisions.cache, set), () => true);
    revisions.sort((a, b) => revisionNumber(a) - revisionNumber(b));
    const owned = this.#pods.cache.inNamespace(namespace).filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === set.metadata.uid));
    const pods = await this.#claim(set, selector, PODS, owned, (p) => parentAndOrdinal(p.metadata.name ?? '')[0] === name);
    const old = (set.status ?? {}) as Partial<SetStatus>;
    const { revision: update, collisionCount } = await syncRevision(this.client, set, 'StatefulSet', spec.template ?? {}, revisions, old.collisionCount ?? 0);
    const current = revisions.find((r) => r.metadata.name === old.currentRevision) ?? update;
    const plan: Plan = { set, spec, start: spec.ordinals?.start ?? 0, monotonic: spec.podManagementPolicy !== 'Parallel', current, update, nowMs: this.clock.now() };
    const status = await this.#reconcile(plan, pods.filter((p) => parentAndOrdinal(p.metadata.name!)[0] === name));
    status.collisionCount = collisionCount;
    await this.#writeStatus(plan, status);
    const live = new Set([current.metadata.name, update.metadata.name, ...pods.map(revisionOf)]);
    await truncateHistory(this.client, revisions, (r) => live.has(r.metadata.name), spec.revisionHistoryLimit ?? 10);
    // Pods Ready but not yet for minReadySeconds become available later: look again then.
    const waits = pods.filter((p) => runningAndReady(p) && !available(p, plan)).map((p) => readySince(p)! + spec.minReadySeconds! * 1000 - plan.nowMs);
    if (waits.length) this.queue.addAfter(key, Math.max(1, Math.min(...waits)));
  }

  /** `owned`, plus the orphans `member` accepts that the selector matches, adopted (the real ClaimPods, ClaimControllerRevisions). */
  async #claim(set: KObject, selector: CompiledSelector, type: ResourceType, owned: KObject[], member: (o: KObject) => boolean): Promise<KObject[]> {
    const orphans = this.informers.get(type).cache.inNamespace(set.metadata.namespace!)
      .filter((o) => !(o.metadata.ownerReferences ?? []).some((r) => r.controller) && member(o) && selector.matches(o.metadata.labels ?? {}));
    const claimed = [...owned];
    for (const orphan of orphans) {
      const patch = { metadata: { resourceVersion: orphan.metadata.resourceVersion, ownerReferences: [...(orphan.metadata.ownerReferences ?? []), controllerRef(set, 'StatefulSet')] } };
      const adopted = await this.client.patch(type, orphan.metadata.namespace, orphan.metadata.name!, patch, 'merge').catch(lostRace);
      if (adopted) claimed.push(adopted);
    }
    return claimed;
  }

  /** The real updateStatefulSet: replicas made and kept, the surplus condemned, then the update; returns the status. */
  async #reconcile(p: Plan, pods: KObject[]): Promise<SetStatus> {
    const slots: (KObject | undefined)[] = Array.from({ length: p.spec.replicas ?? 1 });
    const condemned: KObject[] = [];
    for (const pod of pods) {
      const index = ordinalOf(pod) - p.start;
      if (index >= 0 && index < slots.length) slots[index] = pod;
      else if (ordinalOf(pod) >= 0) condemned.push(pod);
    }
    condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
    const status = this.#status(p, [...slots.filter((x) => x !== undefined), ...condemned]);
    // The lowest ordinal not healthy: a condemned pod may go while unhealthy only if it is this one.
    const firstUnhealthy = slots.some((x) => !x || !healthy(x)) ? undefined : [...condemned].reverse().find((x) => !healthy(x));
    if (await runForAll(slots.length, (i) => this.#processReplica(p, slots, i), p.monotonic)) return status;
    if (await runForAll(condemned.length, (i) => this.#processCondemned(p, condemned[i]!, firstUnhealthy), p.monotonic)) return status;
    if ((p.spec.updateStrategy?.type ?? 'RollingUpdate') !== 'OnDelete') await this.#rollingUpdate(p, slots, status);
    return status;
  }

  /** Makes, remakes or repairs the replica in slot `i`; true when a monotonic set must wait. */
  async #processReplica(p: Plan, slots: (KObject | undefined)[], i: number): Promise<boolean> {
    let pod = slots[i];
    if (pod && isFinished(pod)) {
      await this.#deletePod(p, pod);
      pod = slots[i] = undefined;
    }
    if (!pod) {
      await this.#createPod(p, p.start + i);
      return p.monotonic;
    }
    if (p.monotonic && (terminating(pod) || !runningAndReady(pod) || !available(pod, p))) return true;
    const name = pod.metadata.name!;
    if (pod.metadata.labels?.[POD_NAME_LABEL] !== name) {
      const labels = { [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinalOf(pod)) };
      await this.client.patch(PODS, pod.metadata.namespace, name, { metadata: { labels } }, 'merge').catch(lostRace);
    }
    return false;
  }

  /** Deletes a surplus pod, the predecessors willing; true when a monotonic set must wait. */
  async #processCondemned(p: Plan, pod: KObject, firstUnhealthy: KObject | undefined): Promise<boolean> {
    if (terminating(pod)) return p.monotonic;
    if (p.monotonic && pod !== firstUnhealthy && !available(pod, p)) return true;
    await this.#deletePod(p, pod);
    return true;
  }

  /** From the top ordinal down to the partition: the first pod not at the update revision goes, once those above are healthy. */
  async #rollingUpdate(p: Plan, slots: (KObject | undefined)[], status: SetStatus): Promise<void> {
    const partition = p.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let target = slots.length - 1; target >= partition; target--) {
      const pod = slots[target];
      if (!pod) return; // being made at the update revision
      if (revisionOf(pod) !== p.update.metadata.name && !terminating(pod)) {
        await this.#deletePod(p, pod);
        status.currentReplicas--;
        return;
      }
      if (!healthy(pod)) return;
    }
  }

  /** The real newVersionedStatefulSetPod: below the partition from the current revision, else the update revision. */
  async #createPod(p: Plan, ordinal: number): Promise<void> {
    const strategy = p.spec.updateStrategy ?? {};
    const currentReplicas = p.set.status?.currentReplicas ?? 0;
    // The real condition, precedence and all: `RollingUpdate && no rollingUpdate && below currentReplicas || below partition`.
    const fromCurrent = ((strategy.type ?? 'RollingUpdate') === 'RollingUpdate' && !strategy.rollingUpdate && ordinal < p.start + currentReplicas)
      || (strategy.rollingUpdate !== undefined && ordinal < p.start + (strategy.rollingUpdate.partition ?? 0));
    const revision = fromCurrent ? p.current : p.update;
    const template = revisionTemplate(revision);
    const name = `${p.set.metadata.name}-${ordinal}`;
    const meta = template.metadata ?? {};
    const created = this.client.create(PODS, {
      metadata: { name, namespace: p.set.metadata.namespace, labels: { ...meta.labels, [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal), [REVISION_HASH]: revision.metadata.name! },
        ...(meta.annotations ? { annotations: meta.annotations } : {}), ...(meta.finalizers ? { finalizers: meta.finalizers } : {}), ownerReferences: [controllerRef(p.set, 'StatefulSet')] },
      spec: { ...template.spec, hostname: name, ...(p.spec.serviceName ? { subdomain: p.spec.serviceName } : {}) },
    } as KObject);
    await created.then(() => this.#record('create', p.set, name), (e: unknown) => {
      // One made already (the cache had not seen it) is no failure, and not recorded.
      if (!(isAlreadyExists(e) || isConflict(e))) this.#record('create', p.set, name, e);
      lostRace(e);
    });
  }

  async #deletePod(p: Plan, pod: KObject): Promise<void> {
    await this.client.delete(PODS, pod.metadata.namespace, pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } })
      .then(() => this.#record('delete', p.set, pod.metadata.name!), (e: unknown) => {
        if (!isConflict(e)) this.#record('delete', p.set, pod.metadata.name!, e);
        lostRace(e);
      });
  }

  /** The real recordPodEvent: `Successful<Verb>`, or `Failed<Verb>` with the error. */
  #record(verb: 'create' | 'delete', set: KObject, pod: string, error?: unknown): void {
    const Verb = verb === 'create' ? 'Create' : 'Delete';
    const what = `${verb} Pod ${pod} in StatefulSet ${set.metadata.name}`;
    if (error === undefined) this.events.event(referenceTo(STATEFULSETS, set), 'Normal', `Successful${Verb}`, `${what} successful`);
    else this.events.event(referenceTo(STATEFULSETS, set), 'Warning', `Failed${Verb}`, `${what} failed error: ${(error as Error).message}`);
  }

  #status(p: Plan, pods: KObject[]): SetStatus {
    const kept = pods.filter((x) => !terminating(x));
    return {
      observedGeneration: p.set.metadata.generation ?? 1,
      replicas: pods.length,
      readyReplicas: pods.filter(runningAndReady).length,
      availableReplicas: pods.filter((x) => available(x, p)).length,
      currentReplicas: kept.filter((x) => revisionOf(x) === p.current.metadata.name).length,
      updatedReplicas: kept.filter((x) => revisionOf(x) === p.update.metadata.name).length,
      currentRevision: p.current.metadata.name!,
      updateRevision: p.update.metadata.name!,
      collisionCount: 0,
    };
  }

  async #writeStatus(p: Plan, status: SetStatus): Promise<void> {
    const replicas = p.spec.replicas ?? 1;
    // A rolling update is complete once every replica is updated and Ready.
    if ((p.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && status.updatedReplicas === replicas && status.readyReplicas === replicas && status.replicas === replicas) {
      status.currentReplicas = status.updatedReplicas;
      status.currentRevision = status.updateRevision;
    }
    const old = (p.set.status ?? {}) as Record<string, unknown>;
    if (Object.entries(status).every(([k, v]) => (old[k] ?? (typeof v === 'string' ? '' : 0)) === v)) return;
    await this.client.patch(STATEFULSETS, p.set.metadata.namespace, p.set.metadata.name!, { metadata: { resourceVersion: p.set.metadata.resourceVersion }, status }, 'merge', 'status').catch(lostRace);
  }
}

/**
 * The real runForAll: monotonic, one at a time until `fn` says wait (then true); otherwise all of
 * them in slow-start batches of 1, 2, 4, ... (then false).
 */
async function runForAll(count: number, fn: (i: number) => Promise<boolean>, monotonic: boolean): Promise<boolean> {
  if (monotonic) {
    for (let i = 0; i < count; i++) if (await fn(i)) return true;
    return false;
  }
  for (let done = 0, batch = 1; done < count; done += batch, batch *= 2) {
    const from = done;
    await Promise.all(Array.from({ length: Math.min(batch, count - from) }, (_, k) => fn(from + k)));
  }
  return false;
}

/** A write that lost a race (the object is gone, exists already, or changed): the next event settles it. */
function lostRace(e: unknown): undefined {
  if (isNotFound(e) || isAlreadyExists(e) || isConflict(e)) return undefined;
  throw e;
}
