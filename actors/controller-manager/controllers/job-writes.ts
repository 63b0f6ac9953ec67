// What one sync of a Job writes: pods created and deleted (manageJob, with the real slow start),
// tracking finalizers removed, the status stored through the status subresource, and the Events
// the real controller records. Creations and deletions are announced to the expectations first,
// finalizer removals to the removal expectations, so the next sync waits for the cache to see them.
import { JOB_TRACKING_FINALIZER, jobSpec, type JobStatus } from '../../api/batch.ts';
import { isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { ApiClient } from '../../client/client.ts';
import type { Finish, JobPhase } from '../../../machines/job.ts';
import type { Expectations } from '../expectations.ts';
import { completionIndex, hasTrackingFinalizer, isReadyPod, jobPod, onlyReplacesFailed } from './job-pods.ts';
import { deletionOrder } from './replicaset.ts';
import { JOBS } from '../../api/model/batch.ts';
import { PODS } from '../../api/model/core.ts';

/** The most pods one sync creates or deletes (MaxPodCreateDeletePerSync). */
const MAX_PER_SYNC = 500;

export type EventType = 'Normal' | 'Warning';

/** The pods whose tracking finalizer removal was sent, per Job, until the informer sees it gone (uidTrackingExpectations). */
export class FinalizerRemovals {
  readonly #byKey = new Map<string, Set<string>>();

  expect(key: string, uids: readonly string[]): void {
    let set = this.#byKey.get(key);
    if (!set) this.#byKey.set(key, (set = new Set()));
    for (const uid of uids) set.add(uid);
  }

  observed(key: string, uid: string): void {
    this.#byKey.get(key)?.delete(uid);
  }

  expected(key: string): ReadonlySet<string> {
    return this.#byKey.get(key) ?? new Set();
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }
}

export interface JobWritesDeps {
  client: ApiClient;
  key: string;
  expectations: Expectations;
  removals: FinalizerRemovals;
  event(obj: KObject, type: EventType, reason: string, message: string): void;
}

/** What manage did: pods deleted (ready ones among them), pods created, and the first error. */
export interface Managed {
  removed: number;
  removedReady: number;
  created: number;
  error?: unknown;
}

const NOTHING: Managed = { removed: 0, removedReady: 0, created: 0 };
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** Strategic merge patch taking the tracking finalizer off a pod (removeTrackingFinalizerPatch). */
export const REMOVE_FINALIZER = { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [JOB_TRACKING_FINALIZER] } };

export type JobWriter = Pick<JobWrites, 'manage' | 'deleteActive' | 'writeStatus' | 'removeFinalizers' | 'event' | 'finished'>;

export class JobWrites {
  /** The Job as last written: later writes carry its resourceVersion. */
  #job: KObject;

  constructor(job: KObject, readonly deps: JobWritesDeps) {
    this.#job = job;
  }

