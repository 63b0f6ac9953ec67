// What a run reports: `report.json` is this object, serialised with sorted keys; `report.html`
// draws it. Everything here is a function of the scenario and the seed (the same pair gives the
// same bytes): wall-clock figures are kept out and printed with the summary instead.
import type { GroupHistory } from '../cloud-provider.ts';
import type { BatchWorkload } from '../batch-report.ts';

export interface Report {
  /** Report format version. */
  version: 1;
  scenario: { name: string; description: string; durationMs: number };
  seed: number;
  /** sha256 (hex) of the run's event trace: every committed change's revision, type and key, in order. */
  traceHash: string;
  summary: Summary;
  series: Series;
  histograms: { schedulingLatencyMs: Histogram; podStartupMs: Histogram };
  /** Pods that failed at least one scheduling attempt, by their last failure's binding constraint (sim/metrics.ts mainReason). */
  unschedulable: Record<string, number>;
  faults: FaultRecord[];
  zones: string[];
  /** Why pods were still unscheduled at the end: the scheduler's last decision for each, the first 100 by name. */
  pending: PendingPod[];
  /** Who led each leader-election lock, term by term, and the gaps between terms. */
  leadership: LeaderTerm[];
  failovers: Failover[];
  /** Each time a ReplicaSet had fewer Ready pods than it wants, once it had had them all, and when it got back. */
  replicaSetDips: ReplicaSetDip[];
  /** What happened to each node and each pod, in order (sim/timelines.ts). */
  timelines: Timelines;
  /** Where the API requests' time went, when the scenario models it (`requestTime:`). */
  requestTime?: RequestTime;
  /** The cluster autoscaler's node groups, when the scenario has one (`clusterAutoscaler:`). */
  autoscaling?: { groups: GroupHistory[] };
  /** What the Jobs of each Job and CronJob workload did, when the scenario has any (sim/batch-report.ts). */
  batch?: BatchWorkload[];
}

export interface RequestTime {
  requests: number;
  /** One way, each request and its reply. */
  networkMs: number;
  /** Waiting for one of the server's slots, and being served, per request. */
  queueMs: Percentiles;
  serviceMs: Percentiles;
}

/** One event of a node's or a pod's timeline: virtual ms from the start, what, and a detail (a node, a taint key, who). */
export type TimelineEntry = [number, string] | [number, string, string];

export interface Timelines {
  /** By node name: registered, Ready / NotReady / Unknown, tainted and untainted (NoExecute, with the key), deleted. */
  nodes: Record<string, TimelineEntry[]>;
  /** By `namespace/name`: created, scheduled (node), started, preempted (by pod) or evicted (by whom), deleting, Succeeded / Failed (reason), deleted. */
  pods: Record<string, TimelineEntry[]>;
}

export interface ReplicaSetDip {
  /** `namespace/name`. */
  replicaSet: string;
  desired: number;
  fromMs: number;
  /** Absent: still short at the end. */
  toMs?: number;
}

export interface LeaderTerm {
  lock: string;
  holder: string;
  fromMs: number;
  /** Absent: still leading at the end. */
  toMs?: number;
}

/** A lock without a leader between two terms: `gapMs` from the end of one to the start of the next. */
export interface Failover {
  lock: string;
  from: string;
  to: string;
  atMs: number;
  gapMs: number;
}

export interface PendingPod {
  /** `namespace/name`. */
  pod: string;
  /** Scheduling attempts so far, and when the last one ran (virtual ms from the start). */
  attempts: number;
  lastAttemptMs: number;
  /** The FitError text of the last attempt, with its preemption outcome. */
  message: string;
  /** Per filter plugin, per reason, the nodes it ruled out in the last attempt. */
  filtered: Record<string, Record<string, number>>;
}

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  count: number;
}

export interface Summary {
  nodes: number;
  pods: { created: number; scheduled: number; running: number; succeeded: number; failed: number; pending: number; deleted: number;
    /** Pods that ended Failed with reason Evicted (node-pressure eviction). */
    evicted: number };
  /** Bindings per virtual second over the span from the first creation to the last binding. */
  schedulingThroughputPerSec: number;
  /** Creation to binding, in virtual ms. */
  schedulingLatencyMs: Percentiles;
  /** Creation to Running, in virtual ms. */
  podStartupMs: Percentiles;
  schedulingAttempts: number;
  unschedulableAttempts: number;
  preemptions: number;
  /** NoExecute taints the node lifecycle controller set, and pods the taint eviction controller deleted. */
  taints: number;
  taintEvictions: number;
  /** Committed changes (watch events published) and API requests served, in the whole run. */
  events: number;
  apiRequests: number;
}

