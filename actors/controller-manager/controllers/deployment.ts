// The Deployment controller, as the real one rolls a template out through ReplicaSets:
//
// - Each template gets its own ReplicaSet, named `<deployment>-<hash of the template>`, the hash
//   also added to its selector and its pods as the `pod-template-hash` label, owned by the
//   Deployment, and numbered and annotated as deployment-revisions.ts says: the set of the current
//   template has the highest revision (a set found again is renumbered), the Deployment carries it.
// - RollingUpdate: the new set grows while all sets together stay within replicas + maxSurge
//   (25% rounded up by default), and old sets shrink, oldest first, while at least replicas -
//   maxUnavailable (25% rounded down) pods stay available. Recreate: old sets go to zero first,
//   the new one grows once their pods are gone.
// - Paused (spec.paused): no new template is rolled out (its set is not even created); a change of
//   spec.replicas still scales the sets there are, as does one while not paused (a set's
//   desired-replicas no longer spec.replicas): the only active set takes it all, else a rolling
//   Deployment's active sets share replicas + maxSurge in proportion to their sizes.
// - Old sets with no replicas beyond revisionHistoryLimit (10) are deleted, oldest first.
// - Each change of a set's size is recorded on the Deployment (ScalingReplicaSet, `Scaled up
//   replica set web-5d8f from 0 to 3`), as the real controller records it.
// - Status: replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas,
//   observedGeneration, the Available condition, and the Progressing condition: NewReplicaSetCreated
//   or FoundNewReplicaSet, ReplicaSetUpdated each time more pods are updated, Ready or available
//   or fewer are old, NewReplicaSetAvailable when the rollout completes, DeploymentPaused and
//   DeploymentResumed (status Unknown), and ProgressDeadlineExceeded (status False) when no
//   progress was seen for progressDeadlineSeconds (600 by default) on the clock. A rollout not yet
//   complete is looked at again a second after its deadline; none is while paused.
// Keys come from a work queue with `concurrentDeploymentSyncs` workers.
import { timestamp } from '../../api/env.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../api/status.ts';
import type { KObject, OwnerReference } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { referenceTo } from '../../client/events/index.ts';
import {
  TEMPLATE_HASH, REVISION, DESIRED_REPLICAS, MAX_REPLICAS, canonical, templateHash, fenceposts, isRolling, maxSurge, progressDeadlineMs, proportion, statusOf, replicasOf, annotationOf, sum, byAge, setCondition, putCondition, progressingOf,
  type Rec, type DeploymentSpec, type Counts,
} from './deployment-rules.ts';
import { maxRevision, newSetAnnotations } from './deployment-revisions.ts';
import { DEPLOYMENTS, type Deployment, type DeploymentCondition, type DeploymentStatus, REPLICASETS, type ReplicaSet } from '../../api/model/apps.ts';

/** A stuck rollout is looked at again this long after its deadline, so the deadline has passed. */
const DEADLINE_SLACK_MS = 1_000;

export class DeploymentController extends QueuedController {
  /** When each key's pending deadline check is due: one timer a key, not one a sync. */
  readonly #deadlineChecks = new Map<string, number>();

  constructor(init: QueuedControllerInit) {
    super('deployment-controller', init);
    init.informers.get(DEPLOYMENTS).on({ add: (d) => this.queue.add(cacheKey(d)), update: (_o, d) => this.queue.add(cacheKey(d)) });
    const owner = (rs: ReplicaSet) => {
      const ref = (rs.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'Deployment');
      if (ref) this.queue.add(`${rs.metadata.namespace}/${ref.name}`);
    };
    init.informers.get(REPLICASETS).on({ add: owner, update: (_o, rs) => owner(rs), delete: owner });
  }

