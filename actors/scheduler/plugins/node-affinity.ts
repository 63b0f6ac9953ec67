// NodeAffinity: spec.nodeSelector and the required node affinity terms decide which nodes a pod
// may use; the preferred terms' weights rate the feasible ones. Terms are ORed, a term's label
// expressions and field expressions ANDed; an empty term selects nothing, and a term that does not
// compile (an unknown operator, Gt with two values, a field other than metadata.name) matches no
// node while the pod's other terms still count, as the real scheduler's lazy-error selector does.
import { compileNodeSelectorRequirements, InvalidSelectorError, selectorFromSet, type CompiledSelector, type LabelSelectorRequirement } from '../label-selector.ts';
import type { FilterPlugin, NodeInfo, PodInfo, ScorePlugin } from '../framework.ts';
import { defaultNormalizeScore } from './normalize-score.ts';

const NAME = 'NodeAffinity';
const PRE_FILTER = `PreFilter${NAME}`;
const PRE_SCORE = `PreScore${NAME}`;

export interface NodeSelectorTerm {
  matchExpressions?: LabelSelectorRequirement[];
  matchFields?: LabelSelectorRequirement[];
}

interface NodeAffinitySpec {
  nodeSelector?: Record<string, string>;
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } | null;
      preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[];
    };
  };
}

/** One compiled term; `invalid` terms never match. */
interface Term {
  labels: CompiledSelector | undefined;
  /** metadata.name must be (In) or must not be (NotIn) each of these. */
  nameIn: string[];
  nameNotIn: string[];
  invalid: boolean;
}

export type NodeMatcher = (node: NodeInfo) => boolean;

function isEmptyTerm(term: NodeSelectorTerm): boolean {
  return (term.matchExpressions?.length ?? 0) === 0 && (term.matchFields?.length ?? 0) === 0;
}

function compileTerm(term: NodeSelectorTerm): Term {
  const compiled: Term = { labels: undefined, nameIn: [], nameNotIn: [], invalid: false };
  try {
    if (term.matchExpressions?.length) compiled.labels = compileNodeSelectorRequirements(term.matchExpressions);
  } catch (e) {
    if (!(e instanceof InvalidSelectorError)) throw e;
    compiled.invalid = true;
  }
  for (const f of term.matchFields ?? []) {
    const one = f.values?.length === 1 ? f.values[0]! : undefined;
    if (f.key !== 'metadata.name' || one === undefined) compiled.invalid = true;
    else if (f.operator === 'In') compiled.nameIn.push(one);
    else if (f.operator === 'NotIn') compiled.nameNotIn.push(one);
    else compiled.invalid = true;
  }
  return compiled;
}

function termMatches(term: Term, node: NodeInfo): boolean {
  if (term.invalid) return false;
  if (term.labels && !term.labels.matches(node.labels)) return false;
  for (const name of term.nameIn) if (node.name !== name) return false;
  for (const name of term.nameNotIn) if (node.name === name) return false;
  return true;
}

const requiredCache = new WeakMap<PodInfo, NodeMatcher>();
const anyNode: NodeMatcher = () => true;

/**
 * The pod's required node affinity (nodeSelector AND the required terms) as a node predicate,
 * compiled once per PodInfo. PodTopologySpread uses it for its node inclusion policy.
 */
export function requiredNodeAffinity(pod: PodInfo): NodeMatcher {
  let matcher = requiredCache.get(pod);
  if (matcher) return matcher;
  const spec = (pod.pod.spec ?? {}) as NodeAffinitySpec;
  const selector = spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0 ? selectorFromSet(spec.nodeSelector) : undefined;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = required ? (required.nodeSelectorTerms ?? []).filter((t) => !isEmptyTerm(t)).map(compileTerm) : undefined;
  if (!selector && !terms) return anyNode; // most pods: nothing to remember (a weak map entry per pod weighs on the collector)
  matcher = (node) => {
    if (selector && !selector.matches(node.labels)) return false;
    if (!terms) return true;
    for (let i = 0; i < terms.length; i++) if (termMatches(terms[i]!, node)) return true;
    return false;
  };
  requiredCache.set(pod, matcher);
  return matcher;
}

interface WeightedTerm {
  weight: number;
  term: Term;
}

function preferredTerms(pod: PodInfo): WeightedTerm[] {
  const preferred = ((pod.pod.spec ?? {}) as NodeAffinitySpec).affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  return preferred
    .filter((p) => p.weight !== 0 && p.preference && !isEmptyTerm(p.preference))
    .map((p) => ({ weight: p.weight, term: compileTerm(p.preference) }))
    .filter((p) => !p.term.invalid);
}

export const nodeAffinity: FilterPlugin & ScorePlugin = {
  name: NAME,
  weight: 2,
  preFilter(state, pod) {
    const matcher = requiredNodeAffinity(pod);
    if (matcher === anyNode) return { skip: true }; // no nodeSelector, no required terms
    state.set(PRE_FILTER, matcher);
  },
  filter(state, pod, node) {
    const matches = (state.get(PRE_FILTER) as NodeMatcher | undefined) ?? requiredNodeAffinity(pod);
    return matches(node) ? undefined : "node(s) didn't match Pod's node affinity/selector";
  },
  preScore(state, pod) {
    const terms = preferredTerms(pod);
    state.set(PRE_SCORE, terms);
    if (terms.length === 0) return 'skip'; // as the real plugin: no preferred terms, nothing to score
  },
  /** The sum of the weights of the preferred terms the node matches. */
  score(state, pod, nodes, _snapshot, out) {
    let terms = state.get(PRE_SCORE) as WeightedTerm[] | undefined;
    if (!terms) state.set(PRE_SCORE, (terms = preferredTerms(pod)));
    for (let k = 0; k < nodes.length; k++) {
      let sum = 0;
      for (let i = 0; i < terms.length; i++) if (termMatches(terms[i]!.term, nodes[k]!)) sum += terms[i]!.weight;
      out[k] = sum;
    }
  },
  normalize(_state, _pod, scores) {
    defaultNormalizeScore(scores, false);
  },
};
