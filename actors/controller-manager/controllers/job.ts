// The Job controller (`job-controller`, kubernetes pkg/controller/job), run with
// --concurrent-job-syncs workers. Each Job that has not finished has a machine (machines/job.ts,
// hosted as `job/<ns>/<name>`) that decides whether it runs, is suspended, backs off after pod
// failures, misses its deadline or finishes; each sync (job-sync.ts) observes the Job's pods for
// it and does the I/O its state asks for (job-writes.ts).
//
// - A Job owns the pods whose controller reference names it; it adopts orphans its selector
//   matches, with the tracking finalizer.
// - Events on a Job's spec sync it at once; pod events and status changes within a second
//   (syncJobBatchPeriod), so a burst of pod changes costs one sync.
// - Expectations: after creating or deleting pods, or taking finalizers off, a Job waits for its
//   informer to see that before it counts again.
// - A pod left with the tracking finalizer (its Job gone or finished, or it was never adopted) has
//   it taken off by the orphan queue (`job_orphan_pod`), so deleting a Job never strands its pods.
// - The real controller's Events go to `event` (QueuedController's seam until components record Events).
import { JOB_CONTROLLER_NAME, JOB_TRACKING_FINALIZER, jobFinished, jobSpec, trueCondition } from '../../api/batch.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../api/status.ts';
import { controllerOf, type KObject, type OwnerReference } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { WorkQueue } from '../../client/work-queue.ts';
import { compileLabelSelector, type LabelSelector } from '../../scheduler/label-selector.ts';
import { actorIds } from '../../system/ids.ts';
import { jobMachine, jobPhase, type Finish } from '../../../machines/job.ts';
import { Expectations } from '../expectations.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { hasTrackingFinalizer, jobRef, timestampMs } from './job-pods.ts';
import { syncJob, type JobMachineLink } from './job-sync.ts';
import { FinalizerRemovals, JobWrites, REMOVE_FINALIZER } from './job-writes.ts';
import type { Actor } from 'xstate';
import { PODS, type Pod } from '../../api/model/core.ts';
import { JOBS, type Job } from '../../api/model/batch.ts';

/** How long pod events and status changes are gathered before a Job syncs (syncJobBatchPeriod). */
const BATCH_PERIOD_MS = 1_000;

const isJobRef = (r: OwnerReference | undefined) => r?.kind === 'Job' && r.apiVersion === 'batch/v1';

type HostedJobMachine = ReturnType<typeof jobMachine.provide>;