  /**
   * Keeps the Job's pods at what it wants (manageJob): none while suspended; else `parallelism`,
   * no more than the completions left; surplus pods deleted first (an Indexed Job's duplicate and
   * out-of-range indexes before the rest), missing ones created unless pod failures back off.
   */
  async manage(active: readonly KObject[], phase: JobPhase, o: { succeeded: number; terminating: number; pending(n: number): number[] }): Promise<Managed> {
    const job = this.#job, spec = jobSpec(job), { key, expectations } = this.deps;
    if (phase === 'Suspended') {
      const victims = podsForRemoval(job, active, active.length);
      expectations.expect(key, 0, victims.length);
      return this.#deletePods(victims);
    }
    const parallelism = spec.parallelism ?? 1;
    const want = spec.completions === undefined ? (o.succeeded > 0 ? active.length : parallelism) : Math.max(0, Math.min(spec.completions - o.succeeded, parallelism));
    const victims = podsForRemoval(job, active, Math.max(0, active.length - want)).slice(0, MAX_PER_SYNC);
    if (victims.length > 0) {
      expectations.expect(key, 0, victims.length);
      return this.#deletePods(victims);
    }
    let diff = Math.min(MAX_PER_SYNC, want - (onlyReplacesFailed(job) ? o.terminating : 0) - active.length);
    if (diff <= 0 || phase === 'BackingOff') return NOTHING;
    const indexes = spec.completionMode === 'Indexed' ? o.pending(diff) : undefined;
    if (indexes) diff = indexes.length;
    expectations.expect(key, diff, 0);
    return { ...NOTHING, ...(await this.#create(diff, indexes)) };
  }

  /** Creates in batches of 1, 2, 4, ...; a failure skips the batches after it. */
  async #create(count: number, indexes: number[] | undefined): Promise<{ created: number; error?: unknown }> {
    const { client, key, expectations } = this.deps;
    let created = 0, left = count;
    for (let batch = Math.min(left, 1); left > 0; batch = Math.min(2 * batch, left)) {
      const chunk = Array.from({ length: batch }, () => indexes?.shift() ?? -1);
      const results = await Promise.allSettled(chunk.map((ix) => client.create(PODS, jobPod(this.#job, ix))));
      left -= batch;
      let error: unknown;
      for (const r of results) {
        if (r.status === 'fulfilled') {
          created++;
          this.event('Normal', 'SuccessfulCreate', `Created pod: ${r.value.metadata.name}`);
        } else {
          expectations.observed(key, 'adds');
          this.event('Warning', 'FailedCreate', `Error creating: ${message(r.reason)}`);
          error ??= r.reason;
        }
      }
      if (error !== undefined) {
        expectations.observed(key, 'adds', left);
        return { created, error };
      }
    }
    return { created };
  }

  /** Deletes pods the Job no longer wants: their finalizer off first, so they are not counted (deleteJobPods). */
  async #deletePods(pods: readonly KObject[]): Promise<Managed> {
    const { client, key, expectations } = this.deps;
    const results = await Promise.allSettled(pods.map(async (pod) => {
      if (hasTrackingFinalizer(pod)) await client.patch(PODS, pod.metadata.namespace, pod.metadata.name!, REMOVE_FINALIZER, 'strategic');
      await client.delete(PODS, pod.metadata.namespace, pod.metadata.name!);
    }));
    return this.#tally(pods, results, () => expectations.observed(key, 'deletes'));
  }

  /** Deletes every active pod of a finishing Job, finalizers kept until they are counted (deleteActivePods). */
  async deleteActive(pods: readonly KObject[]): Promise<Managed> {
    const results = await Promise.allSettled(pods.map((pod) => this.deps.client.delete(PODS, pod.metadata.namespace, pod.metadata.name!)));
    return this.#tally(pods, results, () => {});
  }

  #tally(pods: readonly KObject[], results: PromiseSettledResult<unknown>[], failed: () => void): Managed {
    const out: Managed = { ...NOTHING };
    results.forEach((r, i) => {
      const pod = pods[i]!;
      if (r.status === 'rejected') {
        failed();
        if (!isNotFound(r.reason)) {
          out.error ??= r.reason;
          this.event('Warning', 'FailedDelete', `Error deleting: ${message(r.reason)}`);
          return;
        }
      } else this.event('Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      out.removed++;
      if (isReadyPod(pod)) out.removedReady++;
    });
    return out;
  }

  /** Takes the tracking finalizer off each pod; a pod already gone counts as done. */
  async removeFinalizers(pods: readonly KObject[]): Promise<{ removed: string[]; error?: unknown }> {
    const { client, key, removals } = this.deps;
    removals.expect(key, pods.map((p) => p.metadata.uid!));
    const results = await Promise.allSettled(pods.map((p) => client.patch(PODS, p.metadata.namespace, p.metadata.name!, REMOVE_FINALIZER, 'strategic')));
    const out: { removed: string[]; error?: unknown } = { removed: [] };
    results.forEach((r, i) => {
      const uid = pods[i]!.metadata.uid!;
      if (r.status === 'rejected') {
        removals.observed(key, uid);
        if (!isNotFound(r.reason)) return void (out.error ??= r.reason);
      }
      out.removed.push(uid);
    });
    return out;
  }

  async writeStatus(status: JobStatus): Promise<void> {
    this.#job = await this.deps.client.update(JOBS, { ...this.#job, status }, 'status');
  }

  event(type: EventType, reason: string, message: string): void {
    this.deps.event(this.#job, type, reason, message);
  }

  /** The Events of a Job that just finished (recordJobFinished). */
  finished(status: JobStatus, finish: Finish): void {
    if (!finish.succeeded) return this.event('Warning', finish.reason, finish.message);
    const completions = jobSpec(this.#job).completions;
    if (completions !== undefined && (status.succeeded ?? 0) > completions) this.event('Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
    this.event('Normal', 'Completed', 'Job completed');
  }
}

/**
 * The pods to delete first: of an Indexed Job, those without a valid index and all but one of each
 * index's duplicates; then, as many as asked, in the ReplicaSet deletion order (activePodsForRemoval).
 */
function podsForRemoval(job: KObject, pods: readonly KObject[], atLeast: number): KObject[] {
  const spec = jobSpec(job);
  const rm: KObject[] = [];
  let left: KObject[] = [...pods];
  if (spec.completionMode === 'Indexed') {
    left = [];
    const byIndex = new Map<number, KObject[]>();
    for (const p of pods) {
      const ix = completionIndex(p);
      if (ix < 0 || ix >= (spec.completions ?? 0)) rm.push(p);
      else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
    }
    for (const ix of [...byIndex.keys()].sort((a, b) => a - b)) {
      const same = byIndex.get(ix)!.sort(deletionOrder);
      rm.push(...same.slice(0, -1));
      left.push(same.at(-1)!);
    }
  }
  if (rm.length < atLeast) rm.push(...left.sort(deletionOrder).slice(0, atLeast - rm.length));
  return rm;
}
