// NodeResourcesFit: the node must have room for the pod's requests (pod count, cpu, memory,
// ephemeral storage, each extended resource), and among feasible nodes the emptier scores higher
// (LeastAllocated over cpu and memory, weight 1 each, with the non-zero request defaults).
import { MAX_NODE_SCORE, REASON_SEPARATOR, type CycleState, type FilterPlugin, type NodeInfo, type PodInfo, type ScorePlugin } from '../framework.ts';

const NAME = 'NodeResourcesFit';
/** Between the reasons of one rejection, so each stays findable (the scheduling cycle splits on it). */
const PRE_FILTER = `PreFilter${NAME}`;

interface FitRequest {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  scalars: { name: string; quantity: number; reason: string }[];
  /** Nothing but the pod slot itself is requested. */
  onlyPods: boolean;
}

function fitRequest(pod: PodInfo): FitRequest {
  const r = pod.requests;
  const scalars = Object.keys(r.scalar).sort().map((name) => ({ name, quantity: r.scalar[name]!, reason: `Insufficient ${name}` }));
  return {
    milliCPU: r.milliCPU,
    memory: r.memory,
    ephemeralStorage: r.ephemeralStorage,
    scalars,
    onlyPods: r.milliCPU === 0 && r.memory === 0 && r.ephemeralStorage === 0 && scalars.length === 0,
  };
}

function requestOf(state: CycleState, pod: PodInfo): FitRequest {
  let request = state.get(PRE_FILTER) as FitRequest | undefined;
  if (!request) state.set(PRE_FILTER, (request = fitRequest(pod)));
  return request;
}

/**
 * Whether the node has room for the request. With `reasons`, collects every failing resource in the
 * real plugin's order and words (`Too many pods`, `Insufficient cpu`, ...; extended resources
 * sorted by name) instead of stopping at the first, so the common case allocates nothing.
 */
function fits(request: FitRequest, node: NodeInfo, reasons?: string[]): boolean {
  const free = node.allocatable, used = node.requested;
  let ok = true;
  if (node.pods.length + 1 > free.pods) {
    if (!reasons) return false;
    reasons.push('Too many pods');
    ok = false;
  }
  if (request.onlyPods) return ok;
  if (request.milliCPU > 0 && request.milliCPU > free.milliCPU - used.milliCPU) {
    if (!reasons) return false;
    reasons.push('Insufficient cpu');
    ok = false;
  }
  if (request.memory > 0 && request.memory > free.memory - used.memory) {
    if (!reasons) return false;
    reasons.push('Insufficient memory');
    ok = false;
  }
  if (request.ephemeralStorage > 0 && request.ephemeralStorage > free.ephemeralStorage - used.ephemeralStorage) {
    if (!reasons) return false;
    reasons.push('Insufficient ephemeral-storage');
    ok = false;
  }
  for (const s of request.scalars) {
    if (s.quantity > (free.scalar[s.name] ?? 0) - (used.scalar[s.name] ?? 0)) {
      if (!reasons) return false;
      reasons.push(s.reason);
      ok = false;
    }
  }
  return ok;
}

/** Every reason the node cannot hold the pod (empty when it fits). */
export function insufficientResources(pod: PodInfo, node: NodeInfo): string[] {
  const reasons: string[] = [];
  fits(fitRequest(pod), node, reasons);
  return reasons;
}

/** The unused share of one resource on a 0..MAX_NODE_SCORE scale, in integers as the real scorer. */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

export const nodeResourcesFit: FilterPlugin & ScorePlugin = {
  name: NAME,
  weight: 1,
  preFilter(state, pod) {
    state.set(PRE_FILTER, fitRequest(pod));
  },
  /** Every failing resource, each reason in the real plugin's words, joined with REASON_SEPARATOR. */
  filter(state, pod, node) {
    const request = requestOf(state, pod);
    if (fits(request, node)) return undefined;
    const reasons: string[] = [];
    fits(request, node, reasons);
    return reasons.join(REASON_SEPARATOR);
  },
  /** LeastAllocated: the mean over cpu and memory (skipping one the node has none of) of the unused share after placing the pod. */
  score(_state, pod, node) {
    let sum = 0, weights = 0;
    const cpu = node.allocatable.milliCPU, memory = node.allocatable.memory;
    if (cpu !== 0) {
      sum += leastRequestedScore(node.nonZeroRequested.milliCPU + pod.nonZero.milliCPU, cpu);
      weights++;
    }
    if (memory !== 0) {
      sum += leastRequestedScore(node.nonZeroRequested.memory + pod.nonZero.memory, memory);
      weights++;
    }
    return weights === 0 ? 0 : Math.trunc(sum / weights);
  },
};
