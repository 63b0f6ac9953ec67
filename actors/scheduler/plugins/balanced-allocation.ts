// NodeResourcesBalancedAllocation: prefers nodes whose cpu and memory would be used in equal
// shares once the pod is placed: score = (1 - standard deviation of the shares) * MAX_NODE_SCORE.
// Like the current real plugin it counts plain requests (no non-zero defaults) and skips a pod
// that requests neither cpu nor memory (it adds nothing to any node's score), so best-effort pods
// are not all drawn to the same node.
import { MAX_NODE_SCORE, type PodInfo, type ScorePlugin } from '../framework.ts';

const NAME = 'NodeResourcesBalancedAllocation';

/** A share of capacity, capped at 1; NaN when the node has none of the resource (it is skipped). */
function fraction(requested: number, allocatable: number): number {
  if (allocatable === 0) return NaN;
  return Math.min(requested / allocatable, 1);
}

const bestEffort = (pod: PodInfo) => pod.requests.milliCPU === 0 && pod.requests.memory === 0;

export const balancedAllocation: ScorePlugin = {
  name: NAME,
  weight: 1,
  preScore(_state, pod) {
    if (bestEffort(pod)) return 'skip'; // as the real plugin: nothing requested, nothing to balance
  },
  score(_state, pod, node) {
    if (bestEffort(pod)) return 0;
    const cpu = fraction(node.requested.milliCPU + pod.requests.milliCPU, node.allocatable.milliCPU);
    const memory = fraction(node.requested.memory + pod.requests.memory, node.allocatable.memory);
    // With two resources the standard deviation is half their difference; with one it is 0.
    const std = Number.isNaN(cpu) || Number.isNaN(memory) ? 0 : Math.abs((cpu - memory) / 2);
    return Math.trunc((1 - std) * MAX_NODE_SCORE);
  },
};
