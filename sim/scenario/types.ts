// A scenario, as `orchsim run` executes it once loaded and checked (load.ts): the cluster's node
// pools, the workloads that arrive, the faults, the components' options, and how long it runs.
// Times are virtual milliseconds from the start of the run; quantities are already parsed.
import type { HorizontalPodAutoscalerBehavior, MetricSpec } from 'kubernetes-types/autoscaling/v2.js';
import type { KObject } from '../../actors/api/types.ts';
import type { UsageModel } from '../../actors/nodeagent/usage-model.ts';
import type { Taint } from '../../actors/scheduler/framework.ts';
import type { RequestTimeModel } from '../request-time.ts';
import type { Plan } from './plan.ts';

export interface Scenario {
  /** `name:` in the file, else the file's base name without extension. */
  name: string;
  description: string;
  /** The seed used when `--seed` is not given. */
  seed: number;
  /** `duration:` — how long the run lasts in virtual time. */
  durationMs: number;
  /** `sampleInterval:` (default 10s) — how often the time series of the report take a sample. */
  sampleIntervalMs: number;
  nodePools: NodePool[];
  workloads: Workload[];
  faults: Fault[];
  /** `options:` per component, passed through (each component validates its own). */
  options: ComponentOptions;
  /** `replicas:` how many controller managers and schedulers run (default 1 each); they elect leaders. */
  replicas: { controllerManager: number; scheduler: number };
  /** `events:` whether the components record Events, as the real ones do (default false: they cost a run about a fifth of its time). */
  events: boolean;
  /** `requestTime:` how long API requests take; absent, they are answered at the instant they are sent. */
  requestTime?: RequestTimeModel;
  /** `plan:` what `orchsim plan` varies and the targets it checks. */
  plan?: Plan;
  /** `clusterAutoscaler:` a cluster autoscaler runs over the pools with `autoscaling:` (cluster-autoscaler.ts). */
  clusterAutoscaler?: ClusterAutoscalerSettings;
}

/** The autoscaler's flags by name (checked by its option table) and the simulated cloud's part. */
export interface ClusterAutoscalerSettings {
  flags: Record<string, unknown>;
  /** `provisioningDelay:` how long a node the autoscaler asks for takes to join (the cloud's part). */
  provisioningDelayMs: number;
  /** `priorities:` the priority expander's configuration (priority -> node group name regexes), written as its ConfigMap at the start. */
  priorities?: Record<string, string[]>;
}

export interface ComponentOptions {
  apiserver: Record<string, unknown>;
  scheduler: Record<string, unknown>;
  nodeagent: Record<string, unknown>;
  controllerManager: Record<string, unknown>;
}

export interface NodePool {
  /** Nodes are named `<name>-<index>` with index zero-padded to the width of `count - 1` (at least 1 digit). */
  name: string;
  count: number;
  region: string;
  /** Nodes are spread over the zones round-robin, node i in zones[i % zones.length]; [''] when none given. */
  zones: string[];
  /** Capacity (= allocatable): CPU as a quantity string ("8"), memory ("32Gi"), ephemeral storage, pods (maxPods). */
  capacity: { cpu: string; memory: string; ephemeralStorage: string; pods: number };
  labels: Record<string, string>;
  taints: Taint[];
  /** What one of its nodes costs per hour, in the user's currency (`orchsim plan` can minimise it). */
  costPerHour?: number;
  /** `autoscaling:` a node group of the cluster autoscaler: it keeps the pool between min and max nodes (`count` is its size at the start). */
  autoscaling?: { min: number; max: number };
  /** `provisioningFailure:` the probability that a node the autoscaler asks for never comes (0..1; absent: every node comes). */
  provisioningFailure?: number;
  /** When the pool came from a Node manifest (`node:`): that manifest, for labels/taints/capacity it carries. */
  manifest?: KObject;
}

/** When the pods of a workload are created. */
export type Arrival =
  /** All `count` pods at `start`. */
  | { kind: 'burst' }
  /** One pod every `intervalMs` from `start`, `count` in all. */
  | { kind: 'uniform'; intervalMs: number }
  /** A Poisson process of `ratePerSecond` from `start`, `count` in all (gaps drawn from the workload's seeded stream). */
  | { kind: 'poisson'; ratePerSecond: number };

export interface Workload {
  name: string;
  /** Namespace the pods are created in (`default` when not given); created if missing. */
  namespace: string;
  count: number;
  startMs: number;
  arrival: Arrival;
  /**
   * The pod to create, as a Pod manifest (`metadata` may carry labels/annotations; `name` and
   * `generateName` are replaced by `<workload>-<index>`), from `pod:`, from `template:` (a
   * PodTemplate manifest or a bare `{metadata, spec}` template), or built from the short form
   * (`requests`, `priority`, `labels`, `image`).
   */
  pod: KObject;
  /** `runDuration:` — a batch pod succeeds this long after it starts running; undefined: runs until the end. */
  runDurationMs?: number;
  /** `failureProbability:` of a batch pod ending Failed instead of Succeeded, 0..1 (default 0). */
  failureProbability: number;
  /**
   * `controller: ReplicaSet` or `Deployment`: the pods are one object of that kind with `count`
   * replicas, created at `start`, whose controllers replace lost pods.
   */
  controller?: 'ReplicaSet' | 'Deployment' | 'Job' | 'CronJob';
  /** `usage:` — how its pods' containers use CPU and memory over time (written as their `orchsim.io/usage` annotation). */
  usage?: UsageModel;
  /** `runDuration: { kind: uniform, min, max }`: each pod runs runDurationMs plus up to this much more, drawn per pod. */
  runDurationJitterMs?: number;
  /** Job and CronJob workloads: the Job spec's fields the workload gives (the API server defaults the rest). */
  job?: JobFields;
  /** CronJob workloads: its schedule and history, the rest of its spec (the Job's part is `job`). */
  cronJob?: CronJobFields;
  /** `disruptionBudget:` (ReplicaSet and Deployment workloads): a policy/v1 PodDisruptionBudget over its pods, created with it. */
  disruptionBudget?: DisruptionBudget;
  /** `autoscale:` (Deployment workloads only) — an autoscaling/v2 HorizontalPodAutoscaler for it, created at `start` right after it. */
  autoscale?: Autoscale;
}

