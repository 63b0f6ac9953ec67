// What the Running pods on each node use, for the report's usage series (usage-series.ts): each
// pod's use compiled from the pod as its node agent compiles it (actors/nodeagent/pod-usage.ts,
// the same curves, draws and throttling), kept while the store has it Running on a node, and
// evaluated at a sample's instant. The node agent's summary gives the same figures but builds
// every pod's and container's stats to do so, several times the cost of adding up the curves
// (measured: about 60-180 µs against 4-35 µs a sample for a node of 30 pods).
import type { ChangeRecord } from '../actors/apiserver/storage/store.ts';
import type { Pod } from '../actors/api/model/core.ts';
import { PodUse } from '../actors/nodeagent/pod-usage.ts';
import type { LoadShares } from '../actors/nodeagent/usage-spread.ts';

const PODS = '/core/pods/';

export class PodUseTracker {
  /** By node, by pod key: the Running pods' use. */
  readonly #byNode = new Map<string, Map<string, PodUse>>();
  /** Each tracked pod's node. */
  readonly #nodeOf = new Map<string, string>();

  /** `shares`: the load balancer's view the node agents divide a spread model's load by (absent: none runs). */
  constructor(readonly keyPrefix: string, readonly shares?: LoadShares) {}

  observe(c: ChangeRecord): void {
    const key = c.key.slice(this.keyPrefix.length);
    if (!key.startsWith(PODS)) return;
    const pod = c.object as Pod;
    const node = pod.spec?.nodeName;
    if (c.type === 'DELETED' || pod.status?.phase !== 'Running' || !node) {
      this.#forget(key);
      return;
    }
    const pods = this.#byNode.get(node) ?? new Map<string, PodUse>();
    if (pods.size === 0) this.#byNode.set(node, pods);
    // Compiled again only when its usage annotations changed, as its agent does.
    if (pods.get(key)?.compiledFrom(pod)) return;
    pods.set(key, new PodUse(pod, this.shares));
    this.#nodeOf.set(key, node);
  }

  #forget(key: string): void {
    const node = this.#nodeOf.get(key);
    if (node === undefined) return;
    this.#nodeOf.delete(key);
    const pods = this.#byNode.get(node)!;
    pods.delete(key);
    if (pods.size === 0) this.#byNode.delete(node);
  }

  /** Cores and bytes of memory the Running pods on `node` use at `atMs`. */
  usedOn(node: string, atMs: number): { cpu: number; memory: number } {
    let cpu = 0;
    let memory = 0;
    for (const use of this.#byNode.get(node)?.values() ?? []) {
      for (let i = 0; i < use.containers.length; i++) cpu += use.cpuAt(atMs, i);
      memory += use.podMemoryAt(atMs);
    }
    return { cpu, memory };
  }
}
