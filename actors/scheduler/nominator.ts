// The pods nominated to nodes: a preemptor waits for its victims to go with room kept for it on
// their node. As the real scheduler's nominator, it holds every pending pod the informer shows with
// `status.nominatedNodeName`, and a preemptor from the moment its preemption is decided (before that
// status reaches the server); a pod leaves when it is bound or assumed, deleted, or its nomination
// is cleared.
import type { PodInfo } from './framework.ts';

const NONE: readonly PodInfo[] = [];

export class Nominator {
  readonly #byNode = new Map<string, PodInfo[]>();
  /** Each nominated pod's node, by pod key. */
  readonly #nodeOf = new Map<string, string>();

  /** How many pods are nominated: none, and a cycle has nothing to account for. */
  get size(): number {
    return this.#nodeOf.size;
  }

  nodeOf(key: string): string | undefined {
    return this.#nodeOf.get(key);
  }

  /** Nominates `pod` to `node`, in place of any nomination it had. */
  nominate(pod: PodInfo, node: string): void {
    this.remove(pod.key);
    this.#nodeOf.set(pod.key, node);
    const list = this.#byNode.get(node);
    if (list) list.push(pod);
    else this.#byNode.set(node, [pod]);
  }

  remove(key: string): void {
    const node = this.#nodeOf.get(key);
    if (node === undefined) return;
    this.#nodeOf.delete(key);
    const list = this.#byNode.get(node)!.filter((p) => p.key !== key);
    if (list.length) this.#byNode.set(node, list);
    else this.#byNode.delete(node);
  }

  /** The pods nominated to `node` that `pod` must leave room for: priority at least its own, itself excluded. */
  roomFor(node: string, pod: PodInfo): readonly PodInfo[] {
    const list = this.#byNode.get(node);
    if (!list) return NONE;
    const kept = list.filter((p) => p.priority >= pod.priority && p.uid !== pod.uid);
    return kept.length ? kept : NONE;
  }

  /** The pods nominated to `node` of lower priority than `pod`: a preemption there for `pod` clears their nominations. */
  below(node: string, pod: PodInfo): PodInfo[] {
    return (this.#byNode.get(node) ?? []).filter((p) => p.priority < pod.priority);
  }
}