function sameLabels(a: KObject, b: KObject): boolean {
  const x = a.metadata.labels ?? {}, y = b.metadata.labels ?? {};
  if (x === y) return true;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

/** The interim condition a Job carries, as the finish its machine picks up. */
function interimOf(job: KObject): Finish | undefined {
  const met = trueCondition(job, 'SuccessCriteriaMet') ?? trueCondition(job, 'FailureTarget');
  return met ? { succeeded: met.type === 'SuccessCriteriaMet', reason: met.reason ?? '', message: met.message ?? '' } : undefined;
}

export class JobController extends QueuedController {
  readonly #jobs: Informer<Job>;
  readonly #pods: Informer<Pod>;
  readonly #expectations: Expectations;
  readonly #removals = new FinalizerRemovals();
  readonly #machine: HostedJobMachine;
  /** Each unfinished Job's machine, by key, with the uid of the Job it drives. */
  readonly #machines = new Map<string, { uid: string; actor: Actor<HostedJobMachine> }>();
  readonly #keyOfActor = new Map<string, string>();
  /** Jobs with a batched sync pending. */
  readonly #batched = new Set<string>();
  readonly #orphans: WorkQueue;

  constructor(init: QueuedControllerInit) {
    super('job-controller', init);
    this.#jobs = init.informers.get(JOBS);
    this.#pods = init.informers.get(PODS);
    this.#expectations = new Expectations(init.clock);
    this.#machine = jobMachine.provide({ actions: { resync: ({ self }) => { const key = this.#keyOfActor.get(self.id); if (key) this.queue.add(key); } } });
    this.#orphans = new WorkQueue(init.clock, 1, (key) => this.#syncOrphan(key), (_key, e) => this.report(e),
      init.registry ? { registry: init.registry, name: 'job_orphan_pod' } : undefined);
    this.#jobs.on({ add: (j) => this.queue.add(cacheKey(j)), update: (old, j) => this.#jobUpdated(old, j), delete: (j) => this.#jobDeleted(j) });
    this.#pods.on({ add: (p) => this.#podAdded(p), update: (old, p) => this.#podUpdated(old, p), delete: (p) => this.#podDeleted(p, true) });
  }

  protected override run(): void {
    super.run();
    this.#orphans.run();
  }

  protected override halt(): void {
    super.halt();
    this.#orphans.stop();
    for (const key of [...this.#machines.keys()]) this.#retire(key);
  }

  // ---- Events -------------------------------------------------------------------------------------

  #resolve(namespace: string | undefined, ref: OwnerReference): KObject | undefined {
    const job = isJobRef(ref) ? this.#jobs.cache.get(namespace, ref.name) : undefined;
    return job && job.metadata.uid === ref.uid ? job : undefined;
  }

  #enqueueBatched(key: string): void {
    if (this.#batched.has(key)) return;
    this.#batched.add(key);
    this.queue.addAfter(key, BATCH_PERIOD_MS);
  }

  /** An orphan wakes the Jobs whose selector matches it (one may adopt it). */
  #enqueueMatching(pod: KObject): void {
    if (this.#jobs.cache.size === 0) return;
    for (const job of this.#jobs.cache.inNamespace(pod.metadata.namespace ?? '')) {
      try {
        if (compileLabelSelector(jobSpec(job).selector as LabelSelector | undefined).matches(pod.metadata.labels ?? {})) this.#enqueueBatched(cacheKey(job));
      } catch {
        // A Job whose selector does not compile selects nothing.
      }
    }
  }

  #podAdded(pod: KObject): void {
    if (pod.metadata.deletionTimestamp) return this.#podDeleted(pod, false);
    const ref = controllerOf(pod);
    if (ref) {
      const job = isJobRef(ref) ? this.#resolve(pod.metadata.namespace, ref) : undefined;
      if (!job) return;
      this.#expectations.observed(cacheKey(job), 'adds');
      return this.#enqueueBatched(cacheKey(job));
    }
    if (hasTrackingFinalizer(pod)) this.#orphans.add(cacheKey(pod));
    this.#enqueueMatching(pod);
  }

  #podUpdated(old: KObject, pod: KObject): void {
    if (pod.metadata.resourceVersion === old.metadata.resourceVersion) return;
    if (pod.metadata.deletionTimestamp) return this.#podDeleted(pod, false);
    const ref = controllerOf(pod), oldRef = controllerOf(old);
    // Most pods belong to other controllers: nothing to do for them.
    if ((ref || oldRef) && !isJobRef(ref) && !isJobRef(oldRef)) return;
    const finalizerGone = !hasTrackingFinalizer(pod);
    const refChanged = ref?.uid !== oldRef?.uid;
    for (const r of refChanged && oldRef ? [oldRef, ref] : [ref]) {
      const job = r ? this.#resolve(pod.metadata.namespace, r) : undefined;
      if (!job) continue;
      if (finalizerGone) this.#removals.observed(cacheKey(job), pod.metadata.uid!);
      this.#enqueueBatched(cacheKey(job));
    }
    if (ref) return;
    if (hasTrackingFinalizer(pod)) this.#orphans.add(cacheKey(pod));
    // An orphan whose labels changed may now match a Job: only worth a look while there are Jobs.
    if (this.#jobs.cache.size > 0 && (refChanged || !sameLabels(old, pod))) this.#enqueueMatching(pod);
  }

  /** `final`: the pod left the store; otherwise it got its deletionTimestamp. */
  #podDeleted(pod: KObject, final: boolean): void {
    const ref = controllerOf(pod);
    const finalizer = hasTrackingFinalizer(pod);
    if (ref && !isJobRef(ref)) return;
    const job = ref ? this.#resolve(pod.metadata.namespace, ref) : undefined;
    if (!job || jobFinished(job)) {
      if (finalizer) this.#orphans.add(cacheKey(pod));
      return;
    }
    const key = cacheKey(job);
    this.#expectations.observed(key, 'deletes');
    if (final || !finalizer) this.#removals.observed(key, pod.metadata.uid!);
    this.#enqueueBatched(key);
  }

  #jobUpdated(old: KObject, job: KObject): void {
    const key = cacheKey(job);
    // A spec change syncs at once; a status change (often the controller's own) waits with the pod events.
    if (job.metadata.generation === old.metadata.generation) this.#enqueueBatched(key);
    else this.queue.add(key);
    if (jobFinished(job)) this.#cleanUpFinalizers(job);
  }

  #jobDeleted(job: KObject): void {
    this.queue.add(cacheKey(job));
    this.#cleanUpFinalizers(job);
  }

  /** Pods of a finished or deleted Job still holding the finalizer lose it (cleanupPodFinalizers). */
  #cleanUpFinalizers(job: KObject): void {
    for (const pod of this.#pods.cache.inNamespace(job.metadata.namespace ?? ''))
      if (controllerOf(pod)?.uid === job.metadata.uid && hasTrackingFinalizer(pod)) this.#orphans.add(cacheKey(pod));
  }

  // ---- Sync ---------------------------------------------------------------------------------------

  protected async sync(key: string): Promise<void> {
    this.#batched.delete(key);
    const [namespace, name] = key.split('/') as [string, string];
    const job = this.#jobs.cache.get(namespace, name);
    if (!job) return this.#retire(key);
    const managedBy = jobSpec(job).managedBy;
    if (managedBy !== undefined && managedBy !== JOB_CONTROLLER_NAME) return;
    if (jobFinished(job)) return this.#retire(key);
    const mode = jobSpec(job).completionMode;
    if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed')
      return this.event(job, 'Warning', 'UnknownCompletionMode', 'Skipped Job sync because completion mode is unknown');
    const link = this.#link(key, job);
    const satisfied = this.#expectations.satisfied(key);
    const pods = await this.#claim(job);
    const writes = new JobWrites(job, { client: this.client, key, expectations: this.#expectations, removals: this.#removals, event: (obj, type, reason, message) => this.event(obj, type, reason, message) });
    try {
      await syncJob({ job, pods, nowMs: this.clock.now(), satisfied, expectedRemovals: this.#removals.expected(key) }, link, writes);
    } catch (e) {
      // The Job changed since the cache saw it: its update event brings it back with what is left to count.
      if (!(isAlreadyExists(e) || isConflict(e))) throw e;
    }
  }

  /** The machine of the Job: kept while the same Job lives; started from what its status says otherwise. */
  #link(key: string, job: Job): JobMachineLink {
    let entry = this.#machines.get(key);
    if (entry && entry.uid !== job.metadata.uid) {
      this.#retire(key);
      entry = undefined;
    }
    if (!entry) {
      const input = { nowMs: this.clock.now(), startMs: timestampMs(job.status?.startTime), finish: interimOf(job) };
      const actor = this.system.host(this.#machine, { id: actorIds.job(job.metadata.namespace!, job.metadata.name!), input });
      entry = { uid: job.metadata.uid!, actor };
      this.#machines.set(key, entry);
      this.#keyOfActor.set(actor.id, key);
      actor.start();
    }
    const actor = entry.actor;
    return {
      send: (e) => void (actor.getSnapshot().status === 'active' && actor.send(e)),
      phase: () => jobPhase(actor.getSnapshot().value),
      context: () => actor.getSnapshot().context,
    };
  }

  /** The Job is gone or finished: its machine and what was awaited for it go. */
  #retire(key: string): void {
    const entry = this.#machines.get(key);
    if (entry) {
      entry.actor.stop();
      this.#keyOfActor.delete(entry.actor.id);
      this.#machines.delete(key);
    }
    this.#expectations.forget(key);
    this.#removals.forget(key);
  }

  /** The Job's pods: those it controls, and orphans its selector matches, adopted with the tracking finalizer (ClaimPods). */
  async #claim(job: KObject): Promise<KObject[]> {
    const selector = compileLabelSelector(jobSpec(job).selector as LabelSelector | undefined);
    const owned: KObject[] = [];
    for (const pod of this.#pods.cache.inNamespace(job.metadata.namespace ?? '')) {
      const ref = controllerOf(pod);
      if (ref) {
        if (ref.uid === job.metadata.uid) owned.push(pod);
        continue;
      }
      if (job.metadata.deletionTimestamp || pod.metadata.deletionTimestamp || !selector.matches(pod.metadata.labels ?? {})) continue;
      const finalizers = hasTrackingFinalizer(pod) ? pod.metadata.finalizers : [...(pod.metadata.finalizers ?? []), JOB_TRACKING_FINALIZER];
      const patch = { metadata: { resourceVersion: pod.metadata.resourceVersion, ownerReferences: [...(pod.metadata.ownerReferences ?? []), jobRef(job)], finalizers } };
      try {
        owned.push(await this.client.patch(PODS, pod.metadata.namespace, pod.metadata.name!, patch, 'merge'));
      } catch (e) {
        if (!(isNotFound(e) || isConflict(e))) throw e;
      }
    }
    return owned;
  }

  /** Takes the tracking finalizer off a pod no unfinished Job of ours controls (syncOrphanPod). */
  async #syncOrphan(key: string): Promise<void> {
    const pod = this.#pods.cache.byKey(key);
    if (!pod || !hasTrackingFinalizer(pod)) return;
    const ref = controllerOf(pod);
    if (ref) {
      if (!isJobRef(ref)) return;
      const job = this.#resolve(pod.metadata.namespace, ref);
      if (job && !jobFinished(job)) return; // adopted meanwhile
    }
    try {
      await this.client.patch(PODS, pod.metadata.namespace, pod.metadata.name!, REMOVE_FINALIZER, 'strategic');
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
