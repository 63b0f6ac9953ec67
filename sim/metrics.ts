// What a run measures, read from the store's committed changes (the same stream watchers get):
// each pod's creation, binding, start and end; each node's allocatable, what is bound to it, and
// its lease renewals; and, every sample interval, the time series of the report. All times are
// the virtual clock's, so the figures are a function of the scenario and the seed.
import { createHash, type Hash } from 'node:crypto';
import type { Clock } from '../actors/api/env.ts';
import { isReady } from '../actors/api/fields.ts';
import { milliCPU, wholeUnits } from '../actors/api/quantity.ts';
import type { KObject } from '../actors/api/types.ts';
import type { ChangeRecord } from '../actors/apiserver/storage/store.ts';
import { podInfo } from '../actors/scheduler/pod-info.ts';
import type { Decision } from '../actors/scheduler/scheduler.ts';
import type { Failover, Histogram, LeaderTerm, Percentiles, ReplicaSetDip, Series } from './report/types.ts';
import type { Pod } from '../actors/api/model/core.ts';
import type { Deployment, ReplicaSet } from '../actors/api/model/apps.ts';
import { POOL_LABEL } from './cluster.ts';

export type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

export interface PodRecord {
  createdMs: number;
  boundMs?: number;
  runningMs?: number;
  phase: Phase;
  node?: string;
  milliCPU: number;
  memory: number;
  /** Every phase the pod was seen in, in order, first letters (`PRS`): what the phase checker reads. */
  path: string;
}

export interface NodeRecord {
  zone: string;
  /** Its pool's name (the `orchsim.io/pool` label; empty for a node of none). */
  pool: string;
  allocatable: { milliCPU: number; memory: number; pods: number };
  requested: { milliCPU: number; memory: number; pods: number };
  readyCondition: boolean;
  /** When its Lease was last written (virtual ms). */
  leaseMs: number;
  podsRunning: number;
}

const HISTOGRAM_BOUNDS_MS = [10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];
/** A node whose Lease is older than this is not Ready (the controller manager's --node-monitor-grace-period). */
const NODE_GRACE_MS = 40_000;

const PODS_PREFIX = '/core/pods/';
const NODES_PREFIX = '/core/nodes/';
const LEASES_PREFIX = '/coordination.k8s.io/leases/kube-node-lease/';
const REPLICASETS_PREFIX = '/apps/replicasets/';

export interface ChangeListener {
  (change: ChangeRecord, before: PodRecord | undefined, after: PodRecord | undefined): void;
}

export class RunMetrics {
  readonly pods = new Map<string, PodRecord>();
  readonly nodes = new Map<string, NodeRecord>();
  readonly counts = { created: 0, scheduled: 0, deleted: 0, evicted: 0, events: 0, preemptions: 0, attempts: 0, unschedulableAttempts: 0, taints: 0, taintEvictions: 0 };
  readonly leadership: LeaderTerm[] = [];
  /** Each time a ReplicaSet fell below its desired Ready count, and when it got back. */
  readonly replicaSetDips: ReplicaSetDip[] = [];
  readonly #reached = new Set<string>();
  readonly #openDips = new Map<string, ReplicaSetDip>();
  readonly phaseCounts: Record<Phase, number> = { Pending: 0, Running: 0, Succeeded: 0, Failed: 0 };
  readonly schedulingLatencies: number[] = [];
  readonly startupLatencies: number[] = [];
  /** Each pod's reason of its last failed attempt (pods that failed at least once). */
  readonly lastFailure = new Map<string, string>();
  readonly series: Series;
  firstCreateMs: number | undefined;
  lastBindMs: number | undefined;
  readonly #trace: Hash = createHash('sha256');
  readonly #listeners: ChangeListener[] = [];
  #sampleEvents = 0;
  #sampleBinds = 0;
  #sampleRequests = 0;
  #sampleTaints = 0;
  #sampleTaintEvictions = 0;

  constructor(
    readonly clock: Clock,
    readonly keyPrefix: string,
    readonly zones: string[],
    readonly t0: number,
    intervalMs: number,
  ) {
    this.series = {
      intervalMs, tMs: [], podsPending: [], podsRunning: [], podsSucceeded: [], podsFailed: [], nodesReady: [], eventsPerSec: [],
      apiRequestsPerSec: [], scheduledPerSec: [], cpuUtilisation: [], memoryUtilisation: [],
      perZone: Object.fromEntries(zones.map((z) => [z, { nodesReady: [], podsRunning: [], cpuUtilisation: [] }])),
      taintsPerSec: [], taintEvictionsPerSec: [], zoneStates: {},
    };
  }

