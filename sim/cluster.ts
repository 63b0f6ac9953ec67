// A simulated cluster in one process: the virtual clock and its kernel, the in-process bus, the
// API server, one node agent per node of the scenario's pools, the scheduler and the controller
// manager. Every component gets its own named stream of the run's seed, so adding one never
// shifts another's draws.
import type { Random } from '../actors/api/env.ts';
import { apiServerOptions, type ApiServerOptions } from '../actors/apiserver/options.ts';
import { ApiServer } from '../actors/apiserver/server.ts';
import { ControllerManager } from '../actors/controller-manager/controller-manager.ts';
import type { ControllerManagerOptions } from '../actors/controller-manager/options.ts';
import { NodeAgent } from '../actors/nodeagent/nodeagent.ts';
import type { NodeAgentOptions } from '../actors/nodeagent/options.ts';
import type { SchedulerOptions } from '../actors/scheduler/options.ts';
import { Scheduler, type Decision } from '../actors/scheduler/scheduler.ts';
import { MemoryBus } from '../transport/memory-bus.ts';
import { Kernel } from './kernel.ts';
import { seededRandom } from './random.ts';
import { nodeNames } from './scenario/load.ts';
import type { NodePool, Scenario } from './scenario/types.ts';
import { virtualClock, type VirtualClock } from './virtual-clock.ts';

/** Pod ranges are 10.A.B.0/24 per node: 65,536 nodes at most. */
const MAX_NODES = 65_536;
/** The label every simulated node carries with its pool's name. */
export const POOL_LABEL = 'orchsim.io/pool';

export interface SimNode {
  name: string;
  pool: string;
  zone: string;
  options: Partial<NodeAgentOptions>;
}

export interface ClusterHooks {
  onDecision?: (d: Decision) => void;
  /** A NoExecute taint the node lifecycle controller puts on a node. */
  onTaint?: (node: string, key: string, atMs: number) => void;
  /** A pod the taint eviction controller deletes. */
  onEvict?: (pod: string, atMs: number) => void;
  /** Errors of components (failed writes other than expected conflicts); the run counts and reports them. */
  onError?: (component: string, error: unknown) => void;
}

export class SimCluster {
  readonly clock: VirtualClock;
  readonly kernel: Kernel;
  readonly bus: MemoryBus;
  readonly random: Random;
  readonly server: ApiServer;
  readonly scheduler: Scheduler;
  readonly controllers: ControllerManager;
  readonly nodes: SimNode[];
  readonly agents = new Map<string, NodeAgent>();
  readonly #hooks: ClusterHooks;
  readonly #byName: Map<string, SimNode>;

  constructor(readonly scenario: Scenario, readonly seed: number, hooks: ClusterHooks = {}) {
    this.#hooks = hooks;
    this.clock = virtualClock();
    this.kernel = new Kernel({ clock: this.clock, maxSteps: Number.MAX_SAFE_INTEGER });
    this.bus = new MemoryBus({ clock: this.clock, onError: (e) => this.#error('bus', e) });
    this.random = seededRandom(seed);
    this.server = new ApiServer(apiServerOptions(scenario.options.apiserver as Partial<ApiServerOptions>),
      { clock: this.clock, random: this.random.fork('apiserver'), bus: this.bus });
    this.scheduler = new Scheduler({
      bus: this.bus, clock: this.clock, random: this.random.fork('scheduler'),
      options: scenario.options.scheduler as Partial<SchedulerOptions>,
      ...(hooks.onDecision ? { onDecision: hooks.onDecision } : {}),
      onError: (e) => this.#error('scheduler', e),
    });
    this.controllers = new ControllerManager({
      bus: this.bus, clock: this.clock, random: this.random.fork('controller-manager'),
      options: scenario.options.controllerManager as Partial<ControllerManagerOptions>, identity: 'controller-manager-0',
      onError: (controller, e) => this.#error(controller, e),
      ...(hooks.onTaint ? { onTaint: hooks.onTaint } : {}), ...(hooks.onEvict ? { onEvict: hooks.onEvict } : {}),
    });
    this.nodes = planNodes(scenario);
    this.#byName = new Map(this.nodes.map((n) => [n.name, n]));
  }

  /** Starts the API server, registers every node, then starts the scheduler. */
  async start(): Promise<void> {
    await this.server.start();
    await this.controllers.start();
    for (const node of this.nodes) await this.startNode(node.name);
    await this.scheduler.start();
  }

  node(name: string): SimNode | undefined {
    return this.#byName.get(name);
  }

  /** Starts (or restarts, after a crash) the agent of `name`. */
  async startNode(name: string): Promise<void> {
    const node = this.node(name);
    if (!node) throw new Error(`no node ${name} in this cluster`);
    if (this.agents.has(name)) return;
    const agent = new NodeAgent({ bus: this.bus, clock: this.clock, random: this.random.fork(`nodeagent/${name}`), nodeName: name,
      options: node.options, onError: (e) => this.#error(`nodeagent/${name}`, e) });
    this.agents.set(name, agent);
    await agent.start();
  }

  /** The node crashes: its agent stops at once (no more lease renewals, status or pod updates). */
  crashNode(name: string): void {
    const agent = this.agents.get(name);
    if (!agent) return;
    agent.stop();
    this.agents.delete(name);
  }

  stop(): void {
    this.scheduler.stop();
    void this.controllers.stop();
    for (const a of this.agents.values()) a.stop();
    this.agents.clear();
    this.server.stop();
  }

  #error(component: string, e: unknown): void {
    if (this.#hooks.onError) this.#hooks.onError(component, e);
    else console.error(`${component}:`, e);
  }
}

function planNodes(scenario: Scenario): SimNode[] {
  const nodes: SimNode[] = [];
  const agentDefaults = scenario.options.nodeagent as Partial<NodeAgentOptions>;
  for (const pool of scenario.nodePools) {
    nodeNames(pool).forEach((name, i) => {
      const index = nodes.length;
      const zone = pool.zones[i % pool.zones.length] ?? '';
      nodes.push({ name, pool: pool.name, zone, options: { ...agentDefaults, ...poolOptions(pool, zone, index) } });
    });
  }
  return nodes;
}

function poolOptions(pool: NodePool, zone: string, index: number): Partial<NodeAgentOptions> {
  const c = pool.capacity;
  return {
    cpu: c.cpu, memory: c.memory, ephemeralStorage: c.ephemeralStorage, maxPods: c.pods,
    region: pool.region, zone,
    nodeLabels: { ...pool.labels, [POOL_LABEL]: pool.name },
    registerWithTaints: pool.taints,
    ...nodeAddresses(index),
  };
}

/** The pod range and address of the cluster's node number `index`: 10.A.B.0/24 and 172.16.0.0/12 in order. */
export function nodeAddresses(index: number): Pick<NodeAgentOptions, 'podCIDR' | 'internalIP'> {
  if (!(Number.isInteger(index) && index >= 0 && index < MAX_NODES)) throw new RangeError(`node index ${index}: a cluster has at most ${MAX_NODES} nodes (one /24 of 10.0.0.0/8 each)`);
  const host = index + 1;
  return { podCIDR: `10.${index >> 8}.${index & 255}.0/24`, internalIP: `172.${16 + (host >> 16)}.${(host >> 8) & 255}.${host & 255}` };
}
