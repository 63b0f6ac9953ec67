// Preemption (the DefaultPreemption PostFilter): when no node fits a pod, look for nodes where
// evicting pods of lower priority would make it fit, keep as few victims as possible on each
// (reprieving the most important first), and pick the node the real scheduler would: the lowest
// highest-victim priority, then the lowest sum of victim priorities, then the fewest victims, then
// the latest start among the most important victims. The victims are then deleted and the pod is
// nominated to that node; it schedules there once they are gone.
import type { Random } from '../api/env.ts';
import { preFilter, runFilters, type CycleResult } from './cycle.ts';
import type { CycleState, FilterPlugin, NodeInfo, PodInfo, Snapshot } from './framework.ts';
import { addPod, hasPodAffinity, removePod } from './pod-info.ts';

/** Filters whose rejection no eviction can cure: preemption skips nodes they ruled out. */
const UNRESOLVABLE = new Set(['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity']);
const UNRESOLVABLE_REASONS = new Set([
  "node(s) didn't match pod affinity rules",
  "node(s) didn't match pod topology spread constraints (missing required label)",
]);

export interface Preemption {
  node: string;
  victims: PodInfo[];
}

export type PreemptionResult = { ok: true; preemption: Preemption } | { ok: false; message: string };

/** A copy of `node` that can lose and regain pods without touching the original. */
function cloneNode(node: NodeInfo): NodeInfo {
  return {
    ...node,
    requestedScalar: { ...node.requestedScalar },
    pods: [...node.pods],
    usedPorts: new Set(node.usedPorts),
  };
}

/** The snapshot with one node replaced by `replacement`. */
function withNode(snapshot: Snapshot, replacement: NodeInfo): Snapshot {
  const nodes = snapshot.nodes.map((n) => (n.name === replacement.name ? replacement : n));
  return {
    nodes,
    get: (name) => (name === replacement.name ? replacement : snapshot.get(name)),
    nodesWithAffinityPods: () => nodes.filter((n) => n.pods.some(hasPodAffinity)),
  };
}

/** Whether filters' pre-computed state depends on other nodes' pods (then it is recomputed per candidate). */
function needsFreshState(pod: PodInfo, snapshot: Snapshot): boolean {
  const spec = pod.pod.spec as { topologySpreadConstraints?: unknown[] } | undefined;
  return hasPodAffinity(pod) || !!spec?.topologySpreadConstraints?.length || snapshot.nodesWithAffinityPods().length > 0;
}

/** A cycle's state after PreFilter, and the filters that run in it. */
interface Prepared {
  state: CycleState;
  filters: readonly FilterPlugin[];
}

function prepare(pod: PodInfo, snapshot: Snapshot, filters: readonly FilterPlugin[]): Prepared | undefined {
  const state: CycleState = new Map();
  const pre = preFilter(state, pod, snapshot, filters);
  return 'reject' in pre ? undefined : { state, filters: pre.filters };
}

function fits(pod: PodInfo, node: NodeInfo, snapshot: Snapshot, filters: readonly FilterPlugin[], shared: Prepared | undefined): boolean {
  const view = shared ? snapshot : withNode(snapshot, node);
  const prepared = shared ?? prepare(pod, view, filters);
  return !!prepared && !runFilters(prepared.state, { pod, snapshot: view, filters: prepared.filters }, node);
}

const startMs = (p: PodInfo) => {
  const t = (p.pod.status as { startTime?: string } | undefined)?.startTime;
  return t ? Date.parse(t) : Number.MAX_SAFE_INTEGER;
};

/** The fewest lower-priority pods whose eviction lets `pod` fit on `node`, or undefined. */
function selectVictims(pod: PodInfo, node: NodeInfo, snapshot: Snapshot, filters: readonly FilterPlugin[], shared: Prepared | undefined): PodInfo[] | undefined {
  const lower = node.pods.filter((p) => p.priority < pod.priority);
  if (lower.length === 0) return undefined;
  const trial = cloneNode(node);
  for (const p of lower) removePod(trial, p);
  if (!fits(pod, trial, snapshot, filters, shared)) return undefined;
  // Most important first: higher priority, then the one running longer.
  lower.sort((a, b) => b.priority - a.priority || startMs(a) - startMs(b));
  const victims: PodInfo[] = [];
  for (const p of lower) {
    addPod(trial, p);
    if (!fits(pod, trial, snapshot, filters, shared)) {
      removePod(trial, p);
      victims.push(p);
    }
  }
  return victims;
}

function better(a: PodInfo[], b: PodInfo[]): boolean {
  const top = (v: PodInfo[]) => Math.max(...v.map((p) => p.priority));
  if (top(a) !== top(b)) return top(a) < top(b);
  const sum = (v: PodInfo[]) => v.reduce((s, p) => s + p.priority, 0);
  if (sum(a) !== sum(b)) return sum(a) < sum(b);
  if (a.length !== b.length) return a.length < b.length;
  const earliestTop = (v: PodInfo[]) => Math.min(...v.filter((p) => p.priority === top(v)).map(startMs));
  return earliestTop(a) > earliestTop(b);
}

/**
 * Looks for a preemption for `pod` after the failed cycle `failed`. Candidates are searched from a
 * random offset among the nodes a preemption could help, until max(100, 10%) candidates are found.
 */
export function findPreemption(pod: PodInfo, failed: CycleResult, snapshot: Snapshot, filters: readonly FilterPlugin[], random: Random): PreemptionResult {
  const total = snapshot.nodes.length;
  if ((pod.pod.spec as { preemptionPolicy?: string } | undefined)?.preemptionPolicy === 'Never')
    return { ok: false, message: `preemption: 0/${total} nodes are available: the pod's preemptionPolicy is Never.` };
  const potential = failed.preFilterReject ? [] : snapshot.nodes.filter((n) => {
    const r = failed.rejections.get(n.name);
    return r && !UNRESOLVABLE.has(r.plugin) && !r.reasons.some((x) => UNRESOLVABLE_REASONS.has(x));
  });
  const notHelpful = total - potential.length;
  if (potential.length === 0) return { ok: false, message: `preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.` };
  const wanted = Math.min(potential.length, Math.max(100, Math.trunc(potential.length / 10)));
  const offset = Math.floor(random.next() * potential.length);
  const shared = needsFreshState(pod, snapshot) ? undefined : prepare(pod, snapshot, filters);
  let best: Preemption | undefined;
  let found = 0;
  let noVictims = 0;
  for (let i = 0; i < potential.length && found < wanted; i++) {
    const node = potential[(offset + i) % potential.length]!;
    const victims = selectVictims(pod, node, snapshot, filters, shared);
    if (!victims) {
      noVictims++;
      continue;
    }
    found++;
    if (victims.length === 0) continue; // it fits without evictions: nothing to preempt here
    if (!best || better(victims, best.victims)) best = { node: node.name, victims };
  }
  if (best) return { ok: true, preemption: best };
  const parts = [`${noVictims} No preemption victims found for incoming pod`];
  if (notHelpful) parts.push(`${notHelpful} Preemption is not helpful for scheduling`);
  return { ok: false, message: `preemption: 0/${total} nodes are available: ${parts.sort().join(', ')}.` };
}
