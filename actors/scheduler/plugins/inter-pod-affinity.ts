// InterPodAffinity: places pods relative to other pods in the same topology domain. Filtering
// enforces the pod's required affinity (some matching pod already in the node's domain for every
// term, except that the first pod of a group matching its own terms may go anywhere), its required
// anti-affinity, and the required anti-affinity of pods already placed. Scoring adds the weights of
// the pod's preferred terms, the existing pods' preferred terms and (with hardPodAffinityWeight)
// their required affinity, then rescales min-max to 0..MAX_NODE_SCORE. Matching pods are counted
// per (topologyKey, value) once per pod in preFilter/preScore. A namespaceSelector other than {}
// is matched against namespaceLabels (by default only kubernetes.io/metadata.name=<namespace>).
import { compileLabelSelector, InvalidSelectorError, labelValue, type CompiledSelector, type Labels, type LabelSelector } from '../label-selector.ts';
import { cycleValue, MAX_NODE_SCORE, type FilterPlugin, type NodeInfo, type PodInfo, type ScorePlugin, type Snapshot } from '../framework.ts';
import { podsWithAffinity } from '../pod-info.ts';
import { countPods } from './pod-counts.ts';

const NAME = 'InterPodAffinity';
const PRE_FILTER = `PreFilter${NAME}`;
const PRE_SCORE = `PreScore${NAME}`;
export const REASON_AFFINITY = "node(s) didn't match pod affinity rules";
export const REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
export const REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";

export interface PodAffinityTermSpec {
  labelSelector?: LabelSelector | null;
  namespaces?: string[];
  namespaceSelector?: LabelSelector | null;
  topologyKey: string;
}

interface TermsSpec {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTermSpec[];
  preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; podAffinityTerm: PodAffinityTermSpec }[];
}

export interface InterPodAffinityOptions {
  /**
   * A namespace's labels, for terms with a namespaceSelector. By default a namespace has only the
   * label every real namespace carries: kubernetes.io/metadata.name=<name>.
   */
  namespaceLabels?(namespace: string): Labels | undefined;
  /** The weight an existing pod's required affinity term gives a node whose domain it names (default 1, as the real plugin). */
  hardPodAffinityWeight?: number;
}

interface AffinityTerm {
  selector: CompiledSelector;
  namespaces: ReadonlySet<string>;
  namespaceSelector: CompiledSelector;
  topologyKey: string;
  weight: number;
  /** Names the term's pod matching for memoised counts; none when a namespace selector needs namespace labels. */
  key: string | undefined;
}

interface PodTerms {
  requiredAffinity: AffinityTerm[];
  requiredAnti: AffinityTerm[];
  preferredAffinity: AffinityTerm[];
  preferredAnti: AffinityTerm[];
  error?: string;
}

type NamespaceLabels = (namespace: string) => Labels;
/** Per topology key, per value: a count or a score. */
type TopologyCounts = Map<string, Map<string, number>>;

function compileTerm(pod: PodInfo, t: PodAffinityTermSpec, weight: number): AffinityTerm {
  const own = (t.namespaces?.length ?? 0) === 0 && t.namespaceSelector == null;
  const namespaces = own ? [pod.namespace] : (t.namespaces ?? []);
  const selector = compileLabelSelector(t.labelSelector);
  const namespaceSelector = compileLabelSelector(t.namespaceSelector);
  const plain = namespaceSelector.nothing || namespaceSelector.everything;
  return {
    selector,
    namespaces: new Set(namespaces),
    namespaceSelector,
    topologyKey: t.topologyKey,
    weight,
    key: plain ? `term\0${[...namespaces].sort().join(',')}\0${namespaceSelector.text}\0${selector.text}` : undefined,
  };
}

const termsCache = new WeakMap<PodInfo, PodTerms>();
const NO_TERMS: PodTerms = { requiredAffinity: [], requiredAnti: [], preferredAffinity: [], preferredAnti: [] };

