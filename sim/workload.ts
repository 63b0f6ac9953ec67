// Workloads: each creates its pods (or a Job workload its Jobs) on the virtual clock as its
// arrival process says (all at once, one every interval, or Poisson arrivals drawn from the
// workload's own seeded stream), through the API like any client would; a ReplicaSet, Deployment
// or CronJob workload is one object at its start (with its autoscaler and disruption budget).
// Creates go out a bounded number at a time so a burst of a hundred thousand pods does not put a
// hundred thousand requests in flight.
import type { Clock, Random } from '../actors/api/env.ts';
import type { ResourceType } from '../actors/api/resources.ts';
import { isAlreadyExists, isConflict } from '../actors/api/status.ts';
import type { KObject } from '../actors/api/types.ts';
import { ApiClient } from '../actors/client/client.ts';
import { FAILURE_PROBABILITY, RUN_DURATION, RUN_DURATION_MAX } from '../actors/nodeagent/pod-run.ts';
import { USAGE_MODEL } from '../actors/nodeagent/usage-model.ts';
import { formatDuration } from '../actors/api/duration.ts';
import { BusTimeoutError, NoRespondersError, type Bus } from '../transport/bus.ts';
import { priorityOfClass, WORKLOAD_LABEL } from './scenario/pods.ts';
import type { Autoscale, Workload } from './scenario/types.ts';
import { DEPLOYMENTS, REPLICASETS } from '../actors/api/model/apps.ts';
import { NAMESPACES, PODS } from '../actors/api/model/core.ts';
import { PRIORITY_CLASSES } from '../actors/api/model/scheduling.ts';
import { HPAS } from '../actors/api/model/autoscaling.ts';
import { CRONJOBS, JOBS } from '../actors/api/model/batch.ts';
import { PDBS } from '../actors/api/model/policy.ts';

/** Creates in flight at once, over all workloads. */
const IN_FLIGHT = 256;
/** How long a create nobody answered waits before it is sent again. */
const RETRY_MS = 1_000;

/** Arrival offsets (ms from the run's start) of a workload's pods that fall before `endMs`. */
export function arrivals(w: Workload, random: Random, endMs: number): number[] {
  const times: number[] = [];
  let t = w.startMs;
  for (let i = 0; i < w.count; i++) {
    if (w.arrival.kind === 'uniform' && i > 0) t += w.arrival.intervalMs;
    else if (w.arrival.kind === 'poisson') t += (-Math.log(1 - random.next()) / w.arrival.ratePerSecond) * 1000;
    const at = Math.round(t);
    if (at >= endMs) break;
    times.push(at);
  }
  return times;
}

/** The pod of workload `w` numbered `i`: its template with a name, the workload label, and batch annotations. */
export function workloadPod(w: Workload, i: number): KObject {
  const t = w.pod;
  const annotations = { ...t.metadata.annotations };
  if (w.usage) annotations[USAGE_MODEL] = JSON.stringify(w.usage);
  if (w.runDurationMs !== undefined) {
    annotations[RUN_DURATION] = formatDuration(w.runDurationMs);
    if (w.runDurationJitterMs) annotations[RUN_DURATION_MAX] = formatDuration(w.runDurationMs + w.runDurationJitterMs);
    if (w.failureProbability > 0) annotations[FAILURE_PROBABILITY] = String(w.failureProbability);
  }
  const { generateName: _g, ...metadata } = t.metadata;
  return {
    ...t, apiVersion: 'v1', kind: 'Pod',
    metadata: { ...metadata, name: `${w.name}-${i}`, namespace: w.namespace, ...(Object.keys(annotations).length ? { annotations } : {}) },
  };
}

/** The pod template of a `controller:` workload: its pod without name and namespace. */
export function workloadTemplate(w: Workload): { metadata: KObject['metadata']; spec: KObject['spec'] } {
  const { metadata, spec } = workloadPod(w, 0);
  const { name: _n, namespace: _ns, ...template } = metadata;
  return { metadata: template, spec };
}

