// How many replicas a Resource metric asks for, as the real replica calculator (kubernetes
// pkg/controller/podautoscaler/replica_calculator.go and metrics/utilization.go, 1.32) works it
// out from the target's pods and their PodMetrics:
//
// - Pods being deleted or Failed are ignored; Pending pods are unready; pods without a sample are
//   missing. For CPU, a pod without a Ready condition or start time is unready, and so is one within
//   --horizontal-pod-autoscaler-cpu-initialization-period of its start that is not Ready or whose
//   sample's window began before it became Ready, or, after that period, one not Ready that has
//   never been Ready (its condition last changed within --horizontal-pod-autoscaler-initial-readiness-delay of its start).
// - Utilization is the integer percentage of the ready pods' summed use over their summed requests;
//   the usage ratio is that over the target. Within the tolerance of 1.0 nothing changes.
// - With unready pods on a scale-up, or missing pods, the ratio is worked again with unready pods at
//   0, missing pods at 0 on a scale-up and at their request (or the target, above 100%) on a scale-down,
//   and nothing changes if that flips the direction or falls within the tolerance.
// Errors carry the real messages; the caller wraps them as the real controller does.
import type { Pod } from '../../api/model/core.ts';
import { milliValue, toQuantity } from '../../api/quantity.ts';

/** One pod's sample: its use in milli-units, when it was taken and over what window. */
export interface PodSample {
  valueMilli: number;
  timestampMs: number;
  windowMs: number;
}

/** The rules' settings (--horizontal-pod-autoscaler-tolerance, -cpu-initialization-period, -initial-readiness-delay). */
export interface ReplicaRules {
  tolerance: number;
  cpuInitializationPeriodMs: number;
  initialReadinessDelayMs: number;
}

/** What one metric proposes: a replica count and the use it saw (utilization in percent where there is a target percentage). */
export interface Proposal {
  replicas: number;
  utilization?: number;
  /** The average use per pod in milli-units. */
  rawMilli: number;
}

const timeMs = (t: string | undefined): number | undefined => {
  if (!t) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
};

