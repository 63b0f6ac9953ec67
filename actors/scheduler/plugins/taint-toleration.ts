// TaintToleration: a node's NoSchedule and NoExecute taints keep off every pod that does not
// tolerate them; among feasible nodes, fewer untolerated PreferNoSchedule taints score higher.
import type { CycleState, FilterPlugin, PodInfo, ScorePlugin, Taint, Toleration } from '../framework.ts';
import { defaultNormalizeScore } from './normalize-score.ts';

const NAME = 'TaintToleration';
const PRE_SCORE = `PreScore${NAME}`;

/** The pod's spec.tolerations (an empty list when it has none). */
export function podTolerations(pod: PodInfo): readonly Toleration[] {
  return pod.pod.spec?.tolerations ?? [];
}

/**
 * Whether one toleration tolerates the taint: an empty effect matches every effect, an empty key
 * every key; operator Exists matches any value, Equal (the default) only the same value.
 */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator || 'Equal') {
    case 'Exists': return true;
    case 'Equal': return (t.value ?? '') === (taint.value ?? '');
    default: return false;
  }
}

export function tolerationsTolerate(tolerations: readonly Toleration[], taint: Taint): boolean {
  for (let i = 0; i < tolerations.length; i++) if (toleratesTaint(tolerations[i]!, taint)) return true;
  return false;
}

/** The first NoSchedule or NoExecute taint none of the tolerations tolerates. */
export function untoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | undefined {
  for (let i = 0; i < taints.length; i++) {
    const taint = taints[i]!;
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerationsTolerate(tolerations, taint)) return taint;
  }
  return undefined;
}

/** Tolerations that can apply to PreferNoSchedule taints (that effect, or any effect). */
function preferNoScheduleTolerations(state: CycleState, pod: PodInfo): readonly Toleration[] {
  let tolerations = state.get(PRE_SCORE) as readonly Toleration[] | undefined;
  if (!tolerations) {
    const all = podTolerations(pod);
    tolerations = all.length === 0 ? all : all.filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    state.set(PRE_SCORE, tolerations);
  }
  return tolerations;
}

export const taintToleration: FilterPlugin & ScorePlugin = {
  name: NAME,
  weight: 3,
  filter(_state, pod, node) {
    if (node.taints.length === 0) return undefined;
    const taint = untoleratedTaint(node.taints, podTolerations(pod));
    return taint ? `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}` : undefined;
  },
  preScore(state, pod) {
    state.delete(PRE_SCORE);
    preferNoScheduleTolerations(state, pod);
  },
  /** The number of PreferNoSchedule taints the pod does not tolerate. */
  score(state, pod, nodes, _snapshot, out) {
    const tolerations = preferNoScheduleTolerations(state, pod);
    for (let k = 0; k < nodes.length; k++) {
      const taints = nodes[k]!.taints;
      let count = 0;
      for (let i = 0; i < taints.length; i++) {
        if (taints[i]!.effect === 'PreferNoSchedule' && !tolerationsTolerate(tolerations, taints[i]!)) count++;
      }
      out[k] = count;
    }
  },
  normalize(_state, _pod, scores) {
    defaultNormalizeScore(scores, true);
  },
};