  /** Called for every change with the pod record before and after it (pods only): the checkers' hook. */
  onPodChange(listener: ChangeListener): void {
    this.#listeners.push(listener);
  }

  get traceHash(): string {
    return this.#trace.copy().digest('hex');
  }

  observe(c: ChangeRecord): void {
    this.counts.events++;
    this.#sampleEvents++;
    const key = c.key.slice(this.keyPrefix.length);
    this.#trace.update(`${c.revision} ${c.type} ${key}\n`);
    if (key.startsWith(PODS_PREFIX)) this.#pod(key.slice(PODS_PREFIX.length), c);
    else if (key.startsWith(NODES_PREFIX)) this.#node(key.slice(NODES_PREFIX.length), c);
    else if (key.startsWith(LEASES_PREFIX) && c.type !== 'DELETED') {
      const node = this.nodes.get(key.slice(LEASES_PREFIX.length));
      if (node) node.leaseMs = this.clock.now();
    } else if (key.startsWith(REPLICASETS_PREFIX)) this.#replicaSet(key.slice(REPLICASETS_PREFIX.length), c);
  }

  /**
   * A set below its desired count of Ready pods, once it had reached it, opens a dip; back at the
   * count closes it: how long the set took to get back after losing pods.
   */
  #replicaSet(name: string, c: ChangeRecord): void {
    const open = this.#openDips.get(name);
    if (c.type === 'DELETED') {
      this.#reached.delete(name);
      this.#openDips.delete(name);
      return;
    }
    const set = c.object as Deployment | ReplicaSet;
    const desired = set.spec?.replicas ?? 1;
    const ready = set.status?.readyReplicas ?? 0;
    const t = this.clock.now() - this.t0;
    if (ready >= desired) {
      this.#reached.add(name);
      if (open) {
        open.toMs = t;
        this.#openDips.delete(name);
      }
    } else if (this.#reached.has(name) && !open) {
      const dip: ReplicaSetDip = { replicaSet: name, fromMs: t, desired };
      this.replicaSetDips.push(dip);
      this.#openDips.set(name, dip);
    }
  }

  decision(d: Decision): void {
    this.counts.attempts++;
    if (d.result === 'scheduled') return;
    this.counts.unschedulableAttempts++;
    if (d.preemption) this.counts.preemptions++;
    this.lastFailure.set(d.pod, mainReason(d));
  }

  #pod(key: string, c: ChangeRecord): void {
    const now = this.clock.now();
    const before = this.pods.get(key);
    if (c.type === 'DELETED') {
      if (before) {
        this.#unbind(before);
        this.phaseCounts[before.phase]--;
        this.pods.delete(key);
        this.counts.deleted++;
      }
      for (const l of this.#listeners) l(c, before, undefined);
      return;
    }
    const pod = c.object as Pod;
    const spec = pod.spec!;
    const phase = (pod.status?.phase ?? 'Pending') as Phase;
    let rec = before;
    const snapshot = before && { ...before };
    if (!rec) {
      const r = podInfo(c.object).requests;
      rec = { createdMs: now, phase, milliCPU: r.milliCPU, memory: r.memory, path: phase[0]! };
      this.pods.set(key, rec);
      this.phaseCounts[phase]++;
      this.counts.created++;
      this.firstCreateMs ??= now;
    }
    if (spec.nodeName && !rec.node) {
      rec.node = spec.nodeName;
      rec.boundMs = now;
      this.counts.scheduled++;
      this.#sampleBinds++;
      this.lastBindMs = now;
      this.schedulingLatencies.push(now - rec.createdMs);
      if (!isTerminal(phase)) this.#bind(rec, 1);
    }
    if (before && phase !== rec.phase) {
      this.phaseCounts[rec.phase]--;
      this.phaseCounts[phase]++;
      if (rec.node && !isTerminal(rec.phase) && isTerminal(phase)) this.#bind(rec, -1);
      const node = rec.node ? this.nodes.get(rec.node) : undefined;
      if (node && rec.phase === 'Running') node.podsRunning--;
      if (node && phase === 'Running') node.podsRunning++;
      rec.phase = phase;
      rec.path += phase[0];
      if (phase === 'Failed' && pod.status?.reason === 'Evicted') this.counts.evicted++;
    }
    if (phase === 'Running' && rec.runningMs === undefined) {
      rec.runningMs = now;
      this.startupLatencies.push(now - rec.createdMs);
    }
    for (const l of this.#listeners) l(c, snapshot, rec);
  }

  #bind(rec: PodRecord, sign: 1 | -1): void {
    const node = rec.node ? this.nodes.get(rec.node) : undefined;
    if (!node) return;
    node.requested.milliCPU += sign * rec.milliCPU;
    node.requested.memory += sign * rec.memory;
    node.requested.pods += sign;
  }

  #unbind(rec: PodRecord): void {
    if (rec.node && !isTerminal(rec.phase)) this.#bind(rec, -1);
    const node = rec.node ? this.nodes.get(rec.node) : undefined;
    if (node && rec.phase === 'Running') node.podsRunning--;
  }

  #node(name: string, c: ChangeRecord): void {
    if (c.type === 'DELETED') {
      this.nodes.delete(name);
      return;
    }
    const o = c.object;
    const status = (o.status ?? {}) as { allocatable?: Record<string, string>; capacity?: Record<string, string> };
    const alloc = status.allocatable ?? status.capacity ?? {};
    const existing = this.nodes.get(name);
    const rec: NodeRecord = existing ?? {
      zone: zoneOf(o), pool: o.metadata.labels?.[POOL_LABEL] ?? '', allocatable: { milliCPU: 0, memory: 0, pods: 0 }, requested: { milliCPU: 0, memory: 0, pods: 0 },
      readyCondition: false, leaseMs: -Infinity, podsRunning: 0,
    };
    rec.allocatable = { milliCPU: milliCPU(alloc.cpu ?? '0'), memory: wholeUnits(alloc.memory ?? '0'), pods: Number(alloc.pods ?? 0) };
    rec.readyCondition = isReady(o);
    if (!existing) this.nodes.set(name, rec);
  }

  /** A node is Ready when it says so and its Lease was renewed within the grace period. */
  isReady(n: NodeRecord, now: number): boolean {
    return n.readyCondition && now - n.leaseMs <= NODE_GRACE_MS;
  }

  /** A NoExecute taint set by the node lifecycle controller. */
  taint(): void {
    this.counts.taints++;
    this.#sampleTaints++;
  }

  /** A pod deleted by the taint eviction controller. */
  taintEviction(): void {
    this.counts.taintEvictions++;
    this.#sampleTaintEvictions++;
  }

  /** A replica started (or stopped) working under `lock`. */
  leading(lock: string, holder: string, leading: boolean, atMs: number): void {
    const t = atMs - this.t0;
    if (leading) this.leadership.push({ lock, holder, fromMs: t });
    else {
      const term = [...this.leadership].reverse().find((x) => x.lock === lock && x.holder === holder && x.toMs === undefined);
      if (term) term.toMs = t;
    }
  }

  /** The gaps between consecutive terms of each lock. */
  failovers(): Failover[] {
    const out: Failover[] = [];
    const last = new Map<string, LeaderTerm>();
    for (const term of [...this.leadership].sort((a, b) => a.fromMs - b.fromMs)) {
      const before = last.get(term.lock);
      if (before?.toMs !== undefined) out.push({ lock: term.lock, from: before.holder, to: term.holder, atMs: before.toMs, gapMs: term.fromMs - before.toMs });
      last.set(term.lock, term);
    }
    return out;
  }

  /** Appends one sample of every series; `requests` is the API server's request count so far. */
  sample(requests: number, zoneStates: ReadonlyMap<string, string> = new Map()): void {
    const now = this.clock.now();
    const s = this.series;
    const seconds = s.intervalMs / 1000;
    s.tMs.push(now - this.t0);
    s.podsPending.push(this.phaseCounts.Pending);
    s.podsRunning.push(this.phaseCounts.Running);
    s.podsSucceeded.push(this.phaseCounts.Succeeded);
    s.podsFailed.push(this.phaseCounts.Failed);
    s.eventsPerSec.push(round(this.#sampleEvents / seconds));
    s.apiRequestsPerSec.push(round((requests - this.#sampleRequests) / seconds));
    s.scheduledPerSec.push(round(this.#sampleBinds / seconds));
    s.taintsPerSec.push(round(this.#sampleTaints / seconds));
    s.taintEvictionsPerSec.push(round(this.#sampleTaintEvictions / seconds));
    this.#sampleEvents = this.#sampleBinds = this.#sampleTaints = this.#sampleTaintEvictions = 0;
    const samples = s.tMs.length;
    for (const [zone, state] of zoneStates) (s.zoneStates[zone] ??= new Array<string>(samples - 1).fill('Initial')).push(state);
    for (const states of Object.values(s.zoneStates)) if (states.length < samples) states.push(states.at(-1) ?? 'Initial');
    this.#sampleRequests = requests;
    const total = { ready: 0, cpuReq: 0, cpuAlloc: 0, memReq: 0, memAlloc: 0 };
    const zones = new Map(this.zones.map((z) => [z, { ready: 0, running: 0, cpuReq: 0, cpuAlloc: 0 }]));
    for (const n of this.nodes.values()) {
      const z = zones.get(n.zone);
      if (z) z.running += n.podsRunning;
      if (!this.isReady(n, now)) continue;
      total.ready++;
      total.cpuReq += n.requested.milliCPU;
      total.cpuAlloc += n.allocatable.milliCPU;
      total.memReq += n.requested.memory;
      total.memAlloc += n.allocatable.memory;
      if (z) {
        z.ready++;
        z.cpuReq += n.requested.milliCPU;
        z.cpuAlloc += n.allocatable.milliCPU;
      }
    }
    s.nodesReady.push(total.ready);
    s.cpuUtilisation.push(ratio(total.cpuReq, total.cpuAlloc));
    s.memoryUtilisation.push(ratio(total.memReq, total.memAlloc));
    for (const [zone, z] of zones) {
      const pz = s.perZone[zone]!;
      pz.nodesReady.push(z.ready);
      pz.podsRunning.push(z.running);
      pz.cpuUtilisation.push(ratio(z.cpuReq, z.cpuAlloc));
    }
  }
}

const isTerminal = (p: Phase) => p === 'Succeeded' || p === 'Failed';
const round = (x: number) => Math.round(x * 1000) / 1000;
const ratio = (a: number, b: number) => (b > 0 ? round(a / b) : 0);
const zoneOf = (o: KObject) => o.metadata.labels?.['topology.kubernetes.io/zone'] ?? '';

/**
 * The filters that hold a pod to the nodes it chose (its node name, selector and affinity, the
 * taints it does not tolerate, cordons): no capacity added elsewhere changes them, so they are the
 * pod's own bounds, not what it waits for.
 */
const PLACEMENT = new Set(['NodeName', 'NodeAffinity', 'TaintToleration', 'NodeUnschedulable']);

/**
 * A failed attempt's binding constraint: among the nodes its own placement bounds allow, the
 * reason that ruled out the most, counted as its FitError message counts them (summed over the
 * plugins that gave it; of equal counts, the one the message lists first, as it sorts
 * "<count> <reason>" as strings). A pod whose bounds left no node is counted under the bound that
 * ruled out the most. So an analytics pod that fits only the high-memory pool counts as waiting
 * for memory there, not for the general pool its selector never wanted.
 */
function mainReason(d: Decision): string {
  const top = (plugins: [string, Record<string, number>][]) => {
    const nodes = new Map<string, number>();
    for (const [, byReason] of plugins) for (const [reason, n] of Object.entries(byReason)) nodes.set(reason, (nodes.get(reason) ?? 0) + n);
    let best = '';
    let most = -1;
    for (const [reason, n] of nodes) if (n > most || (n === most && reason < best)) [best, most] = [reason, n];
    return best;
  };
  const plugins = Object.entries(d.filtered);
  return top(plugins.filter(([p]) => !PLACEMENT.has(p))) || top(plugins) || (d.nodes === 0 ? 'no nodes in the cluster' : 'unknown');
}

export function percentiles(values: number[]): Percentiles {
  if (values.length === 0) return { p50: 0, p90: 0, p99: 0, max: 0, count: 0 };
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[sorted.length - 1]!, count: sorted.length };
}

export function histogram(values: number[]): Histogram {
  const counts = new Array<number>(HISTOGRAM_BOUNDS_MS.length + 1).fill(0);
  for (const v of values) {
    let i = 0;
    while (i < HISTOGRAM_BOUNDS_MS.length && v > HISTOGRAM_BOUNDS_MS[i]!) i++;
    counts[i]!++;
  }
  return { boundsMs: [...HISTOGRAM_BOUNDS_MS], counts };
}
