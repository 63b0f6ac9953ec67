// A what-if copy of the cluster for one loop of the autoscaler, as the real one's ClusterSnapshot:
// the scheduler's nodes and pods, copied so pods can be placed on nodes (real or a group's
// template) and nodes taken away without touching the cache. Whether a pod fits a node is the
// scheduler's own filter plugins' answer: this file applies no fit rule of its own.
import type { Node, Pod } from '../api/model/core.ts';
import { cloneNode, prepare, runFilters } from '../scheduler/filters.ts';
import type { FilterPlugin, NodeInfo, PodInfo } from '../scheduler/framework.ts';
import { addPod, growableSnapshot, newNodeInfo, podInfo, removePod, type GrowableSnapshot } from '../scheduler/pod-info.ts';

export interface Placement {
  pod: PodInfo;
  node: NodeInfo;
}

export class Simulation {
  readonly #snapshot: GrowableSnapshot;
  readonly #filters: readonly FilterPlugin[];

  /** A copy of `nodes` (their pods too) that the filters read. */
  constructor(nodes: readonly NodeInfo[], filters: readonly FilterPlugin[]) {
    this.#snapshot = growableSnapshot(nodes.map(cloneNode));
    this.#filters = filters;
  }

  /** The nodes now, in the order they came (a live list: copy it to keep it). */
  get nodes(): readonly NodeInfo[] {
    return this.#snapshot.nodes;
  }

  node(name: string): NodeInfo | undefined {
    return this.#snapshot.get(name);
  }

  /** Adds a node the cluster does not have (a group's template); returns its info. */
  addNode(node: Node): NodeInfo {
    const info = newNodeInfo(node);
    this.#snapshot.add(info);
    return info;
  }

  removeNode(name: string): void {
    this.#snapshot.remove(name);
  }

  /**
   * Places the pod on the first of `candidates` (default: every node) its filters pass, and
   * answers where; undefined, with each rejected node's first reason in `reasons` when given.
   */
  place(pod: PodInfo, candidates: readonly NodeInfo[] = this.#snapshot.nodes, reasons?: string[]): Placement | undefined {
    const prepared = prepare(pod, this.#snapshot, this.#filters);
    if ('reject' in prepared) {
      reasons?.push(...prepared.reject.reasons);
      return undefined;
    }
    const input = { pod, snapshot: this.#snapshot, filters: prepared.filters };
    for (const node of candidates) {
      const failure = runFilters(prepared.state, input, node);
      if (failure === undefined) {
        addPod(node, pod);
        return { pod, node };
      }
      reasons?.push(failure.reason);
    }
    return undefined;
  }

  /** Takes back placements made by `place` (a plan that did not work out). */
  undo(placements: readonly Placement[]): void {
    for (const p of placements) removePod(p.node, p.pod);
  }
}

/** The pod as a scheduler would see it again: not bound to any node (the real drain simulation's copy). */
export function unboundPodInfo(pod: Pod): PodInfo {
  const { nodeName: _, ...spec } = pod.spec ?? { containers: [] };
  return podInfo({ ...pod, spec } as Pod);
}