  protected async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    let d = this.informers.get(DEPLOYMENTS).cache.get(namespace, name);
    if (!d || d.metadata.deletionTimestamp) return void this.#deadlineChecks.delete(key);
    const spec = (d.spec ?? {}) as DeploymentSpec;
    const replicas = spec.replicas ?? 1;
    const uid = d.metadata.uid;
    const sets = this.informers.get(REPLICASETS).cache.inNamespace(namespace)
      .filter((rs) => rs.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid));
    const hash = templateHash(spec.template ?? {});
    let newSet = sets.find((rs) => rs.metadata.labels?.[TEMPLATE_HASH] === hash);
    const old = sets.filter((rs) => rs !== newSet).sort(byAge);
    const now = timestamp(this.clock.now());
    // Pausing and resuming are written at once, as their own step; the write brings the key back.
    const paused = this.#pausedConditions(d, spec, now);
    if (paused) return this.#writeStatus(d, { conditions: paused });
    let conditions = d.status?.conditions ?? [];
    const newRevision = maxRevision(old) + 1;
    if (newSet) {
      // The real getNewReplicaSet: the set found takes the next revision and the Deployment's
      // annotations first (that write brings the key back), then the Deployment its revision.
      if (await this.#reviseSet(d, spec, newSet, newRevision)) return;
      d = await this.#annotateRevision(d, newSet.metadata.annotations?.[REVISION]);
      if (!d) return;
    }
    if (spec.paused || this.#isScalingEvent(replicas, newSet ? [newSet, ...old] : old)) {
      // Paused or resized: the sets there are take the new size; no template is rolled out.
      await this.#scaleToSize(d, spec, newSet, old);
      if (spec.paused) await this.#cleanup(old, spec.revisionHistoryLimit ?? 10);
      const status = this.#calculateStatus(d, spec, conditions, newSet, sets, now);
      if (!this.#sameStatus(d, status)) await this.#writeStatus(d, status);
      return;
    }
    const hasDeadline = progressDeadlineMs(spec) !== undefined;
    if (!newSet) {
      newSet = await this.#createSet(d, spec, hash, newRevision, replicas, old);
      if (!newSet) return;
      d = await this.#annotateRevision(d, String(newRevision));
      if (!d) return;
      if (hasDeadline) conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${newSet.metadata.name}"` }, now);
    } else if (hasDeadline && !progressingOf(conditions)) {
      conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'FoundNewReplicaSet', message: `Found new replica set "${newSet.metadata.name}"` }, now);
    }
    if (!isRolling(spec)) await this.#recreate(d, newSet, old, replicas);
    else await this.#rollingUpdate(d, newSet, old, replicas, fenceposts(spec, replicas));
    await this.#cleanup(old, spec.revisionHistoryLimit ?? 10);
    await this.#syncRolloutStatus(key, d, spec, conditions, newSet, sets.includes(newSet) ? sets : [...sets, newSet], now);
  }

  // ---- Pausing and scaling ------------------------------------------------------------------------

  /**
   * The real checkPausedConditions: the conditions with Progressing Unknown DeploymentPaused, then
   * DeploymentResumed, when that changes (a timeout reported stays); undefined when nothing does.
   */
  #pausedConditions(d: Deployment, spec: DeploymentSpec, now: string): DeploymentCondition[] | undefined {
    const conditions = d.status?.conditions ?? [];
    const reason = progressingOf(conditions)?.reason;
    if (progressDeadlineMs(spec) === undefined || reason === 'ProgressDeadlineExceeded') return undefined;
    if (spec.paused && reason !== 'DeploymentPaused')
      return setCondition(conditions, { type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' }, now);
    if (!spec.paused && reason === 'DeploymentPaused')
      return setCondition(conditions, { type: 'Progressing', status: 'Unknown', reason: 'DeploymentResumed', message: 'Deployment is resumed' }, now);
    return undefined;
  }

  /** An active set last scaled for another spec.replicas than the Deployment's now. */
  #isScalingEvent(replicas: number, sets: ReplicaSet[]): boolean {
    return sets.some((rs) => replicasOf(rs) > 0 && (annotationOf(rs, DESIRED_REPLICAS) ?? replicas) !== replicas);
  }

  /** The real scale: the only active set (or the newest) takes spec.replicas; else the sets share it in proportion. */
  async #scaleToSize(d: Deployment, spec: DeploymentSpec, newSet: ReplicaSet | undefined, old: ReplicaSet[]): Promise<void> {
    const replicas = spec.replicas ?? 1;
    const active = (newSet ? [newSet, ...old] : old).filter((rs) => replicasOf(rs) > 0);
    if (active.length <= 1) {
      const only = active[0] ?? newSet ?? old[old.length - 1];
      if (only && replicasOf(only) !== replicas) await this.#scale(d, only, replicas, true);
      return;
    }
    if (newSet && replicasOf(newSet) === replicas && annotationOf(newSet, DESIRED_REPLICAS) === replicas && statusOf(newSet).availableReplicas === replicas) {
      // The new set is saturated: the old ones are not needed any more.
      for (const rs of old) if (replicasOf(rs) > 0) await this.#scale(d, rs, 0, true);
      return;
    }
    if (!isRolling(spec)) return;
    const surge = maxSurge(spec);
    const toAdd = (replicas > 0 ? replicas + surge : 0) - sum(active, replicasOf);
    // The largest first; among equals, the newest first when growing and the oldest first when shrinking.
    const ordered = [...active].sort((a, b) => replicasOf(b) - replicasOf(a) || (toAdd > 0 ? byAge(b, a) : byAge(a, b)));
    const sizes = new Map<ReplicaSet, number>();
    let added = 0;
    for (const rs of ordered) {
      const share = proportion(replicasOf(rs), annotationOf(rs, MAX_REPLICAS) ?? d.status?.replicas, replicas, surge, toAdd, added);
      sizes.set(rs, replicasOf(rs) + share);
      added += share;
    }
    // What rounding left over goes to the largest set.
    sizes.set(ordered[0]!, Math.max(0, sizes.get(ordered[0]!)! + toAdd - added));
    for (const rs of ordered) await this.#scale(d, rs, sizes.get(rs)!, true);
  }

  // ---- Rolling out --------------------------------------------------------------------------------

  #sizeAnnotations(d: Deployment): Record<string, string> {
    const spec = (d.spec ?? {}) as DeploymentSpec;
    const replicas = spec.replicas ?? 1;
    return { [DESIRED_REPLICAS]: String(replicas), [MAX_REPLICAS]: String(replicas + maxSurge(spec)) };
  }

  async #createSet(d: Deployment, spec: DeploymentSpec, hash: string, revision: number, replicas: number, old: ReplicaSet[]): Promise<KObject | undefined> {
    const labels = { ...spec.template?.metadata?.labels, [TEMPLATE_HASH]: hash };
    const ref: OwnerReference = { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name!, uid: d.metadata.uid!, controller: true, blockOwnerDeletion: true };
    // A rolling update starts the new set within the surge; a first rollout or Recreate at once.
    const rolling = isRolling(spec) && old.length > 0;
    const start = rolling ? Math.max(0, Math.min(replicas, replicas + fenceposts(spec, replicas).surge - sum(old, replicasOf))) : !isRolling(spec) && old.some((rs) => replicasOf(rs) > 0) ? 0 : replicas;
    try {
      const created = await this.client.create(REPLICASETS, {
        metadata: { name: `${d.metadata.name}-${hash}`, namespace: d.metadata.namespace, labels, annotations: newSetAnnotations(d, {}, revision, false), ownerReferences: [ref] },
        spec: {
          replicas: start,
          ...(spec.minReadySeconds ? { minReadySeconds: spec.minReadySeconds } : {}),
          selector: { ...spec.selector, matchLabels: { ...spec.selector?.matchLabels, [TEMPLATE_HASH]: hash } },
          template: { ...spec.template, metadata: { ...spec.template?.metadata, labels } },
        },
      } as KObject);
      if (start > 0) this.events.event(referenceTo(DEPLOYMENTS, d), 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} from 0 to ${start}`);
      return created;
    } catch (e) {
      // Made already (the cache had not seen it): the next sync finds it.
      if (isAlreadyExists(e) || isConflict(e)) return undefined;
      throw e;
    }
  }

  /**
   * Brings the set holding the Deployment's template up to date: its revision raised to
   * `newRevision`, the Deployment's annotations copied, its minReadySeconds the Deployment's.
   * True when it wrote (or lost a race), so the sync stops here.
   */
  async #reviseSet(d: Deployment, spec: DeploymentSpec, rs: ReplicaSet, newRevision: number): Promise<boolean> {
    const annotations = newSetAnnotations(d, rs.metadata.annotations ?? {}, newRevision, true);
    const minReadySeconds = spec.minReadySeconds ?? 0;
    const minReadyChanged = (rs.spec?.minReadySeconds ?? 0) !== minReadySeconds;
    if (!annotations && !minReadyChanged) return false;
    try {
      await this.client.patch(REPLICASETS, rs.metadata.namespace, rs.metadata.name!,
        { metadata: { resourceVersion: rs.metadata.resourceVersion, ...(annotations ? { annotations } : {}) }, spec: { minReadySeconds } }, 'merge');
    } catch (e) {
      if (!(isNotFound(e) || isConflict(e))) throw e;
    }
    return true;
  }

  /**
   * The Deployment with `revision` in its revision annotation, written when it differs (an update,
   * as the controller may not patch Deployments); undefined when the write lost a race.
   */
  async #annotateRevision(d: Deployment, revision: string | undefined): Promise<KObject | undefined> {
    if (revision === undefined || d.metadata.annotations?.[REVISION] === revision) return d;
    try {
      return await this.client.update(DEPLOYMENTS, { ...d, metadata: { ...d.metadata, annotations: { ...d.metadata.annotations, [REVISION]: revision } } });
    } catch (e) {
      if (!(isNotFound(e) || isConflict(e))) throw e;
      return undefined;
    }
  }

  /**
   * Sets a set's size, with the Deployment's size annotations. A rollout step writes only a new
   * size (`orStale` false); scaling to the Deployment's size also mends stale annotations.
   */
  async #scale(d: Deployment, rs: ReplicaSet, replicas: number, orStale = false): Promise<void> {
    const annotations = this.#sizeAnnotations(d);
    const stale = Object.entries(annotations).some(([k, v]) => rs.metadata.annotations?.[k] !== v);
    if (replicasOf(rs) === replicas && !(orStale && stale)) return;
    try {
      await this.client.patch(REPLICASETS, rs.metadata.namespace, rs.metadata.name!, { metadata: { resourceVersion: rs.metadata.resourceVersion, annotations }, spec: { replicas } }, 'merge');
      const from = replicasOf(rs);
      if (from !== replicas)
        this.events.event(referenceTo(DEPLOYMENTS, d), 'Normal', 'ScalingReplicaSet', `Scaled ${from < replicas ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${replicas}`);
    } catch (e) {
      if (!(isNotFound(e) || isConflict(e))) throw e;
    }
  }

  /** The real rolloutRolling: grow the new set within the surge, shrink old ones within the unavailability. */
  async #rollingUpdate(d: Deployment, newSet: ReplicaSet, old: ReplicaSet[], replicas: number, f: { surge: number; unavailable: number }): Promise<void> {
    const size = new Map([newSet, ...old].map((rs) => [rs, replicasOf(rs)]));
    const scale = async (rs: ReplicaSet, to: number) => (size.set(rs, to), this.#scale(d, rs, to));
    const total = () => [...size.values()].reduce((a, b) => a + b, 0);
    const newReplicas = size.get(newSet)!;
    if (newReplicas > replicas) await scale(newSet, replicas);
    else if (newReplicas < replicas && total() < replicas + f.surge) await scale(newSet, newReplicas + Math.min(replicas + f.surge - total(), replicas - newReplicas));
    if (old.every((rs) => size.get(rs) === 0)) return;
    const available = (rs: ReplicaSet) => Math.min(size.get(rs)!, statusOf(rs).availableReplicas ?? 0);
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
  async #recreate(d: Deployment, newSet: ReplicaSet, old: ReplicaSet[], replicas: number): Promise<void> {
    for (const rs of old) await this.#scale(d, rs, 0);
    if (old.every((rs) => (statusOf(rs).replicas ?? 0) === 0)) await this.#scale(d, newSet, replicas);
  }

  async #cleanup(old: ReplicaSet[], limit: number): Promise<void> {
    const idle = old.filter((rs) => replicasOf(rs) === 0 && (statusOf(rs).replicas ?? 0) === 0);
    for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) {
      try {
        await this.client.delete(REPLICASETS, rs.metadata.namespace, rs.metadata.name!, { preconditions: { uid: rs.metadata.uid } });
      } catch (e) {
        if (!(isNotFound(e) || isConflict(e))) throw e;
      }
    }
  }

  // ---- Status -------------------------------------------------------------------------------------

  /** The real calculateStatus: the counts from the sets' status, and the Available condition. */
  #calculateStatus(d: Deployment, spec: DeploymentSpec, conditions: DeploymentCondition[], newSet: ReplicaSet | undefined, sets: ReplicaSet[], now: string): Counts & { conditions: DeploymentCondition[] } {
    const replicas = spec.replicas ?? 1;
    const available = sum(sets, (rs) => statusOf(rs).availableReplicas ?? 0);
    const counts: Counts = {
      observedGeneration: d.metadata.generation ?? 1,
      replicas: sum(sets, (rs) => statusOf(rs).replicas ?? 0),
      updatedReplicas: newSet ? statusOf(newSet).replicas ?? 0 : 0,
      readyReplicas: sum(sets, (rs) => statusOf(rs).readyReplicas ?? 0),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, replicas - available),
    };
    const minAvailable = replicas - (isRolling(spec) && replicas > 0 ? fenceposts(spec, replicas).unavailable : 0);
    const availableCondition = available >= minAvailable
      ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
      : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' };
    return { ...counts, conditions: setCondition(conditions, availableCondition, now) };
  }

  /**
   * The real syncRolloutStatus: the Progressing condition from the progress since the status the
   * API holds (`d.status`); written when it changed, else a rollout neither complete nor timed out
   * is looked at again just after its deadline.
   */
  async #syncRolloutStatus(key: string, d: Deployment, spec: DeploymentSpec, conditions: DeploymentCondition[], newSet: ReplicaSet, sets: ReplicaSet[], now: string): Promise<void> {
    const status = this.#calculateStatus(d, spec, conditions, newSet, sets, now);
    const deadlineMs = progressDeadlineMs(spec);
    const current = progressingOf(status.conditions);
    if (deadlineMs === undefined) status.conditions = status.conditions.filter((c) => c.type !== 'Progressing');
    else if (!(status.replicas === status.updatedReplicas && current?.reason === 'NewReplicaSetAvailable')) {
      const was: DeploymentStatus = d.status ?? {};
      const set = newSet.metadata.name;
      if (this.#complete(spec, status)) {
        status.conditions = setCondition(status.conditions, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${set}" has successfully progressed.` }, now);
      } else if (status.updatedReplicas > (was.updatedReplicas ?? 0) || status.replicas - status.updatedReplicas < (was.replicas ?? 0) - (was.updatedReplicas ?? 0) ||
        status.readyReplicas > (was.readyReplicas ?? 0) || status.availableReplicas > (was.availableReplicas ?? 0)) {
        // Progress: the condition's update time moves on even when its reason stays the same.
        status.conditions = putCondition(status.conditions, { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${set}" is progressing.`,
          lastUpdateTime: now, lastTransitionTime: current?.status === 'True' ? current.lastTransitionTime : now });
      } else if (this.#timedOut(current, deadlineMs)) {
        status.conditions = setCondition(status.conditions, { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${set}" has timed out progressing.` }, now);
      }
    }
    if (!this.#sameStatus(d, status)) return this.#writeStatus(d, status);
    this.#requeueStuck(key, spec, status);
  }

  /** Every replica updated and available: the real DeploymentComplete. */
  #complete(spec: DeploymentSpec, status: Counts): boolean {
    const replicas = spec.replicas ?? 1;
    return status.updatedReplicas === replicas && status.replicas === replicas && status.availableReplicas === replicas;
  }

  /** The real DeploymentTimedOut: no progress recorded for the deadline (a completed rollout never times out). */
  #timedOut(progressing: DeploymentCondition | undefined, deadlineMs: number): boolean {
    if (!progressing || progressing.reason === 'NewReplicaSetAvailable') return false;
    if (progressing.reason === 'ProgressDeadlineExceeded') return true;
    return Date.parse(progressing.lastUpdateTime ?? '') + deadlineMs < this.clock.now();
  }

  /** The real requeueStuckDeployment, on the queue's delayed add: one pending check a key. */
  #requeueStuck(key: string, spec: DeploymentSpec, status: Counts & { conditions: DeploymentCondition[] }): void {
    const deadlineMs = progressDeadlineMs(spec);
    const progressing = progressingOf(status.conditions);
    if (deadlineMs === undefined || !progressing || this.#complete(spec, status) || progressing.reason === 'ProgressDeadlineExceeded') return;
    const now = this.clock.now();
    const dueMs = Math.max(now, (Date.parse(progressing.lastUpdateTime ?? '') || now) + deadlineMs) + DEADLINE_SLACK_MS;
    const pending = this.#deadlineChecks.get(key);
    // A check still to come, no later than this one, will requeue again if it is early.
    if (pending !== undefined && pending > now && pending <= dueMs) return;
    this.#deadlineChecks.set(key, dueMs);
    this.queue.addAfter(key, dueMs - now);
  }

  #sameStatus(d: Deployment, status: Counts & { conditions: DeploymentCondition[] }): boolean {
    const old = (d.status ?? {}) as Rec;
    return Object.entries(status).every(([k, v]) => (k === 'conditions' ? canonical(old.conditions ?? []) === canonical(v) : (old[k] ?? 0) === v));
  }

  async #writeStatus(d: Deployment, status: DeploymentStatus): Promise<void> {
    try {
      await this.client.patch(DEPLOYMENTS, d.metadata.namespace, d.metadata.name!, { metadata: { resourceVersion: d.metadata.resourceVersion }, status }, 'merge', 'status');
    } catch (e) {
      if (!(isNotFound(e) || isConflict(e))) throw e;
    }
  }
}
