// The scheduler's view of the cluster: one NodeInfo per node with the pods bound or assumed to it,
// kept up to date incrementally from the informers, and the snapshot a cycle reads. Nodes are
// ordered the way the real scheduler's node tree lists them: zone by zone in turn (one node of each
// zone, then the next of each), so sampling a part of the nodes still spans every zone.
import type { KObject } from '../api/types.ts';
import type { NodeInfo, PodInfo, Snapshot } from './framework.ts';
import { addPod, makeSnapshot, newNodeInfo, removePod } from './pod-info.ts';

const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';

interface Placement {
  node: string;
  info: PodInfo;
  /** Assumed by this scheduler and not yet seen bound by the informer. */
  assumed: boolean;
}

export class SchedulerCache {
  readonly #nodes = new Map<string, NodeInfo>();
  readonly #placements = new Map<string, Placement>();
  /** Pods bound to nodes the cache does not know yet, by node name. */
  readonly #orphans = new Map<string, Map<string, PodInfo>>();
  #snapshot: Snapshot | undefined;

  get nodeCount(): number {
    return this.#nodes.size;
  }

  node(name: string): NodeInfo | undefined {
    return this.#nodes.get(name);
  }

  placement(key: string): Placement | undefined {
    return this.#placements.get(key);
  }

  /** A node added or changed: its info is rebuilt around the pods it already had. */
  setNode(node: KObject): void {
    const name = node.metadata.name!;
    const info = newNodeInfo(node);
    const old = this.#nodes.get(name);
    for (const p of old?.pods ?? []) addPod(info, p);
    const orphans = this.#orphans.get(name);
    if (orphans) {
      for (const p of orphans.values()) addPod(info, p);
      this.#orphans.delete(name);
    }
    this.#nodes.set(name, info);
    this.#changed(true); // a new NodeInfo object: the snapshot's list must hold it
  }

  removeNode(name: string): void {
    const info = this.#nodes.get(name);
    if (!info) return;
    this.#nodes.delete(name);
    // Its pods stay placed (they are still bound to it); they come back if the node does.
    if (info.pods.length) this.#orphans.set(name, new Map(info.pods.map((p) => [p.key, p])));
    this.#changed(true);
  }

  /** A pod bound (or assumed) to `nodeName`; replaces where it was before. */
  place(info: PodInfo, nodeName: string, assumed: boolean): void {
    this.unplace(info.key);
    this.#placements.set(info.key, { node: nodeName, info, assumed });
    const node = this.#nodes.get(nodeName);
    if (node) addPod(node, info);
    else {
      let m = this.#orphans.get(nodeName);
      if (!m) this.#orphans.set(nodeName, (m = new Map()));
      m.set(info.key, info);
    }
    this.#changed(false);
  }

  /** The pod left its node (deleted, finished, or an assumption forgotten). */
  unplace(key: string): Placement | undefined {
    const p = this.#placements.get(key);
    if (!p) return undefined;
    this.#placements.delete(key);
    const node = this.#nodes.get(p.node);
    if (node) removePod(node, node.pods.find((x) => x.key === key) ?? p.info);
    else this.#orphans.get(p.node)?.delete(key);
    this.#changed(false);
    return p;
  }

  /** The nodes as the next cycle sees them. The snapshot is live: cycles run synchronously, so nothing changes under one. */
  snapshot(): Snapshot {
    if (!this.#snapshot) {
      const nodes = interleaveByZone([...this.#nodes.values()]);
      this.#snapshot = makeSnapshot(nodes);
    }
    return this.#snapshot;
  }

  #changed(order: boolean): void {
    if (order) this.#snapshot = undefined;
  }
}

const zoneOf = (n: NodeInfo) => `${n.labels[REGION] ?? ''}:${n.labels[ZONE] ?? ''}`;

/** Zone by zone in turn, zones in the order their first node was added, nodes in insertion order. */
function interleaveByZone(nodes: NodeInfo[]): NodeInfo[] {
  const zones = new Map<string, NodeInfo[]>();
  for (const n of nodes) {
    const z = zoneOf(n);
    let list = zones.get(z);
    if (!list) zones.set(z, (list = []));
    list.push(n);
  }
  if (zones.size <= 1) return nodes;
  const lists = [...zones.values()];
  const out: NodeInfo[] = [];
  for (let i = 0; out.length < nodes.length; i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}
