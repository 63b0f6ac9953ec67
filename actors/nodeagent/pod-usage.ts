// What a pod's containers use, in cores and bytes, at any virtual time. For each resource the
// first of these that the pod gives decides:
//   1. the annotation `orchsim.io/cpu-usage` or `orchsim.io/memory-usage`: a quantity for the pod;
//   2. that resource's curve in the pod's usage model (`orchsim.io/usage`, usage-model.ts);
//   3. its requests: a pod uses what it asked for.
// A quantity for the whole pod is shared among its containers in proportion to their requests
// (evenly when none requests any); a fraction applies to each container's own request. CPU above
// a container's limit is throttled to the limit, as the CFS quota does. Compiled when the agent
// admits the pod and again only when one of these annotations changes on the running pod
// (`kubectl annotate --overwrite`), from that instant; evaluating it costs a few multiplications
// and draws nothing.
import { parseQuantity, wholeUnits } from '../api/quantity.ts';
import type { Pod } from '../api/model/core.ts';
import { checkUsageModel, curveFor, podSeed, USAGE_MODEL, type Curve, type UsageCurve, type UsageModel, type UsageResource } from './usage-model.ts';
import { spreadCurve, type LoadShares } from './usage-spread.ts';

/** Annotation giving the CPU a pod uses (a quantity of cores, `250m`). */
export const CPU_USAGE = 'orchsim.io/cpu-usage';
/** Annotation giving the memory a pod uses (a quantity of bytes, `300Mi`). */
export const MEMORY_USAGE = 'orchsim.io/memory-usage';

/** The annotations a pod's use is compiled from. */
const USAGE_ANNOTATIONS = [CPU_USAGE, MEMORY_USAGE, USAGE_MODEL] as const;

/** One resource of a pod over time: each container's use and the pod's. */
interface ResourceUse {
  /** Container `i`'s use at `atMs`. */
  at(atMs: number, i: number): number;
  /** The most the pod as a whole can use. */
  max: number;
}

export class PodUse {
  /** The containers' names, in the pod's order. */
  readonly containers: readonly string[];
  /** Bytes of memory requested, summed over containers (what eviction ranks against). */
  readonly memoryRequest: number;
  /** The most memory the pod can use at any time: a bound the pressure check adds up instead of evaluating. */
  readonly memoryMax: number;
  readonly #cpu: ResourceUse;
  readonly #memory: ResourceUse;
  /** The annotations it was compiled from, in the order of USAGE_ANNOTATIONS. */
  readonly #sources: readonly (string | undefined)[];

  /** `shares`: who shares the load of a model with `spread` (usage-spread.ts); absent, its curves apply as written. */
  constructor(pod: Pod, shares?: LoadShares) {
    const containers = pod.spec?.containers ?? [];
    this.containers = containers.map((c) => c.name);
    const annotations = pod.metadata.annotations;
    this.#sources = USAGE_ANNOTATIONS.map((a) => annotations?.[a]);
    const model = modelOf(annotations?.[USAGE_MODEL]);
    const seed = podSeed(pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`);
    const spread = model.spread, curve = (c: UsageCurve, s: number) => (spread && shares ? spreadCurve(curveFor(c, s), spread, shares) : curveFor(c, s));
    const amounts = (resource: UsageResource, kind: 'requests' | 'limits', read: (q: string) => number) =>
      containers.map((c) => { const q = c.resources?.[kind]?.[resource]; return q === undefined ? undefined : read(q); });
    const memoryRequests = amounts('memory', 'requests', wholeUnits).map((r) => r ?? 0);
    this.memoryRequest = memoryRequests.reduce((a, b) => a + b, 0);
    this.#memory = use(memoryRequests, quantityOf(annotations?.[MEMORY_USAGE]), model.memory && curve(model.memory, seed ^ 0x6d656d));
    this.memoryMax = this.#memory.max;
    const cpu = use(amounts('cpu', 'requests', parseQuantity).map((r) => r ?? 0), quantityOf(annotations?.[CPU_USAGE]), model.cpu && curve(model.cpu, seed));
    const limits = amounts('cpu', 'limits', parseQuantity);
    this.#cpu = limits.every((l) => l === undefined) ? cpu : { at: (atMs, i) => Math.min(limits[i] ?? Infinity, cpu.at(atMs, i)), max: cpu.max };
  }

  /** Whether `pod` (a newer version of the pod) carries the same usage annotations: three look-ups, so an update that leaves them is no work. */
  compiledFrom(pod: Pod): boolean {
    const annotations = pod.metadata.annotations;
    for (let i = 0; i < USAGE_ANNOTATIONS.length; i++) if (annotations?.[USAGE_ANNOTATIONS[i]!] !== this.#sources[i]) return false;
    return true;
  }

  /** Cores container `i` uses at `atMs`, throttled to its limit. */
  cpuAt(atMs: number, i: number): number {
    return this.#cpu.at(atMs, i);
  }

  /** Bytes of memory container `i` uses at `atMs`. */
  memoryAt(atMs: number, i: number): number {
    return this.#memory.at(atMs, i);
  }

  /** Bytes of memory the pod uses at `atMs`. */
  podMemoryAt(atMs: number): number {
    let sum = 0;
    for (let i = 0; i < this.containers.length; i++) sum += this.#memory.at(atMs, i);
    return sum;
  }
}

/** The model of the annotation, or none when absent or not a model (a bad annotation is as none: the pod uses its requests). */
function modelOf(text: string | undefined): UsageModel {
  if (text === undefined) return {};
  try {
    return checkUsageModel(JSON.parse(text));
  } catch {
    return {};
  }
}

function quantityOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    return parseQuantity(text);
  } catch {
    return undefined; // a bad annotation: the next source decides
  }
}

/** A resource's use from the first source given: the pod's quantity, its curve, its requests. */
function use(requests: readonly number[], podQuantity: number | undefined, curve: Curve | undefined): ResourceUse {
  const total = requests.reduce((a, b) => a + b, 0);
  const share = requests.map((r) => (total > 0 ? r / total : 1 / requests.length));
  if (podQuantity !== undefined) return { at: (_t, i) => podQuantity * share[i]!, max: podQuantity };
  if (curve?.of === 'quantity') return { at: (t, i) => curve.at(t) * share[i]!, max: curve.max };
  if (curve) return { at: (t, i) => curve.at(t) * requests[i]!, max: curve.max * total };
  return { at: (_t, i) => requests[i]!, max: total };
}
