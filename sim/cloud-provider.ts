// The simulated cloud under the cluster autoscaler: one node group per pool with `autoscaling:`.
// A node asked for joins `provisioningDelayMs` later (its agent starts and registers the Node, as
// a pool's nodes do at the start), named `<pool>-<index>` with the lowest index free; a node
// removed loses its agent at once and its Node object is deleted, as a cloud's node lifecycle
// controller deletes the Node of a machine that is gone. A node deleted outright (a nodeDelete
// fault) is replaced as a cloud's group replaces a terminated instance, the group keeping its
// target, or the group shrinks with it. A machine may fail to come: with the pool's
// `provisioningFailure` probability (drawn from the run's `cloud/provisioning` stream) or while a
// `capacityShortage` fault holds the pool, it is counted in the group's size but never registers,
// until the autoscaler gives up on it and deletes it. Each group's node count over time and its
// node-hours are kept for the report (a machine that never came costs nothing).
import type { Clock, Random } from '../actors/api/env.ts';
import type { Node } from '../actors/api/model/core.ts';
import type { CloudProvider, NodeGroup } from '../actors/cluster-autoscaler/cloud-provider.ts';
import type { NodePool } from './scenario/types.ts';
import { nodeName } from './scenario/pools.ts';
import { POOL_LABEL } from './cluster.ts';


/** What the cloud needs of the cluster: a node of a pool started, or stopped and its Node deleted. */
export interface NodeHost {
  addNode(pool: NodePool, name: string, index: number): Promise<void>;
  removeNode(name: string): Promise<void>;
}

export interface GroupHistory {
  name: string;
  min: number;
  max: number;
  costPerHour?: number;
  /** [virtual ms since the start, nodes running] at the start and at each change. */
  nodes: [number, number][];
  nodeHours: number;
  cost?: number;
}

class SimNodeGroup implements NodeGroup {
  readonly id: string;
  readonly minSize: number;
  readonly maxSize: number;
  readonly costPerHour: number | undefined;
  target: number;
  /** Node indexes in use (running or asked for). */
  readonly used = new Set<number>();
  readonly running = new Set<string>();
  /** Machines asked for that have not joined: those on their way and those that will never come. */
  readonly creating = new Set<string>();
  /** Nesting count of capacityShortage faults on the pool now: while above 0 no machine comes. */
  shortages = 0;
  readonly history: [number, number][] = [];
  nodeMs = 0;
  #since: number;

  constructor(readonly pool: NodePool, startMs: number) {
    this.id = pool.name;
    this.minSize = pool.autoscaling!.min;
    this.maxSize = pool.autoscaling!.max;
    this.costPerHour = pool.costPerHour;
    this.target = pool.count;
    this.#since = startMs;
    for (let i = 0; i < pool.count; i++) {
      this.used.add(i);
      this.running.add(nodeName(pool, i));
    }
    this.history.push([0, pool.count]);
  }

  targetSize(): number {
    return this.target;
  }

  instances(): readonly string[] {
    return [...this.running, ...this.creating];
  }

  templateNode(): Node {
    const p = this.pool;
    const zone = p.zones[this.#freeIndex() % p.zones.length] ?? '';
    const capacity = { cpu: p.capacity.cpu, memory: p.capacity.memory, 'ephemeral-storage': p.capacity.ephemeralStorage, pods: String(p.capacity.pods) };
    return {
      metadata: {
        name: `template-node-for-${p.name}`,
        labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', ...(p.region ? { 'topology.kubernetes.io/region': p.region } : {}),
          ...(zone ? { 'topology.kubernetes.io/zone': zone } : {}), ...p.labels, [POOL_LABEL]: p.name },
      },
      spec: p.taints.length ? { taints: p.taints } : {},
      status: { capacity, allocatable: capacity, conditions: [{ type: 'Ready', status: 'True' }] },
    } as Node;
  }

