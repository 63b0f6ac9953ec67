// One sync of one Job (syncJob in kubernetes pkg/controller/job/job_controller.go), given its pods
// from the cache. It tells the Job's machine what it observed (machines/job.ts), then does what the
// machine's state asks: in Active it keeps `parallelism` pods (fewer as completions near) and
// creates none while pod failures back off; Suspended, it deletes the active pods; finishing, it
// deletes them too and writes the interim condition. Finished pods are counted the way 1.32
// tracks them: each pod's uid goes into status.uncountedTerminatedPods, the pod's
// batch.kubernetes.io/job-tracking finalizer is removed, and only then is it moved into the
// succeeded or failed count, so a pod is counted once whatever fails in between. The terminal
// condition comes when the machine, told what is left uncounted and terminating, says so.
import { jobSpec, jobStatus, trueCondition, type JobCondition, type JobConditionType, type JobStatus } from '../../api/batch.ts';
import { timestamp } from '../../api/env.ts';
import type { KObject } from '../../api/types.ts';
import type { Finish, JobEvent, JobPhase } from '../../../machines/job.ts';
import { firstPendingIndexes, formatIndexes, parseIndexes } from './job-indexes.ts';
import { completionIndex, finishedMs, hasTrackingFinalizer, isActivePod, isPodFailed, isReadyPod, isSucceeded, isTerminating, restartsExceeded } from './job-pods.ts';
import type { JobWriter } from './job-writes.ts';

/** At most this many pods are counted per status write, keeping the uid lists under about 20 KB (MaxUncountedPods). */
const MAX_UNCOUNTED = 500;

/** The Job's machine as a sync needs it. */
export interface JobMachineLink {
  send(event: JobEvent): void;
  phase(): JobPhase;
  context(): { startMs: number | undefined; finish: Finish | undefined; finishedMs: number | undefined };
}

export interface SyncInput {
  job: KObject;
  pods: readonly KObject[];
  nowMs: number;
  /** The creations and deletions it waited for have been seen. */
  satisfied: boolean;
  /** Pods whose finalizer removal was sent and not yet seen. */
  expectedRemovals: ReadonlySet<string>;
}

const uidOf = (p: KObject) => p.metadata.uid!;

/** A Job's status as it will be written, in the order Go writes its fields; zero counters left out as omitempty does. */
function statusOf(s: WorkingStatus): JobStatus {
  const u = s.uncountedTerminatedPods;
  return {
    ...(s.conditions?.length ? { conditions: s.conditions } : {}), ...(s.startTime ? { startTime: s.startTime } : {}),
    ...(s.completionTime ? { completionTime: s.completionTime } : {}), ...(s.active ? { active: s.active } : {}),
    ...(s.succeeded ? { succeeded: s.succeeded } : {}), ...(s.failed ? { failed: s.failed } : {}), terminating: s.terminating ?? 0,
    ...(s.completedIndexes ? { completedIndexes: s.completedIndexes } : {}),
    uncountedTerminatedPods: { ...(u.succeeded.length ? { succeeded: u.succeeded } : {}), ...(u.failed.length ? { failed: u.failed } : {}) },
    ready: s.ready ?? 0,
  };
}

type WorkingStatus = JobStatus & { conditions: JobCondition[]; uncountedTerminatedPods: { succeeded: string[]; failed: string[] } };

/** Sets the condition of `type` (a new one only when True), keeping an unchanged one as it is (ensureJobConditionStatus). */
export function ensureCondition(conditions: JobCondition[], type: JobConditionType, status: 'True' | 'False', reason: string, message: string, nowMs: number): boolean {
  const fresh: JobCondition = { type, status, lastProbeTime: timestamp(nowMs), lastTransitionTime: timestamp(nowMs), ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
  const i = conditions.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = conditions[i]!;
    if (c.status === status && (c.reason ?? '') === reason && (c.message ?? '') === message) return false;
    conditions[i] = fresh;
    return true;
  }
  if (status === 'False') return false;
  conditions.push(fresh);
  return true;
}

