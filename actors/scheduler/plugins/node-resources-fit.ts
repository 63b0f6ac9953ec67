// NodeResourcesFit: the node must have room for the pod's requests (pod count, cpu, memory,
// ephemeral storage, each extended resource), and among feasible nodes the emptier scores higher
// (LeastAllocated over cpu and memory, weight 1 each, with the non-zero request defaults).
import { MAX_NODE_SCORE, REASON_SEPARATOR, type FilterPlugin, type NodeInfo, type PodInfo, type Resources, type ScorePlugin } from '../framework.ts';

const NAME = 'NodeResourcesFit';

/**
 * Whether the node has room for the pod's requests. With `reasons`, collects every failing
 * resource in the real plugin's order and words (`Too many pods`, `Insufficient cpu`, ...;
 * extended resources sorted by name) instead of stopping at the first, so the common case
 * allocates nothing.
 */
function fits(pod: PodInfo, node: NodeInfo, reasons?: string[]): boolean {
  const request = pod.requests;
  let ok = true;
  if (node.requestedPods + 1 > node.allocatablePods) {
    if (!reasons) return false;
    reasons.push('Too many pods');
    ok = false;
  }
  if (request.milliCPU > 0 && request.milliCPU > node.allocatableMilliCPU - node.requestedMilliCPU) {
    if (!reasons) return false;
    reasons.push('Insufficient cpu');
    ok = false;
  }
  if (request.memory > 0 && request.memory > node.allocatableMemory - node.requestedMemory) {
    if (!reasons) return false;
    reasons.push('Insufficient memory');
    ok = false;
  }
  if (request.ephemeralStorage > 0 && request.ephemeralStorage > node.allocatableEphemeralStorage - node.requestedEphemeralStorage) {
    if (!reasons) return false;
    reasons.push('Insufficient ephemeral-storage');
    ok = false;
  }
  const names = pod.scalarNames;
  for (let i = 0; i < names.length; i++) {
    if (!short(request, node, names[i]!)) continue;
    if (!reasons) return false;
    reasons.push(`Insufficient ${names[i]}`);
    ok = false;
  }
  return ok;
}

function short(request: Resources, node: NodeInfo, name: string): boolean {
  return request.scalar[name]! > (node.allocatableScalar[name] ?? 0) - (node.requestedScalar[name] ?? 0);
}

/** Every reason the node cannot hold the pod (empty when it fits). */
export function insufficientResources(pod: PodInfo, node: NodeInfo): string[] {
  const reasons: string[] = [];
  fits(pod, node, reasons);
  return reasons;
}

/**
 * The unused share of one resource on a 0..MAX_NODE_SCORE scale, in integers as the real scorer.
 * Scores truncate with `| 0` rather than Math.trunc: V8 returns a small integer as it is, where
 * a double result is boxed in a new heap number for every node scored.
 */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return (((capacity - requested) * MAX_NODE_SCORE) / capacity) | 0;
}

function leastAllocated(pod: PodInfo, node: NodeInfo): number {
  let sum = 0, weights = 0;
  const cpu = node.allocatableMilliCPU, memory = node.allocatableMemory;
  if (cpu !== 0) {
    sum += leastRequestedScore(node.nonZeroMilliCPU + pod.nonZero.milliCPU, cpu);
    weights++;
  }
  if (memory !== 0) {
    sum += leastRequestedScore(node.nonZeroMemory + pod.nonZero.memory, memory);
    weights++;
  }
  return weights === 0 ? 0 : (sum / weights) | 0;
}

export const nodeResourcesFit: FilterPlugin & ScorePlugin = {
  name: NAME,
  weight: 1,
  /** Every failing resource, each reason in the real plugin's words, joined with REASON_SEPARATOR. */
  filter(_state, pod, node) {
    if (fits(pod, node)) return undefined;
    const reasons: string[] = [];
    fits(pod, node, reasons);
    return reasons.join(REASON_SEPARATOR);
  },
  /** LeastAllocated: the mean over cpu and memory (skipping one the node has none of) of the unused share after placing the pod. */
  score(_state, pod, nodes, _snapshot, out) {
    for (let k = 0; k < nodes.length; k++) out[k] = leastAllocated(pod, nodes[k]!);
  },
};