interface Groups {
  ready: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

/** Whether a CPU sample of `pod` is left out because the pod is, or only just became, ready (groupPods). */
function cpuUnready(pod: Pod, sample: PodSample, rules: ReplicaRules, nowMs: number): boolean {
  const condition = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const startMs = timeMs(pod.status?.startTime);
  if (!condition || startMs === undefined) return true;
  const transitionMs = timeMs(condition.lastTransitionTime) ?? 0;
  if (startMs + rules.cpuInitializationPeriodMs > nowMs)
    return condition.status === 'False' || sample.timestampMs < transitionMs + sample.windowMs;
  return condition.status === 'False' && startMs + rules.initialReadinessDelayMs > transitionMs;
}

export function groupPods(pods: readonly Pod[], samples: ReadonlyMap<string, PodSample>, resource: string, rules: ReplicaRules, nowMs: number): Groups {
  const groups: Groups = { ready: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = pod.metadata.name!;
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') groups.ignored.add(name);
    else if (pod.status?.phase === 'Pending') groups.unready.add(name);
    else {
      const sample = samples.get(name);
      if (!sample) groups.missing.add(name);
      else if (resource === 'cpu' && cpuUnready(pod, sample, rules, nowMs)) groups.unready.add(name);
      else groups.ready++;
    }
  }
  return groups;
}

/**
 * Each pod's request of `resource` in milli-units: its containers' and restartable init containers'
 * summed, or only those named `container` (a ContainerResource metric; a pod without it requests 0)
 * (calculatePodRequests).
 */
export function podRequests(pods: readonly Pod[], resource: string, container = ''): Map<string, number> {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
    let sum = 0;
    for (const c of containers) {
      if (container !== '' && c.name !== container) continue;
      const request = c.resources?.requests?.[resource];
      if (request === undefined) throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name}`);
      sum += Number(milliValue(toQuantity(request)));
    }
    requests.set(pod.metadata.name!, sum);
  }
  return requests;
}

/** The ratio of utilization to the target, the utilization (integer percent) and the average use (GetResourceUtilizationRatio). */
export function utilizationRatio(samples: ReadonlyMap<string, number>, requests: ReadonlyMap<string, number>, target: number) {
  let used = 0, requested = 0, entries = 0;
  for (const [pod, value] of samples) {
    const request = requests.get(pod);
    if (request === undefined) continue;
    used += value;
    requested += request;
    entries++;
  }
  if (requested === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((used * 100) / requested);
  return { ratio: utilization / target, utilization, rawMilli: Math.trunc(used / entries) };
}

/** The ratio of the average use to the target and that average (GetMetricUsageRatio). */
function usageRatio(samples: ReadonlyMap<string, number>, targetMilli: number) {
  let total = 0;
  for (const v of samples.values()) total += v;
  const average = Math.trunc(total / samples.size);
  return { ratio: average / targetMilli, average };
}

const within = (ratio: number, tolerance: number) => Math.abs(1 - ratio) <= tolerance;

/** The samples of the pods that count, by name. */
function counted(pods: readonly Pod[], samples: ReadonlyMap<string, PodSample>, resource: string, rules: ReplicaRules, nowMs: number) {
  if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const groups = groupPods(pods, samples, resource, rules, nowMs);
  const values = new Map<string, number>();
  for (const [name, s] of samples) if (!groups.ignored.has(name) && !groups.unready.has(name)) values.set(name, s.valueMilli);
  if (values.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  return { groups, values };
}

/**
 * The count from the first ratio, or from a second pass with unready and missing pods filled in
 * as the direction asks; `fill(missing pod)` is what a missing pod counts on a scale-down.
 */
function rebalanced(current: number, ratio: number, groups: Groups, values: Map<string, number>, fill: (pod: string) => number,
  again: (values: Map<string, number>) => number, tolerance: number): number {
  const upWithUnready = groups.unready.size > 0 && ratio > 1;
  if (!upWithUnready && groups.missing.size === 0) return within(ratio, tolerance) ? current : Math.ceil(ratio * groups.ready);
  if (ratio < 1) for (const pod of groups.missing) values.set(pod, fill(pod));
  else if (ratio > 1) for (const pod of groups.missing) values.set(pod, 0);
  if (upWithUnready) for (const pod of groups.unready) values.set(pod, 0);
  const next = again(values);
  if (within(next, tolerance) || (ratio < 1 && next > 1) || (ratio > 1 && next < 1)) return current;
  const replicas = Math.ceil(next * values.size);
  if ((next < 1 && replicas > current) || (next > 1 && replicas < current)) return current;
  return replicas;
}

/**
 * A Utilization target: the replicas for `targetUtilization` percent of the pods' requests, or of
 * the requests of their containers named `container` (GetResourceReplicas).
 */
export function resourceReplicas(current: number, targetUtilization: number, resource: string, pods: readonly Pod[],
  samples: ReadonlyMap<string, PodSample>, rules: ReplicaRules, nowMs: number, container = ''): Proposal {
  const { groups, values } = counted(pods, samples, resource, rules, nowMs);
  const requests = podRequests(pods, resource, container);
  const { ratio, utilization, rawMilli } = utilizationRatio(values, requests, targetUtilization);
  const fallback = Math.max(100, targetUtilization);
  const replicas = rebalanced(current, ratio, groups, values, (pod) => Math.trunc((requests.get(pod)! * fallback) / 100),
    (v) => utilizationRatio(v, requests, targetUtilization).ratio, rules.tolerance);
  return { replicas, utilization, rawMilli };
}

/** An AverageValue target: the replicas for `targetMilli` per pod (GetRawResourceReplicas, calcPlainMetricReplicas). */
export function averageValueReplicas(current: number, targetMilli: number, resource: string, pods: readonly Pod[],
  samples: ReadonlyMap<string, PodSample>, rules: ReplicaRules, nowMs: number): Proposal {
  const { groups, values } = counted(pods, samples, resource, rules, nowMs);
  const { ratio, average } = usageRatio(values, targetMilli);
  const replicas = rebalanced(current, ratio, groups, values, () => targetMilli, (v) => usageRatio(v, targetMilli).ratio, rules.tolerance);
  return { replicas, rawMilli: average };
}
