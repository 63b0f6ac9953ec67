// PodTopologySpread: spreads matching pods evenly over topology domains (zones, hosts, ...).
// DoNotSchedule constraints filter: placing the pod in a domain must keep that domain's count of
// matching pods (plus the pod itself, when it matches) within maxSkew of the least loaded eligible
// domain (taken as 0 while fewer than minDomains domains exist). ScheduleAnyway constraints score:
// fewer matching pods in the node's domains is better, each constraint weighted by log(domains + 2).
// Counts are taken once per pod in preFilter/preScore (each node's count memoised until its pods
// change), over the nodes that pass the constraint's node inclusion policies (node affinity
// honoured, taints ignored, unless the constraint says otherwise); only pods in the pod's own
// namespace and not terminating count.
import type { Matcher } from '../../api/selectors.ts';
import type { KObject } from '../../api/types.ts';
import { compileLabelSelector, InvalidSelectorError, labelValue, type LabelSelector } from '../label-selector.ts';
import { cycleValue, MAX_NODE_SCORE, type FilterPlugin, type NodeInfo, type PodInfo, type ScorePlugin, type Snapshot } from '../framework.ts';
import { requiredNodeAffinity } from './node-affinity.ts';
import { countPods } from './pod-counts.ts';
import { podTolerations, untoleratedTaint } from './taint-toleration.ts';

const NAME = 'PodTopologySpread';
const PRE_FILTER = `PreFilter${NAME}`;
const PRE_SCORE = `PreScore${NAME}`;
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

export const REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const REASON_NODE_LABEL_NOT_MATCH = `${REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;

export interface TopologySpreadConstraintSpec {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: string;
  labelSelector?: LabelSelector | null;
  minDomains?: number;
  nodeAffinityPolicy?: string;
  nodeTaintsPolicy?: string;
  matchLabelKeys?: string[];
}

export interface PodTopologySpreadOptions {
  /**
   * The selector of the Services, ReplicaSets and StatefulSets owning the pod (the real plugin
   * asks its listers). When it gives one and the pod has no constraints of its own, the system
   * default constraints score the pod: hostname maxSkew 3 and zone maxSkew 5, ScheduleAnyway.
   */
  defaultSelector?(pod: KObject): Matcher | undefined;
}

interface Constraint {
  maxSkew: number;
  topologyKey: string;
  minDomains: number;
  honorAffinity: boolean;
  honorTaints: boolean;
  /** The selector is empty: as in the real plugin, it counts no existing pod (though it matches the pod itself). */
  countsNone: boolean;
  matches(pod: PodInfo): boolean;
  /** An existing pod that counts: in the incoming pod's namespace, not terminating, matching. */
  counts(pod: PodInfo): boolean;
  /** Names `counts` for memoised counting (none for a default selector, which has no text). */
  countKey: string | undefined;
}

interface PodConstraints {
  /** Every constraint the pod declares, of either kind. */
  declared: number;
  hard: Constraint[];
  soft: Constraint[];
  error?: string;
}

function compileConstraint(c: TopologySpreadConstraintSpec, pod: PodInfo): Constraint {
  let extra: Record<string, string> | undefined;
  for (const key of c.matchLabelKeys ?? []) {
    const value = labelValue(pod.labels, key);
    if (value !== undefined) (extra ??= {})[key] = value;
  }
  const selector = compileLabelSelector(c.labelSelector, extra);
  const namespace = pod.namespace;
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    minDomains: c.minDomains ?? 1,
    honorAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
    honorTaints: c.nodeTaintsPolicy === 'Honor',
    countsNone: selector.everything,
    matches: (p) => selector.matches(p.labels),
    counts: (p) => p.namespace === namespace && !p.pod.metadata.deletionTimestamp && selector.matches(p.labels),
    countKey: `spread\0${namespace}\0${selector.text}`,
  };
}

const compiledCache = new WeakMap<PodInfo, PodConstraints>();
const NO_CONSTRAINTS_DECLARED: PodConstraints = { declared: 0, hard: [], soft: [] };

function podConstraints(pod: PodInfo): PodConstraints {
  let compiled = compiledCache.get(pod);
  if (compiled) return compiled;
  const specs = pod.pod.spec?.topologySpreadConstraints ?? [];
  if (specs.length === 0) return NO_CONSTRAINTS_DECLARED; // most pods: nothing to remember (a weak map entry per pod weighs on the collector)
  compiled = { declared: specs.length, hard: [], soft: [] };
  try {
    for (const c of specs) {
      if (c.whenUnsatisfiable === 'DoNotSchedule') compiled.hard.push(compileConstraint(c, pod));
      else if (c.whenUnsatisfiable === 'ScheduleAnyway') compiled.soft.push(compileConstraint(c, pod));
    }
  } catch (e) {
    if (!(e instanceof InvalidSelectorError)) throw e;
    compiled = { declared: specs.length, hard: [], soft: [], error: `obtaining pod's topology spread constraints: ${e.message}` };
  }
  compiledCache.set(pod, compiled);
  return compiled;
}