export async function syncJob(input: SyncInput, machine: JobMachineLink, w: JobWriter): Promise<void> {
  const { job, pods, nowMs } = input;
  const spec = jobSpec(job);
  const indexed = spec.completionMode === 'Indexed';
  const completions = spec.completions ?? 0;
  const old = jobStatus(job);
  const status = { ...old, conditions: [...(old.conditions ?? [])],
    uncountedTerminatedPods: { succeeded: [...(old.uncountedTerminatedPods?.succeeded ?? [])], failed: [...(old.uncountedTerminatedPods?.failed ?? [])] } };
  const uncounted = { succeeded: new Set(status.uncountedTerminatedPods.succeeded), failed: new Set(status.uncountedTerminatedPods.failed) };
  const validIndex = (p: KObject) => !indexed || (completionIndex(p) >= 0 && completionIndex(p) < completions);
  const tracked = (p: KObject) => hasTrackingFinalizer(p) && !input.expectedRemovals.has(uidOf(p));
  const newSucceeded = pods.filter((p) => tracked(p) && validIndex(p) && !uncounted.succeeded.has(uidOf(p)) && isSucceeded(p));
  const newFailed = pods.filter((p) => tracked(p) && validIndex(p) && !uncounted.failed.has(uidOf(p)) && isPodFailed(p, job));
  const prevIndexes = indexed ? parseIndexes(old.completedIndexes, completions) : [];
  const succeededIndexes = indexed ? [...new Set([...prevIndexes, ...pods.filter((p) => isSucceeded(p) && hasTrackingFinalizer(p) && validIndex(p)).map(completionIndex)])].sort((a, b) => a - b) : [];
  const succeeded = indexed ? succeededIndexes.length : (old.succeeded ?? 0) + newSucceeded.length + uncounted.succeeded.size;
  const failed = (old.failed ?? 0) + newFailed.length + uncounted.failed.size;
  machine.send({ type: 'OBSERVED', nowMs, suspended: spec.suspend === true, activeDeadlineSeconds: spec.activeDeadlineSeconds, backoffLimit: spec.backoffLimit ?? 6,
    failed, restartsExceeded: restartsExceeded(job, pods), newSucceededMs: newSucceeded.map(finishedMs), newFailedMs: newFailed.map(finishedMs) });

  if (machine.phase() === 'Complete' || machine.phase() === 'Failed') return endAgain(status, machine, w);
  const active = pods.filter(isActivePod);
  const counts = { active: active.length, ready: active.filter(isReadyPod).length, terminating: pods.filter(isTerminating).length };
  let declared = false;
  /** A failed pod write: the sync goes on to store what it counted, then fails (and is tried again). */
  let podError: unknown;
  let phase = machine.phase();
  if (phase === 'Succeeding' || phase === 'Failing') {
    // Finishing: every active pod goes (their finalizers stay until they are counted).
    const deleted = await w.deleteActive(active);
    declared = deleted.removed === active.length && input.satisfied;
    moveToTerminating(counts, deleted);
    podError = deleted.error;
  } else {
    let managed = false;
    if (input.satisfied && !job.metadata.deletionTimestamp) {
      const taken = new Set([...succeededIndexes, ...active.map(completionIndex)]);
      const m = await w.manage(active, phase, { succeeded, terminating: counts.terminating, pending: (n) => firstPendingIndexes(n, completions, taken) });
      moveToTerminating(counts, m);
      counts.active += m.created;
      podError = m.error;
      managed = true;
    }
    machine.send({ type: 'MANAGED', active: counts.active, succeeded, completions: spec.completions });
    phase = machine.phase();
    declared = phase === 'Succeeding';
    if (managed && !declared && noteSuspension(status.conditions, phase === 'Suspended', nowMs)) w.event('Normal', phase === 'Suspended' ? 'Suspended' : 'Resumed', phase === 'Suspended' ? 'Job suspended' : 'Job resumed');
  }
  const startMs = machine.context().startMs;
  const startTime = startMs === undefined ? old.startTime : timestamp(startMs);
  const needsFlush = counts.active !== (old.active ?? 0) || counts.ready !== old.ready || counts.terminating !== old.terminating || startTime !== old.startTime ||
    status.conditions.length !== (old.conditions?.length ?? 0) || status.conditions.some((c, i) => c !== old.conditions?.[i]);
  Object.assign(status, { active: counts.active, ready: counts.ready, terminating: counts.terminating, startTime });
  await track({ ...input, status, uncounted, indexed, completions, prevIndexes, succeededIndexes, declared, needsFlush, terminating: counts.terminating }, machine, w);
  if (podError !== undefined) throw podError;
}

