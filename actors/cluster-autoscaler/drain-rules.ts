// Which pods keep their node from being removed, as the real autoscaler's drainability rules
// (simulator/drainability/rules, FAQ "What types of pods can prevent CA from removing a node?"):
// a pod is skipped (stays, does not block), moved (evicted and scheduled elsewhere) or blocks.
import type { Pod } from '../api/model/core.ts';
import { controllerOf } from '../api/types.ts';
import type { PodDisruptionBudget } from '../api/model/policy.ts';
import { KUBE_SYSTEM_NAMESPACE } from '../api/namespaces.ts';
import { compileLabelSelector } from '../scheduler/label-selector.ts';
import type { ClusterAutoscalerOptions } from './options.ts';

export const SAFE_TO_EVICT = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
export const SCALE_DOWN_DISABLED = 'cluster-autoscaler.kubernetes.io/scale-down-disabled';
const MIRROR = 'kubernetes.io/config.mirror';

export type Drainability = { kind: 'skip' } | { kind: 'move'; budgets: PodDisruptionBudget[] } | { kind: 'block'; reason: string };

type Rules = Pick<ClusterAutoscalerOptions, 'skipNodesWithLocalStorage' | 'skipNodesWithSystemPods'>;

/** The budgets whose selector picks the pod (same namespace; an empty selector picks every pod, a missing one none). */
export function budgetsOf(pod: Pod, budgets: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
  return budgets.filter((b) => b.metadata.namespace === pod.metadata.namespace && compileLabelSelector(b.spec?.selector).matches(pod.metadata.labels ?? {}));
}


/** What a drain of the pod's node does with it. */
export function drainability(pod: Pod, allBudgets: readonly PodDisruptionBudget[], rules: Rules): Drainability {
  const annotations = pod.metadata.annotations ?? {};
  if (annotations[MIRROR] !== undefined || controllerOf(pod)?.kind === 'DaemonSet') return { kind: 'skip' };
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return { kind: 'skip' };
  const budgets = budgetsOf(pod, allBudgets);
  if (annotations[SAFE_TO_EVICT] === 'true') return { kind: 'move', budgets };
  if (annotations[SAFE_TO_EVICT] === 'false') return { kind: 'block', reason: 'NotSafeToEvictAnnotation' };
  if (!controllerOf(pod)) return { kind: 'block', reason: 'NotReplicated' };
  if (rules.skipNodesWithSystemPods && pod.metadata.namespace === KUBE_SYSTEM_NAMESPACE && budgets.length === 0) return { kind: 'block', reason: 'UnmovableKubeSystemPod' };
  if (rules.skipNodesWithLocalStorage && (pod.spec?.volumes ?? []).some((v) => v.emptyDir || v.hostPath)) return { kind: 'block', reason: 'LocalStorageRequested' };
  return { kind: 'move', budgets };
}