  #freeIndex(): number {
    let i = 0;
    while (this.used.has(i)) i++;
    return i;
  }

  /** Takes the lowest free index for a node asked for. */
  claim(): number {
    const i = this.#freeIndex();
    this.used.add(i);
    return i;
  }

  /** The node count changed at `atMs` (since the start): its node-time so far is added up. */
  changed(atMs: number): void {
    this.nodeMs += this.running.size * (atMs - this.#since);
    this.#since = atMs;
  }

  report(endMs: number): GroupHistory {
    const nodeHours = (this.nodeMs + this.running.size * (endMs - this.#since)) / 3_600_000;
    return {
      name: this.id, min: this.minSize, max: this.maxSize, nodes: this.history, nodeHours,
      ...(this.costPerHour !== undefined ? { costPerHour: this.costPerHour, cost: nodeHours * this.costPerHour } : {}),
    };
  }
}

export class SimCloudProvider implements CloudProvider {
  readonly groupLabels = [POOL_LABEL];
  readonly #groups: SimNodeGroup[];
  readonly #byId: Map<string, SimNodeGroup>;

  readonly #failures: Random;

  constructor(pools: readonly NodePool[], readonly host: NodeHost, readonly clock: Clock, readonly provisioningDelayMs: number,
    readonly t0: number, random: Random, readonly onError: (e: unknown) => void) {
    this.#failures = random.fork('provisioning');
    this.#groups = pools.filter((p) => p.autoscaling).map((p) => new SimNodeGroup(p, 0));
    this.#byId = new Map(this.#groups.map((g) => [g.id, g]));
  }

  nodeGroups(): readonly NodeGroup[] {
    return this.#groups;
  }

  nodeGroupForNode(node: Node): NodeGroup | undefined {
    return this.#byId.get(node.metadata.labels?.[POOL_LABEL] ?? '');
  }

  #group(id: string): SimNodeGroup {
    const g = this.#byId.get(id);
    if (!g) throw new Error(`no node group ${JSON.stringify(id)}`);
    return g;
  }

  increaseSize(groupId: string, delta: number): void {
    const g = this.#group(groupId);
    if (!(Number.isInteger(delta) && delta > 0)) throw new Error(`size increase must be positive, got ${delta}`);
    if (g.target + delta > g.maxSize) throw new Error(`size increase too large - desired:${g.target + delta} max:${g.maxSize}`);
    g.target += delta;
    for (let i = 0; i < delta; i++) this.#provision(g, g.claim());
  }

  /** The node of index `index` joins `provisioningDelayMs` from now, unless the cloud fails to give it; its name. */
  #provision(g: SimNodeGroup, index: number): string {
    const name = nodeName(g.pool, index);
    g.creating.add(name);
    // A pool without provisioningFailure draws nothing, so runs without failures keep their streams.
    const fails = g.shortages > 0 || (g.pool.provisioningFailure !== undefined && this.#failures.next() < g.pool.provisioningFailure);
    if (fails) return name;
    this.clock.setTimeout(() => {
      // Deleted before it came (the autoscaler gave up on it): nothing joins.
      if (!g.creating.delete(name)) return;
      g.changed(this.#since());
      g.running.add(name);
      g.history.push([this.#since(), g.running.size]);
      void this.host.addNode(g.pool, name, index).catch(this.onError);
    }, this.provisioningDelayMs);
    return name;
  }

  async deleteNodes(groupId: string, nodes: readonly string[]): Promise<void> {
    const g = this.#group(groupId);
    if (g.target - nodes.length < g.minSize) throw new Error(`node group ${groupId} would go below its minimum size ${g.minSize}`);
    g.target -= nodes.length;
    for (const name of nodes) {
      if (g.creating.delete(name)) g.used.delete(this.#index(g, name));
      else await this.#drop(g, name);
    }
  }

  /** A capacityShortage fault on the pool begins (true) or ends (false); false if no group is the pool. */
  shortage(pool: string, on: boolean): boolean {
    const g = this.#byId.get(pool);
    if (!g) return false;
    g.shortages += on ? 1 : -1;
    return true;
  }

  #index(g: SimNodeGroup, name: string): number {
    return Number(name.slice(g.pool.name.length + 1));
  }

  /**
   * The cloud took a running instance back (a spot interruption): its group's size drops by one,
   * even below the minimum, and the node goes. False if no group runs it.
   */
  async instanceLost(name: string): Promise<boolean> {
    const g = this.#groups.find((group) => group.running.has(name));
    if (!g) return false;
    g.target -= 1;
    await this.#drop(g, name);
    return true;
  }

  /** Whether one of the groups runs the node. */
  runs(name: string): boolean {
    return this.#groups.some((g) => g.running.has(name));
  }

  /**
   * The node's instance is terminated and its Node deleted. `replace`: the group keeps its target,
   * so a new node (the lowest index free, not the one going) joins in its place after the
   * provisioning delay, its name returned; else the group shrinks by one, even below its minimum.
   */
  async terminate(name: string, replace: boolean): Promise<string | undefined> {
    const g = this.#groups.find((group) => group.running.has(name));
    if (!g) return undefined;
    if (!replace) return void (await this.instanceLost(name));
    const index = g.claim();
    await this.#drop(g, name);
    return this.#provision(g, index);
  }

  async #drop(g: SimNodeGroup, name: string): Promise<void> {
    g.changed(this.#since());
    g.running.delete(name);
    g.used.delete(this.#index(g, name));
    g.history.push([this.#since(), g.running.size]);
    await this.host.removeNode(name);
  }

  #since(): number {
    return this.clock.now() - this.t0;
  }

  /** Each group's nodes over time, node-hours and cost up to `endMs` since the start. */
  report(endMs: number): GroupHistory[] {
    return this.#groups.map((g) => g.report(endMs));
  }
}
