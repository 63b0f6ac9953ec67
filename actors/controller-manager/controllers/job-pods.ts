// What the Job controller reads off a Job's pods, and the pods it makes (kubernetes
// pkg/controller/job: getFinishedTime, isPodFailed, pastBackoffLimitOnFailure, the pod template
// with its tracking finalizer and, for Indexed Jobs, its completion index).
import { COMPLETION_INDEX, JOB_TRACKING_FINALIZER, jobSpec } from '../../api/batch.ts';
import { isReady } from '../../api/fields.ts';
import type { KObject, OwnerReference } from '../../api/types.ts';
import type { Pod } from '../../api/model/core.ts';

type Rec = Record<string, unknown>;
const phaseOf = (pod: Pod) => pod.status?.phase;

/** Epoch milliseconds of a timestamp, or undefined when it is missing or does not parse. */
export function timestampMs(value: unknown): number | undefined {
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/** Pending or Running and not being deleted (controller.FilterActivePods). */
export const isActivePod = (pod: KObject) => !pod.metadata.deletionTimestamp && phaseOf(pod) !== 'Succeeded' && phaseOf(pod) !== 'Failed';
export const isSucceeded = (pod: KObject) => phaseOf(pod) === 'Succeeded';
/** Being deleted and not finished (controller.CountTerminatingPods). */
export const isTerminating = (pod: KObject) => !!pod.metadata.deletionTimestamp && phaseOf(pod) !== 'Succeeded' && phaseOf(pod) !== 'Failed';
export const isReadyPod = (pod: KObject) => isReady(pod);
export const hasTrackingFinalizer = (pod: KObject) => pod.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER) === true;

/** Whether the Job replaces a pod only once it failed (podReplacementPolicy Failed, or a pod failure policy). */
export function onlyReplacesFailed(job: KObject): boolean {
  const spec = jobSpec(job);
  return spec.podReplacementPolicy === 'Failed' || spec.podFailurePolicy !== undefined;
}

/** Failed, or (unless the Job waits for failures) deleted before it succeeded (isPodFailed). */
export function isPodFailed(pod: KObject, job: KObject): boolean {
  if (phaseOf(pod) === 'Failed') return true;
  if (onlyReplacesFailed(job)) return false;
  return !!pod.metadata.deletionTimestamp && phaseOf(pod) !== 'Succeeded';
}

/** The pod's completion index, or -1 when it has none that parses. */
export function completionIndex(pod: KObject): number {
  const v = pod.metadata.annotations?.[COMPLETION_INDEX];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : -1;
}

/**
 * When the pod finished: its containers' last finishedAt, else when its Ready condition turned
 * False, else its deletion time less its grace period, else its creation (getFinishedTime).
 */
export function finishedMs(pod: KObject): number {
  const status = (pod.status ?? {}) as Rec;
  const containers = (status.containerStatuses ?? []) as { state?: { terminated?: { finishedAt?: string } } }[];
  let latest: number | undefined;
  for (const c of containers) {
    const at = timestampMs(c.state?.terminated?.finishedAt);
    if (at === undefined) {
      latest = undefined;
      break;
    }
    latest = latest === undefined ? at : Math.max(latest, at);
  }
  if (latest !== undefined) return latest;
  const ready = ((status.conditions ?? []) as { type: string; status: string; lastTransitionTime?: string }[]).find((c) => c.type === 'Ready');
  const readyFalse = ready?.status === 'False' ? timestampMs(ready.lastTransitionTime) : undefined;
  if (readyFalse !== undefined) return readyFalse;
  const deleted = timestampMs(pod.metadata.deletionTimestamp);
  if (deleted !== undefined) return deleted - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return timestampMs(pod.metadata.creationTimestamp) ?? 0;
}

/** The restarts of the running and pending pods of a restartPolicy OnFailure Job reached backoffLimit (pastBackoffLimitOnFailure). */
export function restartsExceeded(job: KObject, pods: readonly KObject[]): boolean {
  const spec = jobSpec(job);
  if (spec.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const pod of pods) {
    const phase = phaseOf(pod);
    if (phase !== 'Running' && phase !== 'Pending') continue;
    const status = (pod.status ?? {}) as { initContainerStatuses?: { restartCount?: number }[]; containerStatuses?: { restartCount?: number }[] };
    for (const c of [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])]) restarts += c.restartCount ?? 0;
  }
  const limit = spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** The reference a Job's pods carry to it. */
export const jobRef = (job: KObject): OwnerReference =>
  ({ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name!, uid: job.metadata.uid!, controller: true, blockOwnerDeletion: true });

/** Longest generateName kept whole (names.MaxGeneratedNameLength). */
const MAX_GENERATED_NAME_LENGTH = 58;

/**
 * A new pod of the Job, from its template, with the tracking finalizer; for an Indexed Job, the
 * index as annotation and label, its hostname `<job>-<index>`, its name `<job>-<index>-xxxxx` and
 * the JOB_COMPLETION_INDEX variable in every container.
 */
export function jobPod(job: KObject, index: number): KObject {
  const template = jobSpec(job).template ?? {};
  const meta = template.metadata ?? {};
  const spec = { ...(template.spec ?? {}) } as Rec;
  const labels = { ...meta.labels };
  const annotations = { ...meta.annotations };
  const name = job.metadata.name!;
  let generateName = `${name}-`;
  if (index >= 0) {
    annotations[COMPLETION_INDEX] = String(index);
    labels[COMPLETION_INDEX] = String(index);
    spec.hostname = `${name}-${index}`;
    const suffix = `-${index}-`;
    generateName = `${name}${suffix}`.length > MAX_GENERATED_NAME_LENGTH ? `${name.slice(0, MAX_GENERATED_NAME_LENGTH - suffix.length)}${suffix}` : `${name}${suffix}`;
    const env = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${COMPLETION_INDEX}']` } } };
    const withIndex = (cs: unknown) => (Array.isArray(cs) ? cs.map((c: Rec) => ({ ...c, env: [...((c.env as unknown[]) ?? []).filter((e) => (e as Rec).name !== 'JOB_COMPLETION_INDEX'), env] })) : cs);
    spec.containers = withIndex(spec.containers);
    if (spec.initContainers !== undefined) spec.initContainers = withIndex(spec.initContainers);
  }
  const finalizers = [...(meta.finalizers ?? [])];
  if (!finalizers.includes(JOB_TRACKING_FINALIZER)) finalizers.push(JOB_TRACKING_FINALIZER);
  return {
    metadata: { generateName, namespace: job.metadata.namespace, labels, ...(Object.keys(annotations).length ? { annotations } : {}), finalizers, ownerReferences: [jobRef(job)] },
    spec,
  } as KObject;
}