/**
 * A Job's spec fields as the workload gives them (batch/v1 JobSpec names; `activeDeadline:` and
 * `ttlAfterFinished:` durations become whole seconds). Absent: the API server's defaults.
 * A Job workload makes `count` Jobs `<workload>-<i>` by its arrival process.
 */
export interface JobFields {
  completions?: number;
  parallelism?: number;
  backoffLimit?: number;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
}

/** A CronJob's spec fields beside its Job template (batch/v1 CronJobSpec names; `startingDeadline:` in whole seconds). */
export interface CronJobFields {
  schedule: string;
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
  startingDeadlineSeconds?: number;
}

/** A PodDisruptionBudget's one bound: a number of pods or a percentage such as "50%". */
export type DisruptionBudget = { minAvailable: number | string } | { maxUnavailable: number | string };

/** A workload's autoscaler: its replica bounds and the average CPU use of the pods' requests it keeps them at, or its metrics. */
export interface Autoscale {
  minReplicas: number;
  maxReplicas: number;
  /** Exactly one of this and `metrics`. */
  targetCPUUtilizationPercentage?: number;
  /** `metrics:` the autoscaling/v2 metric specs, as the HPA spec takes them. */
  metrics?: MetricSpec[];
  /** `behavior:` the autoscaling/v2 scaling behavior, as the HPA spec takes it. */
  behavior?: HorizontalPodAutoscalerBehavior;
}

/**
 * At `atMs`, on its target nodes: `nodeCrash` stops their agents (no lease renewals, no status);
 * `memoryPressure` adds `memoryBytes` of memory use beyond their pods' (the node agents evict
 * pods once memory.available falls under evictionHard). Both end `recoverAfterMs` later when
 * given. Targets: `nodes` by name, or `count` nodes (default 1) drawn from the run's seeded
 * `faults` stream, optionally only from `pool` and/or `zone`.
 */
export type ReplicaFaultKind = 'controllerManagerCrash' | 'controllerManagerFreeze' | 'schedulerCrash' | 'schedulerFreeze';
export const REPLICA_FAULTS: readonly ReplicaFaultKind[] = ['controllerManagerCrash', 'controllerManagerFreeze', 'schedulerCrash', 'schedulerFreeze'];

export interface Fault {
  kind: 'nodeCrash' | 'memoryPressure' | 'zonePartition' | 'nodeFlap' | 'messageLoss' | 'latency' | 'apiServerRestart' | 'natsOutage' | 'maintenanceDrain' | 'spotInterruption' | 'nodeDelete' | 'capacityShortage' | ReplicaFaultKind;
  atMs: number;
  recoverAfterMs?: number;
  nodes?: string[];
  count: number;
  pool?: string;
  zone?: string;
  /**
   * A fault set (`zone: any`): the fault once per zone of this list, each a member of the set.
   * `orchsim plan` runs every member and answers for the worst; `orchsim run` runs the first
   * (fault-sets.ts). Absent: the fault is the one given.
   */
  zones?: string[];
  /** Node faults: the `count` largest nodes the filters leave (most CPU, then memory, then by name), not a random draw. */
  largest?: boolean;
  /** memoryPressure: the extra memory used on each target node, in bytes. */
  memoryBytes?: number;
  /** Replica faults: the replica's index, or the one leading at the time. */
  replica?: number | 'leader';
  /** nodeFlap: how long each target stays down, then up, in turn until the fault ends; maintenanceDrain: how long each drained node stays cordoned. */
  downForMs?: number;
  upForMs?: number;
  /** maintenanceDrain: nodes drained at a time. */
  waveSize?: number;
  /** maintenanceDrain: how long a wave waits for its pods to go (kubectl drain --timeout); absent: as long as it takes. */
  timeoutMs?: number;
  /** spotInterruption: from the notice to the instance's loss. */
  noticeMs?: number;
  /** spotInterruption: whether the termination handler drains the node at the notice (else it only taints it). */
  drain?: boolean;
  /** nodeDelete: whether a new node of the pool joins in its place; absent: an autoscaled pool's does, another's does not. */
  replace?: boolean;
  /** messageLoss: the probability each message the targets send is lost. */
  probability?: number;
  /** latency: extra delay of each message the targets send. */
  latencyMs?: number;
  /** messageLoss and latency: whose links (node agents, chosen as for node faults, or every replica of a component). */
  component?: 'nodes' | 'controllerManager' | 'scheduler';
}
