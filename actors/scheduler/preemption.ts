// Preemption (the DefaultPreemption PostFilter): when no node fits a pod, look for nodes where
// evicting pods of lower priority would make it fit, keep as few victims as possible on each
// (reprieving the most important first), and pick the node the real scheduler would: the lowest
// highest-victim priority, then the lowest sum of victim priorities, then the fewest victims, then
// the latest start among the most important victims. The victims are then deleted and the pod is
// nominated to that node; it schedules there once they are gone.
//
// Nominated pods count as the real scheduler counts them: on every node, room is kept for the pods
// of equal or higher priority nominated there (the victims chosen leave room for them too), and a
// pod whose nominated node still holds a victim of its last preemption, terminating, waits for it
// rather than preempting again. A preemption clears the nominations of lower-priority pods on its node.
import type { Random } from '../api/env.ts';
import type { CycleResult } from './cycle.ts';
import { filterWithNominated, prepare, withNode, needsFreshState, cloneNode, type Prepared } from './filters.ts';
import type { FilterPlugin, NodeInfo, PodInfo, Snapshot } from './framework.ts';
import type { Nominator } from './nominator.ts';
import { addPod, removePod } from './pod-info.ts';

/** Filters whose rejection no eviction can cure: preemption skips nodes they ruled out. */
const UNRESOLVABLE = new Set(['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity']);
const UNRESOLVABLE_REASONS = new Set([
  "node(s) didn't match pod affinity rules",
  "node(s) didn't match pod topology spread constraints (missing required label)",
]);

export interface Preemption {
  node: string;
  victims: PodInfo[];
  /** Pods nominated to that node with a lower priority than the preemptor: their nominations are cleared. */
  unnominated: PodInfo[];
}

export type PreemptionResult = { ok: true; preemption: Preemption } | { ok: false; message: string };

/** The condition a victim of preemption carries (the real scheduler sets it before deleting it). */
export const PREEMPTED = { type: 'DisruptionTarget', reason: 'PreemptionByScheduler' } as const;

/** The real podTerminatingByPreemption: deleted, and marked as preempted by a scheduler. */
function terminatingByPreemption(pod: PodInfo): boolean {
  if (!pod.pod.metadata.deletionTimestamp) return false;
  const conditions = pod.pod.status?.conditions ?? [];
  return conditions.some((c) => c.type === PREEMPTED.type && c.status === 'True' && c.reason === PREEMPTED.reason);
}

/** What `fits` needs besides the pod, the node and the snapshot. */
interface Fitting {
  filters: readonly FilterPlugin[];
  /** The pod's filters prepared once over the whole snapshot (undefined: its state depends on each node's pods). */
  shared: Prepared | undefined;
  /** The pods nominated to the node being tried that the pod must leave room for. */
  room: readonly PodInfo[];
}

function fits(pod: PodInfo, node: NodeInfo, snapshot: Snapshot, f: Fitting): boolean {
  const view = f.shared ? snapshot : withNode(snapshot, node);
  const prepared = f.shared ?? prepare(pod, view, f.filters);
  return !('reject' in prepared) && !filterWithNominated(prepared, pod, view, node, f.room, f.filters);
}

const startMs = (p: PodInfo) => {
  const t = p.pod.status?.startTime;
  return t ? Date.parse(t) : Number.MAX_SAFE_INTEGER;
};

/** The fewest lower-priority pods whose eviction lets `pod` fit on `node`, or undefined. */
function selectVictims(pod: PodInfo, node: NodeInfo, snapshot: Snapshot, f: Fitting): PodInfo[] | undefined {
  const lower = node.pods.filter((p) => p.priority < pod.priority);
  if (lower.length === 0) return undefined;
  const trial = cloneNode(node);
  for (const p of lower) removePod(trial, p);
  if (!fits(pod, trial, snapshot, f)) return undefined;
  // Most important first: higher priority, then the one running longer.
  lower.sort((a, b) => b.priority - a.priority || startMs(a) - startMs(b));
  const victims: PodInfo[] = [];
  for (const p of lower) {
    addPod(trial, p);
    if (!fits(pod, trial, snapshot, f)) {
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
 * The real PodEligibleToPreemptOthers: why `pod` may not preempt now, or undefined. A pod nominated
 * to a node where a lower-priority pod is still terminating from a preemption waits for it, unless
 * a filter rules that node out for good.
 */
function notEligible(pod: PodInfo, failed: CycleResult, snapshot: Snapshot): string | undefined {
  if (pod.pod.spec?.preemptionPolicy === 'Never') return 'not eligible due to preemptionPolicy=Never.';
  const nominated = pod.pod.status?.nominatedNodeName;
  if (!nominated) return undefined;
  const rejection = failed.rejections.get(nominated);
  if (rejection && unresolvable(rejection)) return undefined;
  const node = snapshot.get(nominated);
  if (node?.pods.some((p) => p.priority < pod.priority && terminatingByPreemption(p))) return 'not eligible due to a terminating pod on the nominated node.';
  return undefined;
}

const unresolvable = (r: { plugin: string; reasons: string[] }) => UNRESOLVABLE.has(r.plugin) || r.reasons.some((x) => UNRESOLVABLE_REASONS.has(x));

/**
 * Looks for a preemption for `pod` after the failed cycle `failed`. Candidates are searched from a
 * random offset among the nodes a preemption could help, until max(100, 10%) candidates are found.
 */
export function findPreemption(pod: PodInfo, failed: CycleResult, snapshot: Snapshot, filters: readonly FilterPlugin[], random: Random, nominator?: Nominator): PreemptionResult {
  const total = snapshot.nodes.length;
  const ineligible = notEligible(pod, failed, snapshot);
  if (ineligible) return { ok: false, message: ineligible };
  const potential = failed.preFilterReject ? [] : snapshot.nodes.filter((n) => {
    const r = failed.rejections.get(n.name);
    return r && !unresolvable(r);
  });
  const notHelpful = total - potential.length;
  if (potential.length === 0) return { ok: false, message: `preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.` };
  const wanted = Math.min(potential.length, Math.max(100, Math.trunc(potential.length / 10)));
  const offset = Math.floor(random.next() * potential.length);
  const prepared = needsFreshState(pod, snapshot) ? undefined : prepare(pod, snapshot, filters);
  // A PreFilter that rejects the pod over the whole snapshot leaves no candidate (the cycle said so already).
  if (prepared && 'reject' in prepared) return { ok: false, message: `preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.` };
  const nominations = nominator?.size ? nominator : undefined;
  let best: Omit<Preemption, 'unnominated'> | undefined;
  let found = 0;
  let noVictims = 0;
  for (let i = 0; i < potential.length && found < wanted; i++) {
    const node = potential[(offset + i) % potential.length]!;
    const victims = selectVictims(pod, node, snapshot, { filters, shared: prepared, room: nominations?.roomFor(node.name, pod) ?? [] });
    if (!victims) {
      noVictims++;
      continue;
    }
    found++;
    if (victims.length === 0) continue; // it fits without evictions: nothing to preempt here
    if (!best || better(victims, best.victims)) best = { node: node.name, victims };
  }
  if (best) return { ok: true, preemption: { ...best, unnominated: nominations?.below(best.node, pod) ?? [] } };
  const parts = [`${noVictims} No preemption victims found for incoming pod`];
  if (notHelpful) parts.push(`${notHelpful} Preemption is not helpful for scheduling`);
  return { ok: false, message: `preemption: 0/${total} nodes are available: ${parts.sort().join(', ')}.` };
}