function systemDefaults(matcher: Matcher, namespace: string): Constraint[] {
  const common = {
    minDomains: 1, honorAffinity: true, honorTaints: false, countsNone: false, countKey: undefined,
    matches: (p: PodInfo) => matcher(p.pod),
    counts: (p: PodInfo) => p.namespace === namespace && !p.pod.metadata.deletionTimestamp && matcher(p.pod),
  };
  return [
    { ...common, maxSkew: 3, topologyKey: HOSTNAME_LABEL },
    { ...common, maxSkew: 5, topologyKey: ZONE_LABEL },
  ];
}

function hasAllKeys(node: NodeInfo, constraints: readonly Constraint[]): boolean {
  for (let i = 0; i < constraints.length; i++) if (labelValue(node.labels, constraints[i]!.topologyKey) === undefined) return false;
  return true;
}

function countMatching(node: NodeInfo, c: Constraint): number {
  return c.countsNone ? 0 : countPods(node, c.countKey, c.counts);
}

/** Whether the node passes the constraint's node inclusion policies for this pod. */
class Inclusion {
  readonly #affinity;
  readonly #tolerations;
  constructor(pod: PodInfo) {
    this.#affinity = requiredNodeAffinity(pod);
    this.#tolerations = podTolerations(pod);
  }
  includes(c: Constraint, node: NodeInfo): boolean {
    if (c.honorAffinity && !this.#affinity(node)) return false;
    return !(c.honorTaints && untoleratedTaint(node.taints, this.#tolerations));
  }
}

interface FilterState {
  constraints: Constraint[];
  /** Per constraint: matching pods per domain (topology value) among eligible nodes. */
  counts: Map<string, number>[];
  /** Per constraint: the global minimum the skew is measured from. */
  minMatch: number[];
  /** Per constraint: 1 when the incoming pod matches its own selector. */
  selfMatch: number[];
  error?: string;
}

const NO_CONSTRAINTS: FilterState = { constraints: [], counts: [], minMatch: [], selfMatch: [] };

function filterState(pod: PodInfo, snapshot: Snapshot): FilterState {
  const { hard: constraints, error } = podConstraints(pod);
  if (error) return { constraints: [], counts: [], minMatch: [], selfMatch: [], error };
  if (constraints.length === 0) return NO_CONSTRAINTS;
  const counts = constraints.map(() => new Map<string, number>());
  if (constraints.length > 0) {
    const inclusion = new Inclusion(pod);
    for (const node of snapshot.nodes) {
      if (!hasAllKeys(node, constraints)) continue;
      for (let i = 0; i < constraints.length; i++) {
        const c = constraints[i]!;
        if (!inclusion.includes(c, node)) continue;
        const value = labelValue(node.labels, c.topologyKey)!;
        counts[i]!.set(value, (counts[i]!.get(value) ?? 0) + countMatching(node, c));
      }
    }
  }
  const minMatch = constraints.map((c, i) => {
    if (counts[i]!.size < c.minDomains) return 0;
    let min = Infinity;
    for (const n of counts[i]!.values()) if (n < min) min = n;
    return min;
  });
  return { constraints, counts, minMatch, selfMatch: constraints.map((c) => (c.matches(pod) ? 1 : 0)) };
}

interface ScoreState {
  constraints: Constraint[];
  /** Feasible nodes lacking a topology key of the pod's own constraints: they score 0. */
  ignored: Set<NodeInfo>;
  /** preScore's node list, ignored or not, for normalize (which sees scores in that order). */
  ignoredAt: boolean[];
  /** Per constraint: matching pods per domain of the feasible nodes (undefined for hostname: counted per node). */
  counts: (Map<string, number> | undefined)[];
  weights: number[];
}

/** Matching pods in the node's domains, weighted per constraint, plus maxSkew - 1 (to tolerate small skews). */
function spreadScore(s: ScoreState, node: NodeInfo): number {
  if (s.constraints.length === 0 || s.ignored.has(node)) return 0;
  let score = 0;
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    const value = labelValue(node.labels, c.topologyKey);
    if (value === undefined) continue;
    const domain = s.counts[i];
    const count = domain ? (domain.get(value) ?? 0) : countMatching(node, c);
    score += count * s.weights[i]! + (c.maxSkew - 1);
  }
  return Math.round(score);
}

const SKIP: ScoreState = { constraints: [], ignored: new Set(), ignoredAt: [], counts: [], weights: [] };

function scoreState(pod: PodInfo, feasible: readonly NodeInfo[], snapshot: Snapshot, options: PodTopologySpreadOptions): ScoreState {
  const own = podConstraints(pod);
  let constraints = own.soft;
  if (own.declared === 0) {
    const matcher = options.defaultSelector?.(pod.pod);
    constraints = matcher ? systemDefaults(matcher, pod.namespace) : [];
  }
  if (constraints.length === 0 || snapshot.nodes.length === 0) return SKIP;
  // With the system defaults, nodes without a zone label still spread by hostname.
  const requireAll = own.declared > 0;
  const ignored = new Set<NodeInfo>();
  const ignoredAt: boolean[] = [];
  const counts = constraints.map((c) => (c.topologyKey === HOSTNAME_LABEL ? undefined : new Map<string, number>()));
  for (const node of feasible) {
    const skip = requireAll && !hasAllKeys(node, constraints);
    ignoredAt.push(skip);
    if (skip) {
      ignored.add(node);
      continue;
    }
    for (let i = 0; i < constraints.length; i++) counts[i]?.set(labelValue(node.labels, constraints[i]!.topologyKey) ?? '', 0);
  }
  const weights = constraints.map((c, i) => Math.log((counts[i]?.size ?? feasible.length - ignored.size) + 2));
  const inclusion = new Inclusion(pod);
  for (const node of snapshot.nodes) {
    if (requireAll && !hasAllKeys(node, constraints)) continue;
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i]!;
      const domain = counts[i];
      const value = labelValue(node.labels, c.topologyKey) ?? '';
      const current = domain?.get(value);
      if (current === undefined || !inclusion.includes(c, node)) continue;
      domain!.set(value, current + countMatching(node, c));
    }
  }
  return { constraints, ignored, ignoredAt, counts, weights };
}

