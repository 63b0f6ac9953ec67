// Node-pressure eviction, as the real node agent does it for memory: every monitoring period it
// compares the memory available (capacity minus what its pods and any extra load use) with the
// `memory.available` threshold of `evictionHard`; below it, the node reports MemoryPressure and
// evicts one pod per period, choosing as the real agent ranks them: pods using more than they
// requested first, then the lowest priority, then the largest use above the request. Pure: the
// agent supplies the pods and the numbers.
import { parseQuantity } from '../api/quantity.ts';

export interface MemoryThreshold {
  /** The threshold as given (`100Mi`, `5%`), for messages. */
  text: string;
  /** Bytes available below which the node is under pressure, for a node of `capacity` bytes. */
  bytes(capacity: number): number;
}

/** `evictionHard`'s `memory.available`: a quantity or a percentage of capacity. Other signals are accepted and not simulated. */
export function memoryThreshold(evictionHard: Record<string, string>): MemoryThreshold | undefined {
  const text = evictionHard['memory.available'];
  if (text === undefined) return undefined;
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (percent) {
    const p = Number(percent[1]);
    if (!(p >= 0 && p <= 100)) throw new RangeError(`evictionHard memory.available ${text}: a percentage must be from 0% to 100%`);
    return { text, bytes: (capacity) => (capacity * p) / 100 };
  }
  let bytes: number;
  try {
    bytes = parseQuantity(text);
  } catch (e) {
    throw new RangeError(`evictionHard memory.available: ${(e as Error).message}`);
  }
  if (bytes < 0) throw new RangeError(`evictionHard memory.available ${text} must not be negative`);
  return { text, bytes: () => bytes };
}

export interface PodUsage {
  key: string;
  priority: number;
  /** Bytes of memory the pod uses now. */
  usage: number;
  /** Bytes of memory it requested. */
  request: number;
}

/** The pod to evict first, or undefined when there is none. */
export function evictionVictim(pods: readonly PodUsage[]): PodUsage | undefined {
  let best: PodUsage | undefined;
  for (const p of pods) if (!best || before(p, best)) best = p;
  return best;
}

function before(a: PodUsage, b: PodUsage): boolean {
  const aOver = a.usage > a.request, bOver = b.usage > b.request;
  if (aOver !== bOver) return aOver;
  if (a.priority !== b.priority) return a.priority < b.priority;
  const aAbove = a.usage - a.request, bAbove = b.usage - b.request;
  if (aAbove !== bAbove) return aAbove > bAbove;
  return a.key < b.key;
}

/** The status message of an evicted pod, in the real agent's words. */
export function evictionMessage(threshold: MemoryThreshold, availableBytes: number, pod: PodUsage, container: string): string {
  return `The node was low on resource: memory. Threshold quantity: ${threshold.text}, available: ${Math.max(0, Math.floor(availableBytes / 1024))}Ki. ` +
    `Container ${container} was using ${Math.ceil(pod.usage / 1024)}Ki, request is ${Math.ceil(pod.request / 1024)}Ki, has larger consumption of memory. `;
}