/** The ReplicaSet or Deployment of a `controller:` workload: `count` replicas of its pod, selected by the workload label. */
export function workloadController(w: Workload): KObject {
  const { metadata: template, spec } = workloadTemplate(w);
  return {
    apiVersion: 'apps/v1', kind: w.controller ?? 'ReplicaSet',
    metadata: { name: w.name, namespace: w.namespace, labels: { [WORKLOAD_LABEL]: w.name } },
    spec: { replicas: w.count, selector: { matchLabels: { [WORKLOAD_LABEL]: w.name } }, template: { metadata: template, spec } },
  };
}

/**
 * The autoscaling/v2 HorizontalPodAutoscaler of an `autoscale:` workload: named after it, targeting
 * its Deployment by its metrics (CPU utilization for targetCPUUtilizationPercentage) and behavior.
 */
export function workloadAutoscaler(w: Workload & { autoscale: Autoscale }): KObject {
  const { minReplicas, maxReplicas, targetCPUUtilizationPercentage, metrics, behavior } = w.autoscale;
  return {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler',
    metadata: { name: w.name, namespace: w.namespace, labels: { [WORKLOAD_LABEL]: w.name } },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: w.name }, minReplicas, maxReplicas,
      metrics: metrics ?? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: targetCPUUtilizationPercentage } } }],
      ...(behavior ? { behavior } : {}),
    },
  };
}

/** The Job spec of a Job or CronJob workload: its given fields and its pod, restartPolicy Never unless it says OnFailure. */
function jobSpec(w: Workload): KObject['spec'] {
  const { metadata, spec } = workloadTemplate(w);
  const podSpec = (spec ?? {}) as { restartPolicy?: string };
  return { ...w.job, template: { metadata, spec: { ...podSpec, restartPolicy: podSpec.restartPolicy ?? 'Never' } } };
}

const labelsOf = (w: Workload) => ({ [WORKLOAD_LABEL]: w.name });

/** Job `i` of a Job workload. */
export function workloadJob(w: Workload, i: number): KObject {
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: `${w.name}-${i}`, namespace: w.namespace, labels: labelsOf(w) }, spec: jobSpec(w) };
}

/** The CronJob of a CronJob workload, named after it. */
export function workloadCronJob(w: Workload): KObject {
  return {
    apiVersion: 'batch/v1', kind: 'CronJob',
    metadata: { name: w.name, namespace: w.namespace, labels: labelsOf(w) },
    spec: { ...w.cronJob, jobTemplate: { metadata: { labels: labelsOf(w) }, spec: jobSpec(w) } },
  };
}

/** The PodDisruptionBudget of a workload with `disruptionBudget:`, named after it and selecting its pods. */
export function workloadBudget(w: Workload): KObject {
  return {
    apiVersion: 'policy/v1', kind: 'PodDisruptionBudget',
    metadata: { name: w.name, namespace: w.namespace, labels: labelsOf(w) },
    spec: { ...w.disruptionBudget, selector: { matchLabels: labelsOf(w) } },
  };
}

export interface WorkloadDriver {
  /** Pods (and Jobs) whose create failed (other than already existing), with the first errors. */
  failures: number;
  errors: string[];
  stop(): void;
}