export function podTopologySpread(options: PodTopologySpreadOptions = {}): FilterPlugin & ScorePlugin {
  return {
    name: NAME,
    weight: 2,
    preFilter(state, pod, snapshot) {
      const s = filterState(pod, snapshot);
      state.set(PRE_FILTER, s);
      if (s.error) return { reject: s.error };
      if (s.constraints.length === 0) return { skip: true }; // no DoNotSchedule constraints
    },
    filter(state, pod, node, snapshot) {
      const s = cycleValue(state, PRE_FILTER, () => filterState(pod, snapshot));
      for (let i = 0; i < s.constraints.length; i++) {
        const c = s.constraints[i]!;
        const value = labelValue(node.labels, c.topologyKey);
        if (value === undefined) return REASON_NODE_LABEL_NOT_MATCH;
        const skew = (s.counts[i]!.get(value) ?? 0) + s.selfMatch[i]! - s.minMatch[i]!;
        if (skew > c.maxSkew) return REASON_CONSTRAINTS_NOT_MATCH;
      }
      return undefined;
    },
    preScore(state, pod, nodes, snapshot) {
      const s = scoreState(pod, nodes, snapshot, options);
      state.set(PRE_SCORE, s);
      if (s.constraints.length === 0) return 'skip'; // as the real plugin: no soft constraints to score
    },
    /** Each node: matching pods in its domains, weighted per constraint, plus maxSkew - 1. */
    score(state, pod, nodes, snapshot, out) {
      const s = cycleValue(state, PRE_SCORE, () => scoreState(pod, nodes, snapshot, options));
      for (let k = 0; k < nodes.length; k++) out[k] = spreadScore(s, nodes[k]!);
    },
    /** Reversed min-max: the node with the fewest matching pods gets MAX_NODE_SCORE; ignored nodes get 0. */
    normalize(state, _pod, scores) {
      const s = state.get(PRE_SCORE) as ScoreState | undefined;
      if (!s || s.constraints.length === 0) return;
      let min = Infinity, max = 0;
      for (let i = 0; i < scores.length; i++) {
        if (s.ignoredAt[i]) continue;
        min = Math.min(min, scores[i]!);
        max = Math.max(max, scores[i]!);
      }
      for (let i = 0; i < scores.length; i++) {
        if (s.ignoredAt[i]) scores[i] = 0;
        else if (max === 0) scores[i] = MAX_NODE_SCORE;
        else scores[i] = ((MAX_NODE_SCORE * (max + min - scores[i]!)) / max) | 0;
      }
    },
  };
}