/** Samples every `intervalMs` of virtual time; every array has one entry per `tMs`. */
export interface Series {
  intervalMs: number;
  tMs: number[];
  podsPending: number[];
  podsRunning: number[];
  podsSucceeded: number[];
  podsFailed: number[];
  nodesReady: number[];
  /** Committed changes and API requests per virtual second over the interval ending at the sample. */
  eventsPerSec: number[];
  apiRequestsPerSec: number[];
  /** Bindings per virtual second over the interval. */
  scheduledPerSec: number[];
  /** Requested / allocatable over Ready nodes, 0..1. */
  cpuUtilisation: number[];
  memoryUtilisation: number[];
  perZone: Record<string, { nodesReady: number[]; podsRunning: number[]; cpuUtilisation: number[] }>;
  /** NoExecute taints set and pods deleted for them, per virtual second over the interval. */
  taintsPerSec: number[];
  taintEvictionsPerSec: number[];
  /** Each zone's state in the node lifecycle controller (by `region:zone`), at each sample. */
  zoneStates: Record<string, string[]>;
  /** CPU and memory used beside requested and allocatable, by zone and by pool: only when the scenario has usage models or autoscaling (sim/usage-series.ts). */
  usage?: { perZone: Record<string, ResourceSeries>; perPool: Record<string, ResourceSeries> };
  /** Each Deployment an HPA scales, by `namespace/name`: only when the scenario has usage models or autoscaling (sim/replica-series.ts). */
  deployments?: Record<string, ReplicaSeries>;
  /** Each node group of the cluster autoscaler: its nodes and its cost so far at each sample (sim/group-series.ts). */
  nodeGroups?: Record<string, GroupSeries>;
}

/**
 * Over the Ready nodes of a zone or pool: CPU in cores and memory in bytes that their running pods
 * use (the node agents' summaries, as the metrics server serves them), that bound pods request,
 * and that the nodes offer.
 */
export interface ResourceSeries {
  cpuUsed: number[];
  cpuRequested: number[];
  cpuAllocatable: number[];
  memoryUsed: number[];
  memoryRequested: number[];
  memoryAllocatable: number[];
}

/** An autoscaled Deployment at each sample; null before it (or its autoscaler) existed, or before the autoscaler measured. */
export interface ReplicaSeries {
  /** Its HPA (`namespace/name`), replica bounds and CPU target (percent of the pods' requests), as last seen. */
  autoscaler: string;
  minReplicas: number;
  maxReplicas: number;
  targetCPUUtilization?: number;
  /** The Deployment's spec.replicas and status.readyReplicas. */
  desired: (number | null)[];
  ready: (number | null)[];
  /** The HPA's current average CPU use, percent of the pods' requests (status.currentMetrics). */
  cpuUtilization: (number | null)[];
}

/** A node group at each sample: its running nodes, and what its nodes cost from the start up to then. */
export interface GroupSeries {
  nodes: number[];
  /** Absent when the group has no costPerHour. */
  cost?: number[];
}

/** Counts per bucket: `counts[i]` observations ≤ `boundsMs[i]` (and above the previous bound); the last count is above every bound. */
export interface Histogram {
  boundsMs: number[];
  counts: number[];
}

export interface FaultRecord {
  kind: string;
  atMs: number;
  /** The zone it hit, for a zone partition (or node faults drawn from one zone). */
  zone?: string;
  /** What it hit (node names). */
  targets: string[];
  recoveredAtMs?: number;
  /**
   * maintenanceDrain and spotInterruption: each node whose drain had not emptied it by its timeout
   * (kubectl drain failed: the node was left cordoned and, for a maintenance, not maintained nor uncordoned).
   */
  drainTimeouts?: DrainTimeout[];
  /** nodeDelete: each deleted node's replacement and when it joined (since the start). */
  replacements?: NodeReplacement[];
}

export interface DrainTimeout {
  node: string;
  /** When the drain gave up, since the start. */
  atMs: number;
  /** The evicted pods still on the node then. */
  podsLeft: number;
}

export interface NodeReplacement {
  node: string;
  by: string;
  joinedAtMs: number;
}