export async function startWorkloads(bus: Bus, clock: Clock, random: Random, workloads: Workload[], t0: number, endMs: number): Promise<WorkloadDriver> {
  const client = new ApiClient(bus, 'orchsim-workloads', undefined, undefined, { clock });
  const driver: WorkloadDriver = { failures: 0, errors: [], stop: () => (stopped = true) };
  let stopped = false;
  const classes = new Set(workloads.map((w) => (w.pod.spec as { priorityClassName?: string } | undefined)?.priorityClassName));
  const prerequisites: [ResourceType, KObject][] = [
    ...[...new Set(workloads.map((w) => w.namespace))].map((ns): [ResourceType, KObject] => [NAMESPACES, { metadata: { name: ns } } as KObject]),
    ...[...classes].filter((c) => priorityOfClass(c) !== undefined)
      .map((name): [ResourceType, KObject] => [PRIORITY_CLASSES, { metadata: { name }, value: priorityOfClass(name) } as KObject]),
  ];
  for (const [type, obj] of prerequisites) {
    try {
      await client.create(type, obj);
    } catch (e) {
      if (!(isAlreadyExists(e) || isConflict(e))) throw e;
    }
  }
  // A ReplicaSet or Deployment workload is one object at its start (its budget just before it, its
  // autoscaler once it exists), a CronJob workload one CronJob; their controllers make the pods.
  const failed = (obj: KObject, pods: number) => (e: Error) => {
    driver.failures += pods;
    if (driver.errors.length < 10) driver.errors.push(`${obj.kind} ${obj.metadata.namespace}/${obj.metadata.name}: ${e.message}`);
  };
  for (const w of workloads.filter((w) => w.controller !== undefined && w.controller !== 'Job'))
    clock.setTimeout(() => {
      if (stopped) return;
      if (w.controller === 'CronJob') {
        const cronJob = workloadCronJob(w);
        client.create(CRONJOBS, cronJob).catch(failed(cronJob, 0));
        return;
      }
      if (w.disruptionBudget) {
        const pdb = workloadBudget(w);
        client.create(PDBS, pdb).catch(failed(pdb, 0));
      }
      const obj = workloadController(w);
      const type: ResourceType = w.controller === 'Deployment' ? DEPLOYMENTS : REPLICASETS;
      const created = client.create(type, obj);
      created.catch(failed(obj, w.count));
      if (w.autoscale) {
        const hpa = workloadAutoscaler({ ...w, autoscale: w.autoscale });
        created.then(() => client.create(HPAS, hpa).catch(failed(hpa, 0)), () => undefined);
      }
    }, Math.max(0, t0 + w.startMs - clock.now()));
  // One merged timeline: (time, workload, index) of pods and Jobs, in time order, then workload order, then index.
  const timeline: [number, number, number][] = [];
  workloads.forEach((w, wi) => {
    if (w.controller === undefined || w.controller === 'Job') arrivals(w, random.fork(`workload/${w.name}`), endMs).forEach((t, i) => timeline.push([t, wi, i]));
  });
  timeline.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const backlog: KObject[] = [];
  let inFlight = 0;
  const pump = () => {
    while (!stopped && inFlight < IN_FLIGHT && backlog.length) {
      const obj = backlog.shift()!;
      inFlight++;
      const type: ResourceType = obj.kind === 'Job' ? JOBS : PODS;
      client.create(type, obj).catch((e) => {
        if (isAlreadyExists(e) || isConflict(e)) return;
        // The API server is away (restarting, or the answer was lost): the user tries again.
        if (e instanceof NoRespondersError || e instanceof BusTimeoutError) {
          clock.setTimeout(() => (backlog.push(obj), pump()), RETRY_MS);
          return;
        }
        driver.failures++;
        if (driver.errors.length < 10) driver.errors.push(`${obj.kind} ${obj.metadata.namespace}/${obj.metadata.name}: ${(e as Error).message}`);
      }).finally(() => {
        inFlight--;
        pump();
      });
    }
  };
  let next = 0;
  const arm = () => {
    if (stopped || next >= timeline.length) return;
    clock.setTimeout(() => {
      const now = clock.now() - t0;
      while (next < timeline.length && timeline[next]![0] <= now) {
        const [, wi, i] = timeline[next++]!;
        const w = workloads[wi]!;
        backlog.push(w.controller === 'Job' ? workloadJob(w, i) : workloadPod(w, i));
      }
      pump();
      arm();
    }, Math.max(0, t0 + timeline[next]![0] - clock.now()));
  };
  arm();
  return driver;
}