/** The machine ended the Job but its terminal condition was never stored (the write failed): it is written again. */
async function endAgain(status: WorkingStatus, machine: JobMachineLink, w: JobWriter): Promise<void> {
  const phase = machine.phase() as 'Complete' | 'Failed';
  const { finish, finishedMs } = machine.context();
  ensureCondition(status.conditions, phase, 'True', finish!.reason, finish!.message, finishedMs!);
  if (phase === 'Complete') status.completionTime = timestamp(finishedMs!);
  await w.writeStatus(statusOf(status));
  w.finished(status, finish!);
}

/** Deleted active pods now terminate. */
function moveToTerminating(counts: { active: number; ready: number; terminating: number }, deleted: { removed: number; removedReady: number }): void {
  counts.active -= deleted.removed;
  counts.ready -= deleted.removedReady;
  counts.terminating += deleted.removed;
}

/** The Suspended condition as the machine's state says: True while suspended, False (JobResumed) after. Whether it changed. */
function noteSuspension(conditions: JobCondition[], suspended: boolean, nowMs: number): boolean {
  return suspended ? ensureCondition(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', nowMs)
    : ensureCondition(conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', nowMs);
}

interface Tracking extends SyncInput {
  status: WorkingStatus;
  uncounted: { succeeded: Set<string>; failed: Set<string> };
  indexed: boolean;
  completions: number;
  prevIndexes: readonly number[];
  succeededIndexes: readonly number[];
  declared: boolean;
  needsFlush: boolean;
  terminating: number;
}

/**
 * trackJobStatusAndRemoveFinalizers: finished pods into uncountedTerminatedPods, their finalizers
 * off, then into the counters; the interim condition once the Job may declare its end, the
 * terminal one once nothing is left to count or terminate.
 */
async function track(t: Tracking, machine: JobMachineLink, w: JobWriter): Promise<void> {
  const { status, job } = t;
  const u = status.uncountedTerminatedPods;
  const finish = machine.context().finish;
  const withFinalizer = new Set(t.pods.filter((p) => hasTrackingFinalizer(p) && !t.expectedRemovals.has(uidOf(p))).map(uidOf));
  let needsFlush = countRemoved(status, withFinalizer) || t.needsFlush;
  const toRemove: KObject[] = [];
  const newIndexes: number[] = [];
  let reachedMax = false;
  const ordered = t.indexed ? [...t.pods].sort((a, b) => completionIndex(a) - completionIndex(b)) : t.pods;
  for (const pod of ordered) {
    if (!withFinalizer.has(uidOf(pod))) continue;
    const failedPod = isPodFailed(pod, job);
    if (!job.metadata.deletionTimestamp && !t.declared && !isSucceeded(pod) && !failedPod) continue;
    toRemove.push(pod);
    const ix = completionIndex(pod);
    const validIndex = !t.indexed || (ix >= 0 && ix < t.completions);
    if (isSucceeded(pod) && !t.uncounted.failed.has(uidOf(pod))) {
      // An Indexed Job counts its index (completedIndexes); any other counts the pod's uid.
      if (t.indexed && validIndex && !t.prevIndexes.includes(ix) && !newIndexes.includes(ix)) newIndexes.push(ix);
      else if (!t.indexed && !t.uncounted.succeeded.has(uidOf(pod))) u.succeeded.push(uidOf(pod));
      else continue;
      needsFlush = true;
    } else if ((failedPod || (t.declared && finish?.succeeded === false)) && !t.uncounted.failed.has(uidOf(pod)) && validIndex) {
      u.failed.push(uidOf(pod));
      needsFlush = true;
    }
    if (newIndexes.length + u.succeeded.length + u.failed.length >= MAX_UNCOUNTED) {
      reachedMax = true;
      break;
    }
  }
  if (t.indexed) {
    const all = [...new Set([...t.succeededIndexes, ...newIndexes])].sort((a, b) => a - b);
    const text = formatIndexes(all);
    if (text !== (status.completedIndexes ?? '')) needsFlush = true;
    Object.assign(status, { succeeded: all.length, completedIndexes: text });
  }
  if (t.declared && finish && trueCondition({ metadata: {}, status } as KObject, finish.succeeded ? 'SuccessCriteriaMet' : 'FailureTarget') === undefined) {
    status.conditions.push(interim(finish, t.nowMs));
    needsFlush = true;
  }
  if (needsFlush) {
    await w.writeStatus(statusOf(status));
    machine.send({ type: 'SYNCED' });
    needsFlush = false;
  }
  const removal = await w.removeFinalizers(toRemove);
  for (const uid of removal.removed) withFinalizer.delete(uid);
  if (countRemoved(status, withFinalizer)) needsFlush = true;
  if (removal.error) {
    if (needsFlush) await w.writeStatus(statusOf(status));
    throw removal.error;
  }
  if (!reachedMax && t.declared && (await enact(t, machine))) needsFlush = true;
  if (needsFlush) await w.writeStatus(statusOf(status));
  const phase = machine.phase();
  if (phase === 'Complete' || phase === 'Failed') w.finished(status, finish!);
}

/** SuccessCriteriaMet or FailureTarget, before the pods are all counted. */
function interim(finish: Finish, nowMs: number): JobCondition {
  const t = timestamp(nowMs);
  return { type: finish.succeeded ? 'SuccessCriteriaMet' : 'FailureTarget', status: 'True', lastProbeTime: t, lastTransitionTime: t, reason: finish.reason, message: finish.message };
}

/** Once nothing is uncounted or terminating the machine ends the Job: its terminal condition, and when it completed (enactJobFinished). */
async function enact(t: Tracking, machine: JobMachineLink): Promise<boolean> {
  const u = t.status.uncountedTerminatedPods;
  machine.send({ type: 'SETTLED', nowMs: t.nowMs, uncounted: u.succeeded.length + u.failed.length, terminating: t.terminating });
  const phase = machine.phase();
  if (phase !== 'Complete' && phase !== 'Failed') return false;
  const { finish, finishedMs } = machine.context();
  ensureCondition(t.status.conditions, phase, 'True', finish!.reason, finish!.message, finishedMs!);
  if (phase === 'Complete') t.status.completionTime = timestamp(finishedMs!);
  return true;
}

/** Uncounted pods whose finalizer is gone are counted (cleanUncountedPodsWithoutFinalizers). Whether anything moved. */
function countRemoved(status: WorkingStatus, withFinalizer: ReadonlySet<string>): boolean {
  const u = status.uncountedTerminatedPods;
  const keep = (uids: string[]) => uids.filter((uid) => withFinalizer.has(uid));
  const succeeded = keep(u.succeeded), failed = keep(u.failed);
  if (succeeded.length === u.succeeded.length && failed.length === u.failed.length) return false;
  status.succeeded = (status.succeeded ?? 0) + u.succeeded.length - succeeded.length;
  status.failed = (status.failed ?? 0) + u.failed.length - failed.length;
  u.succeeded = succeeded;
  u.failed = failed;
  return true;
}

