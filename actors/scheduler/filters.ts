// Running a pod's filter plugins: PreFilter once per cycle (the cycle state and the filters that
// run), then Filter on a node; and Filter as the real scheduler runs it where pods are nominated
// (RunFilterPluginsWithNominatedPods): a pod must leave room for the pods of equal or higher
// priority nominated to the node, which wait there for their preemption's victims to go.
import { REASON_SEPARATOR, type CycleState, type FilterPlugin, type NodeInfo, type PodInfo, type Snapshot } from './framework.ts';
import { addPod, hasPodAffinity } from './pod-info.ts';

/** Why a node was filtered out: the plugin and each reason it gave. */
export interface NodeRejection {
  plugin: string;
  reasons: string[];
}

/** The first filter that rejected a node, and its reason. */
export interface Failure {
  plugin: string;
  reason: string;
}

/** A pod's filters after PreFilter: its cycle state and the filters that run in it. */
export interface Prepared {
  state: CycleState;
  filters: readonly FilterPlugin[];
}

/** The reasons a filter joined into one (NodeResourcesFit names each shortfall). */
export const reasonsOf = (reason: string) => (reason.includes(REASON_SEPARATOR) ? reason.split(REASON_SEPARATOR) : [reason]);

/** The first filter that rejects `node`, or undefined when it fits. */
export function runFilters(state: CycleState, input: { pod: PodInfo; snapshot: Snapshot; filters: readonly FilterPlugin[] }, node: NodeInfo): Failure | undefined {
  const filters = input.filters;
  for (let i = 0; i < filters.length; i++) {
    const reason = filters[i]!.filter(state, input.pod, node, input.snapshot);
    if (reason !== undefined) return { plugin: filters[i]!.name, reason };
  }
  return undefined;
}

/**
 * Runs every PreFilter in order: the filters that run this cycle (those that did not skip), or
 * the first rejection, which holds for every node.
 */
export function preFilter(state: CycleState, pod: PodInfo, snapshot: Snapshot, filters: readonly FilterPlugin[]): { filters: FilterPlugin[] } | { reject: NodeRejection } {
  const active: FilterPlugin[] = [];
  for (const f of filters) {
    const pre = f.preFilter?.(state, pod, snapshot);
    if (pre?.reject !== undefined) return { reject: { plugin: f.name, reasons: reasonsOf(pre.reject) } };
    if (!pre?.skip) active.push(f);
  }
  return { filters: active };
}

/** PreFilter in a fresh cycle state. */
export function prepare(pod: PodInfo, snapshot: Snapshot, filters: readonly FilterPlugin[]): Prepared | { reject: NodeRejection } {
  const state: CycleState = new Map();
  const pre = preFilter(state, pod, snapshot, filters);
  return 'reject' in pre ? pre : { state, filters: pre.filters };
}

/** A copy of `node` that can gain and lose pods without touching the original. */
export function cloneNode(node: NodeInfo): NodeInfo {
  return { ...node, requestedScalar: { ...node.requestedScalar }, pods: [...node.pods], usedPorts: new Set(node.usedPorts) };
}

/** The snapshot with one node replaced by `replacement`. */
export function withNode(snapshot: Snapshot, replacement: NodeInfo): Snapshot {
  const nodes = snapshot.nodes.map((n) => (n.name === replacement.name ? replacement : n));
  return {
    nodes,
    get: (name) => (name === replacement.name ? replacement : snapshot.get(name)),
    nodesWithAffinityPods: () => nodes.filter((n) => n.pods.some(hasPodAffinity)),
  };
}

/** Whether the pod's cycle state depends on other nodes' pods (then a changed node needs it computed again). */
export function needsFreshState(pod: PodInfo, snapshot: Snapshot): boolean {
  const spec = pod.pod.spec;
  return hasPodAffinity(pod) || !!spec?.topologySpreadConstraints?.length || snapshot.nodesWithAffinityPods().length > 0;
}

/**
 * The real RunFilterPluginsWithNominatedPods. `nominated`: the pods nominated to `node` that `pod`
 * must leave room for (priority at least its own, itself excluded). The filters run with them on
 * the node (and, where the pod's filters read other pods, in a cycle state computed with them);
 * if that passes, again without them, since they may not land: the pod must fit either way.
 */
export function filterWithNominated(prepared: Prepared, pod: PodInfo, snapshot: Snapshot, node: NodeInfo, nominated: readonly PodInfo[], all: readonly FilterPlugin[]): Failure | undefined {
  const plain = { pod, snapshot, filters: prepared.filters };
  if (nominated.length === 0) return runFilters(prepared.state, plain, node);
  const crowded = cloneNode(node);
  for (const p of nominated) addPod(crowded, p);
  let failure: Failure | undefined;
  if (needsFreshState(pod, snapshot) || nominated.some(hasPodAffinity)) {
    const view = withNode(snapshot, crowded);
    const fresh = prepare(pod, view, all);
    failure = 'reject' in fresh ? { plugin: fresh.reject.plugin, reason: fresh.reject.reasons.join(REASON_SEPARATOR) } : runFilters(fresh.state, { pod, snapshot: view, filters: fresh.filters }, crowded);
  } else failure = runFilters(prepared.state, plain, crowded);
  return failure ?? runFilters(prepared.state, plain, node);
}