function podTerms(pod: PodInfo): PodTerms {
  let terms = termsCache.get(pod);
  if (terms) return terms;
  const affinity = pod.pod.spec?.affinity;
  if (!affinity) return NO_TERMS; // most pods: nothing to remember (a weak map entry per pod weighs on the collector)
  const required = (s: TermsSpec | undefined) => (s?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => compileTerm(pod, t, 1));
  const preferred = (s: TermsSpec | undefined) =>
    (s?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((p) => compileTerm(pod, p.podAffinityTerm, p.weight));
  try {
    terms = !affinity ? NO_TERMS : {
      requiredAffinity: required(affinity.podAffinity),
      requiredAnti: required(affinity.podAntiAffinity),
      preferredAffinity: preferred(affinity.podAffinity),
      preferredAnti: preferred(affinity.podAntiAffinity),
    };
  } catch (e) {
    if (!(e instanceof InvalidSelectorError)) throw e;
    terms = { ...NO_TERMS, error: `parsing pod affinity terms: ${e.message}` };
  }
  termsCache.set(pod, terms);
  return terms;
}

function termMatches(t: AffinityTerm, pod: PodInfo, nsLabels: NamespaceLabels): boolean {
  if (!t.namespaces.has(pod.namespace)) {
    const ns = t.namespaceSelector;
    if (ns.nothing || (!ns.everything && !ns.matches(nsLabels(pod.namespace)))) return false;
  }
  return t.selector.matches(pod.labels);
}

function matchesAll(terms: readonly AffinityTerm[], pod: PodInfo, nsLabels: NamespaceLabels): boolean {
  if (terms.length === 0) return false;
  for (let i = 0; i < terms.length; i++) if (!termMatches(terms[i]!, pod, nsLabels)) return false;
  return true;
}

function add(counts: TopologyCounts, key: string, node: NodeInfo, by: number): boolean {
  const value = labelValue(node.labels, key);
  if (value === undefined) return false;
  let values = counts.get(key);
  if (!values) counts.set(key, (values = new Map()));
  values.set(value, (values.get(value) ?? 0) + by);
  return true;
}

function hasLabels(node: NodeInfo): boolean {
  for (const _ in node.labels) return true;
  return false;
}

function countAt(counts: TopologyCounts, key: string, value: string): number {
  return counts.get(key)?.get(value) ?? 0;
}

interface Counter {
  key: string | undefined;
  matches(pod: PodInfo): boolean;
}

function termCounter(t: AffinityTerm, nsLabels: NamespaceLabels): Counter {
  return { key: t.key, matches: (p) => termMatches(t, p, nsLabels) };
}

/** Pods matching every term at once (what required affinity counts). */
function allTermsCounter(terms: readonly AffinityTerm[], nsLabels: NamespaceLabels): Counter {
  const memoisable = terms.every((t) => t.key !== undefined);
  return { key: memoisable ? `all\u0001${terms.map((t) => t.key).join('\u0001')}` : undefined, matches: (p) => matchesAll(terms, p, nsLabels) };
}

function namespaceLabelsOf(options: InterPodAffinityOptions): NamespaceLabels {
  const cache = new Map<string, Labels>();
  return (namespace) => {
    let labels = cache.get(namespace);
    if (!labels) {
      labels = options.namespaceLabels?.(namespace) ?? { 'kubernetes.io/metadata.name': namespace };
      cache.set(namespace, labels);
    }
    return labels;
  };
}

interface FilterState {
  terms: PodTerms;
  /** Domains holding pods that match all the pod's required affinity terms. */
  affinity: TopologyCounts;
  /** Domains holding pods that match one of the pod's required anti-affinity terms. */
  anti: TopologyCounts;
  /** Domains where an existing pod's required anti-affinity term matches the pod, as parallel lists. */
  existingAntiKeys: string[];
  existingAntiValues: Map<string, number>[];
  /** The pod matches all its own required affinity terms (it may start a group). */
  selfMatch: boolean;
}

const NOTHING_TO_CHECK: FilterState = { terms: NO_TERMS, affinity: new Map(), anti: new Map(), existingAntiKeys: [], existingAntiValues: [], selfMatch: false };

function filterState(pod: PodInfo, snapshot: Snapshot, options: InterPodAffinityOptions): FilterState {
  const terms = podTerms(pod);
  // No terms of its own and no placed pod with any: nothing to count (the common case).
  if (terms === NO_TERMS && snapshot.nodesWithAffinityPods().length === 0) return NOTHING_TO_CHECK;
  const nsLabels = namespaceLabelsOf(options);
  const existingAnti: TopologyCounts = new Map();
  for (const node of snapshot.nodesWithAffinityPods()) {
    for (const existing of podsWithAffinity(node)) {
      for (const t of podTerms(existing).requiredAnti) if (termMatches(t, pod, nsLabels)) add(existingAnti, t.topologyKey, node, 1);
    }
  }
  const s: FilterState = {
    terms, affinity: new Map(), anti: new Map(), selfMatch: false,
    existingAntiKeys: [...existingAnti.keys()], existingAntiValues: [...existingAnti.values()],
  };
  const { requiredAffinity, requiredAnti } = terms;
  if (requiredAffinity.length === 0 && requiredAnti.length === 0) return s;
  const all = allTermsCounter(requiredAffinity, nsLabels);
  const anti = requiredAnti.map((t) => termCounter(t, nsLabels));
  for (const node of snapshot.nodes) {
    const matching = requiredAffinity.length > 0 ? countPods(node, all.key, all.matches) : 0;
    if (matching > 0) for (const t of requiredAffinity) add(s.affinity, t.topologyKey, node, matching);
    for (let i = 0; i < requiredAnti.length; i++) {
      const n = countPods(node, anti[i]!.key, anti[i]!.matches);
      if (n > 0) add(s.anti, requiredAnti[i]!.topologyKey, node, n);
    }
  }
  s.selfMatch = matchesAll(requiredAffinity, pod, nsLabels);
  return s;
}

function affinityReason(s: FilterState, node: NodeInfo): string | undefined {
  const terms = s.terms.requiredAffinity;
  let podsExist = true;
  for (let i = 0; i < terms.length; i++) {
    const value = labelValue(node.labels, terms[i]!.topologyKey);
    if (value === undefined) return REASON_AFFINITY; // every term's topology key must be on the node
    if (countAt(s.affinity, terms[i]!.topologyKey, value) <= 0) podsExist = false;
  }
  // No pod anywhere matches the terms yet, but the pod matches them itself: it starts the group.
  if (!podsExist && !(s.affinity.size === 0 && s.selfMatch)) return REASON_AFFINITY;
  return undefined;
}

function antiAffinityReason(s: FilterState, node: NodeInfo): string | undefined {
  const terms = s.terms.requiredAnti;
  for (let i = 0; i < terms.length; i++) {
    const value = labelValue(node.labels, terms[i]!.topologyKey);
    if (value !== undefined && countAt(s.anti, terms[i]!.topologyKey, value) > 0) return REASON_ANTI_AFFINITY;
  }
  for (let i = 0; i < s.existingAntiKeys.length; i++) {
    const value = labelValue(node.labels, s.existingAntiKeys[i]!);
    if (value !== undefined && (s.existingAntiValues[i]!.get(value) ?? 0) > 0) return REASON_EXISTING_ANTI_AFFINITY;
  }
  return undefined;
}

interface ScoreState {
  /** Nothing matched anywhere: the plugin scores every node 0 and does not normalise. */
  skip: boolean;
  keys: string[];
  values: Map<string, number>[];
}

const NOTHING_TO_SCORE: ScoreState = { skip: true, keys: [], values: [] };

function scoreState(pod: PodInfo, snapshot: Snapshot, options: InterPodAffinityOptions): ScoreState {
  const terms = podTerms(pod);
  if (terms === NO_TERMS && snapshot.nodesWithAffinityPods().length === 0) return NOTHING_TO_SCORE;
  const nsLabels = namespaceLabelsOf(options);
  const hardWeight = options.hardPodAffinityWeight ?? 1;
  const topology: TopologyCounts = new Map();
  let matched = false;
  // The pod's own preferred terms, against every pod.
  const own = [
    ...terms.preferredAffinity.map((t) => ({ t, weight: t.weight, counter: termCounter(t, nsLabels) })),
    ...terms.preferredAnti.map((t) => ({ t, weight: -t.weight, counter: termCounter(t, nsLabels) })),
  ];
  if (own.length > 0) {
    for (const node of snapshot.nodes) {
      if (!hasLabels(node)) continue;
      for (const { t, weight, counter } of own) {
        const n = countPods(node, counter.key, counter.matches);
        if (n > 0) matched = add(topology, t.topologyKey, node, weight * n) || matched;
      }
    }
  }
  // The terms of pods already placed, against the pod.
  for (const node of snapshot.nodesWithAffinityPods()) {
    if (!hasLabels(node)) continue;
    for (const existing of podsWithAffinity(node)) {
      const theirs = podTerms(existing);
      if (hardWeight > 0) {
        for (const t of theirs.requiredAffinity) if (termMatches(t, pod, nsLabels)) matched = add(topology, t.topologyKey, node, hardWeight) || matched;
      }
      for (const t of theirs.preferredAffinity) if (termMatches(t, pod, nsLabels)) matched = add(topology, t.topologyKey, node, t.weight) || matched;
      for (const t of theirs.preferredAnti) if (termMatches(t, pod, nsLabels)) matched = add(topology, t.topologyKey, node, -t.weight) || matched;
    }
  }
  return { skip: !matched, keys: [...topology.keys()], values: [...topology.values()] };
}

export function interPodAffinity(options: InterPodAffinityOptions = {}): FilterPlugin & ScorePlugin {
  return {
    name: NAME,
    weight: 2,
    preFilter(state, pod, snapshot) {
      const s = filterState(pod, snapshot, options);
      state.set(PRE_FILTER, s);
      if (s.terms.error) return { reject: s.terms.error };
      // No required terms of its own and no placed pod's anti-affinity against it: nothing to check.
      if (s.terms.requiredAffinity.length === 0 && s.terms.requiredAnti.length === 0 && s.existingAntiKeys.length === 0) return { skip: true };
    },
    filter(state, pod, node, snapshot) {
      const s = cycleValue(state, PRE_FILTER, () => filterState(pod, snapshot, options));
      return affinityReason(s, node) ?? antiAffinityReason(s, node);
    },
    preScore(state, pod, _nodes, snapshot) {
      const s = scoreState(pod, snapshot, options);
      state.set(PRE_SCORE, s);
      // No preferred terms on the pod or on existing pods that could match: every node scores 0.
      if (s.keys.length === 0) return 'skip';
    },
    /** The summed weights recorded for the node's domains: positive for affinity, negative for anti-affinity. */
    score(state, pod, nodes, snapshot, out) {
      const s = cycleValue(state, PRE_SCORE, () => scoreState(pod, snapshot, options));
      for (let k = 0; k < nodes.length; k++) {
        const labels = nodes[k]!.labels;
        let score = 0;
        for (let i = 0; i < s.keys.length; i++) {
          const value = labelValue(labels, s.keys[i]!);
          if (value !== undefined) score += s.values[i]!.get(value) ?? 0;
        }
        out[k] = score;
      }
    },
    normalize(state, _pod, scores) {
      const s = state.get(PRE_SCORE) as ScoreState | undefined;
      if (!s || s.skip) return;
      let min = Infinity, max = -Infinity;
      for (const v of scores) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
      const diff = max - min;
      for (let i = 0; i < scores.length; i++) scores[i] = diff > 0 ? (MAX_NODE_SCORE * ((scores[i]! - min) / diff)) | 0 : 0;
    },
  };
}
