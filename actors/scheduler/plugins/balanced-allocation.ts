// NodeResourcesBalancedAllocation: prefers nodes whose cpu and memory would be used in equal
// shares once the pod is placed: score = (1 - standard deviation of the shares) * MAX_NODE_SCORE.
// Like the current real plugin it counts plain requests (no non-zero defaults) and skips a pod
// that requests neither cpu nor memory (it adds nothing to any node's score), so best-effort pods
// are not all drawn to the same node.
import { MAX_NODE_SCORE, type NodeInfo, type PodInfo, type Resources, type ScorePlugin } from '../framework.ts';

const NAME = 'NodeResourcesBalancedAllocation';

const bestEffort = (pod: PodInfo) => pod.requests.milliCPU === 0 && pod.requests.memory === 0;

function balance(wanted: Resources, node: NodeInfo): number {
  const cpuFree = node.allocatableMilliCPU, memoryFree = node.allocatableMemory;
  // A node with none of one resource is scored on the other alone: a deviation of 0.
  if (cpuFree === 0 || memoryFree === 0) return MAX_NODE_SCORE;
  // Each share capped at 1; with two resources the standard deviation is half their difference.
  const cpu = Math.min((node.requestedMilliCPU + wanted.milliCPU) / cpuFree, 1);
  const memory = Math.min((node.requestedMemory + wanted.memory) / memoryFree, 1);
  return ((1 - Math.abs(cpu - memory) / 2) * MAX_NODE_SCORE) | 0; // truncated, as a small integer (no heap number)
}

export const balancedAllocation: ScorePlugin = {
  name: NAME,
  weight: 1,
  preScore(_state, pod) {
    if (bestEffort(pod)) return 'skip'; // as the real plugin: nothing requested, nothing to balance
  },
  score(_state, pod, nodes, _snapshot, out) {
    const none = bestEffort(pod);
    for (let k = 0; k < nodes.length; k++) out[k] = none ? 0 : balance(pod.requests, nodes[k]!);
  },
};
