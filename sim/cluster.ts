// A simulated cluster in one process: the virtual clock and its kernel, the in-process bus, the
// API server, one node agent per node of the scenario's pools, the scheduler and the controller
// manager. Every component gets its own named stream of the run's seed, so adding one never
// shifts another's draws.
import { ComponentTokens, nodeIdentity, SCHEDULER } from '../actors/client/credentials.ts';
import type { Random } from '../actors/api/env.ts';
import { apiServerFromScenario } from '../actors/apiserver/options.ts';
import { nodeAgentFromScenario } from '../actors/nodeagent/config.ts';
import { ApiServer } from '../actors/apiserver/server.ts';
import { ControllerManager } from '../actors/controller-manager/controller-manager.ts';
import { controllerManagerFromScenario } from '../actors/controller-manager/options.ts';
import { NodeAgent } from '../actors/nodeagent/nodeagent.ts';
import type { NodeAgentOptions } from '../actors/nodeagent/options.ts';
import { Scheduler, type Decision } from '../actors/scheduler/scheduler.ts';
import { schedulerFromScenario } from '../actors/scheduler/options.ts';
import { schedulerReplica } from '../actors/scheduler/replica.ts';
import type { Replica } from '../actors/client/replica.ts';
import { ActorSystem, type Inspect } from '../actors/system/actor-system.ts';
import { Link, LostRequestError } from './link.ts';
import { ServedBus } from './request-time.ts';
import { NoRespondersError } from '../transport/bus.ts';
import { MemoryBus } from '../transport/memory-bus.ts';
import type { Bus } from '../transport/bus.ts';
import { Kernel } from './kernel.ts';
import { seededRandom } from './random.ts';
import { nodeNames } from './scenario/load.ts';
import { nodeName } from './scenario/pools.ts';
import { DEFAULT_PROVISIONING_DELAY_MS } from './scenario/cluster-autoscaler.ts';
import type { NodePool, Scenario } from './scenario/types.ts';
import { virtualClock, type VirtualClock } from './virtual-clock.ts';
import { ClusterAutoscaler } from '../actors/cluster-autoscaler/cluster-autoscaler.ts';
import { clusterAutoscalerFromScenario } from '../actors/cluster-autoscaler/options.ts';
import { PRIORITIES_KEY, PRIORITY_CONFIG_MAP_NAME } from '../actors/cluster-autoscaler/priorities.ts';
import { prioritiesYaml } from './scenario/cluster-autoscaler.ts';
import { KUBE_SYSTEM_NAMESPACE } from '../actors/api/namespaces.ts';
import { LoadBalancer } from '../actors/load-balancer/balancer.ts';
import { TrafficView } from '../actors/load-balancer/traffic.ts';
import { SimCloudProvider } from './cloud-provider.ts';
import { CONFIG_MAPS, NODES } from '../actors/api/model/core.ts';
import { isNotFound } from '../actors/api/status.ts';
import { ApiClient } from '../actors/client/client.ts';
import { MetricsServer } from '../actors/metrics-server/metrics-server.ts';

/** Pod ranges are 10.A.B.0/24 per node: 65,536 nodes at most. */
const MAX_NODES = 65_536;
/** The label every simulated node carries with its pool's name. */
export const POOL_LABEL = 'orchsim.io/pool';
/**
 * The autoscaler's user. The real one runs as its own ServiceAccount bound to a ClusterRole its
 * chart installs; the simulator has no such role yet, so it acts with the administrators' group.
 */
const CLUSTER_AUTOSCALER_IDENTITY = { username: 'system:serviceaccount:kube-system:cluster-autoscaler', groups: ['system:masters', 'system:authenticated'] };

export interface SimNode {
  name: string;
  pool: string;
  zone: string;
  options: Partial<NodeAgentOptions>;
}

export interface ClusterHooks {
  /** Told of the process's actor system as soon as it exists, before any actor starts (an inspection log opens here). */
  onSystem?: (system: ActorSystem) => void;
  /** Records each actor keeps in memory (for an inspector). */
  recordsPerActor?: number;
  /** XState's inspection observer for the actors with these ids (the Stately inspector's chosen actors). */
  inspect?: (id: string) => Inspect | undefined;
  onDecision?: (d: Decision) => void;
  /** A NoExecute taint the node lifecycle controller puts on a node. */
  onTaint?: (node: string, key: string, atMs: number) => void;
  /** A pod the taint eviction controller deletes. */
  onEvict?: (pod: string, atMs: number) => void;
  /** A replica starts or stops doing its work, under the lock it holds. */
  onLeading?: (lock: string, identity: string, leading: boolean, atMs: number) => void;
  /** Errors of components (failed writes other than expected conflicts); the run counts and reports them. */
  onError?: (component: string, error: unknown) => void;
}

export class SimCluster {
  readonly clock: VirtualClock;
  readonly kernel: Kernel;
  readonly bus: MemoryBus;
  readonly random: Random;
  /** The process's actor system: every machine of every component, recorded on the virtual clock. */
  readonly system: ActorSystem;
  /** The API server; a restart replaces it with a new one on the same store. */
  server: ApiServer;
  /** Whether the API server is down (between a restart fault's stop and start). */
  apiServerDown = false;
  #requestsBefore = 0;
  #restarts = 0;
  /** Controller-manager and scheduler replicas; with more than one, they elect a leader each. */
  readonly controllerManagers: ControllerManager[];
  readonly schedulers: Replica<Scheduler>[];
  readonly nodes: SimNode[];
  readonly agents = new Map<string, NodeAgent>();
  /** Each component's link to the bus (node agents by node name, replicas by identity): where faults cut or freeze it. */
  readonly links = new Map<string, Link>();
  /** The API server's side of the request-time model, when the scenario has one: where the requests' time went. */
  readonly served: ServedBus | undefined;
  readonly #hooks: ClusterHooks;
  /** Each component authenticates to the API server as itself, as in a real cluster. */
  readonly #tokens = new ComponentTokens();
  /** The bus of the scenario's user, who creates the workloads: a cluster administrator. */
  readonly adminBus: Bus;
  readonly #byName: Map<string, SimNode>;
  /** The cluster autoscaler and the simulated cloud under it, when the scenario has `clusterAutoscaler:`. */
  readonly autoscaler: ClusterAutoscaler | undefined;
  readonly cloud: SimCloudProvider | undefined;
  /** The load balancer and the node agents' view of it, when a workload's pods share its load (`usage.spread`). */
  readonly balancer: LoadBalancer | undefined;
  readonly traffic: TrafficView | undefined;
  /** The next node's number in the cluster: its pod range and address (nodes added later count on). */
  #nextIndex: number;
  /** Each pool outside the cloud's groups: the next index a replacement of a deleted node takes (from its count on). */
  readonly #replacements = new Map<string, number>();

  constructor(readonly scenario: Scenario, readonly seed: number, hooks: ClusterHooks = {}) {
    this.#hooks = hooks;
    this.clock = virtualClock();
    this.kernel = new Kernel({ clock: this.clock, maxSteps: Number.MAX_SAFE_INTEGER });
    this.bus = new MemoryBus({ clock: this.clock, onError: (e) => this.#error('bus', e) });
    this.adminBus = this.#tokens.asIdentity(this.bus, { username: 'orchsim-workloads', groups: ['system:masters', 'system:authenticated'] });
    this.random = seededRandom(seed);
    this.system = new ActorSystem(this.clock, { ...(hooks.recordsPerActor ? { recordsPerActor: hooks.recordsPerActor } : {}), ...(hooks.inspect ? { inspect: hooks.inspect } : {}) });
    hooks.onSystem?.(this.system);
    // With a request-time model the server's bus delays and serves its requests; its clients' is the plain one.
    this.served = scenario.requestTime && new ServedBus(this.bus, this.clock, this.random.fork('request-time'), scenario.requestTime);
    this.server = new ApiServer(apiServerFromScenario(scenario.options.apiserver),
      { clock: this.clock, random: this.random.fork('apiserver'), bus: this.served ?? this.bus, system: this.system, componentTokens: this.#tokens });
    this.#installMetrics(this.server);
    this.controllerManagers = Array.from({ length: scenario.replicas.controllerManager }, (_, i) => this.#controllerManager(i));
    this.schedulers = Array.from({ length: scenario.replicas.scheduler }, (_, i) => this.#scheduler(i));
    this.nodes = planNodes(scenario);
    this.#byName = new Map(this.nodes.map((n) => [n.name, n]));
    this.#nextIndex = this.nodes.length;
    if (scenario.workloads.some((w) => w.usage?.spread !== undefined)) {
      const bus = this.#tokens.asIdentity(this.bus, { username: 'system:orchsim:load-balancer', groups: ['system:masters', 'system:authenticated'] });
      this.balancer = new LoadBalancer({ bus, clock: this.clock });
      this.traffic = new TrafficView(this.bus);
    }
    const ca = scenario.clusterAutoscaler;
    if (ca) {
      this.cloud = new SimCloudProvider(scenario.nodePools, this, this.clock, ca.provisioningDelayMs, this.clock.now(), this.random.fork('cloud'), (e) => this.#error('cloud', e));
      this.autoscaler = new ClusterAutoscaler({
        bus: this.#tokens.asIdentity(this.#link('cluster-autoscaler'), CLUSTER_AUTOSCALER_IDENTITY), clock: this.clock, random: this.random.fork('cluster-autoscaler'),
        options: clusterAutoscalerFromScenario(ca.flags), provider: this.cloud, system: this.system, events: scenario.events, onError: (e) => this.#error('cluster-autoscaler', e),
      });
    }
  }

  /** Starts the API server and the controller managers, registers every node, then starts the schedulers. */
  async start(): Promise<void> {
    await this.server.start();
    await this.balancer?.start();
    await this.traffic?.start();
    for (const cm of this.controllerManagers) await cm.start();
    for (const node of this.nodes) await this.startNode(node.name);
    for (const s of this.schedulers) await s.start();
    const priorities = this.scenario.clusterAutoscaler?.priorities;
    if (priorities) {
      const data = { [PRIORITIES_KEY]: prioritiesYaml(priorities) };
      await new ApiClient(this.adminBus, 'orchsim-workloads').create(CONFIG_MAPS, { metadata: { name: PRIORITY_CONFIG_MAP_NAME, namespace: KUBE_SYSTEM_NAMESPACE }, data });
    }
    await this.autoscaler?.start();
  }

  /** API requests served over the run, across restarts. */
  get apiRequests(): number {
    return this.#requestsBefore + this.server.requests;
  }

  /**
   * The API server stops (its state lives in the store, which survives) and a new one starts on
   * the same store after `downMs`: clients meanwhile find no one to answer.
   */
  restartApiServer(downMs: number): void {
    const old = this.server;
    old.stop();
    this.apiServerDown = true;
    this.clock.setTimeout(() => {
      this.#requestsBefore += old.requests;
      this.server = new ApiServer(old.options, { clock: this.clock, random: this.random.fork(`apiserver/restart-${++this.#restarts}`), bus: this.served ?? this.bus, store: old.store, system: this.system,
        componentTokens: this.#tokens });
      this.#installMetrics(this.server);
      this.apiServerDown = false;
      void this.server.start().catch((e) => this.#error('apiserver', e));
    }, downMs);
  }

  /** The controller manager leading now (else the first replica). */
  get controllers(): ControllerManager {
    return this.controllerManagers.find((c) => c.leading) ?? this.controllerManagers[0]!;
  }

  /** The scheduler of the replica leading now, else of the last one that led (its decisions and informers). */
  get scheduler(): Scheduler | undefined {
    return (this.schedulers.find((s) => s.leading) ?? this.schedulers.find((s) => s.last))?.last;
  }

  /** Replica `index` of a component crashes; a new one with the same identity starts after `restartAfterMs` (if given). */
  crashReplica(component: 'controllerManager' | 'scheduler', index: number, restartAfterMs?: number): void {
    const list = component === 'scheduler' ? this.schedulers : this.controllerManagers;
    list[index]!.crash();
    if (restartAfterMs === undefined) return;
    this.clock.setTimeout(() => {
      const next = component === 'scheduler' ? this.#scheduler(index) : this.#controllerManager(index);
      (list as (typeof next)[])[index] = next;
      void next.start().catch((e) => this.#error(component, e));
    }, restartAfterMs);
  }

  /** The index of the replica leading now (-1: none). */
  leaderIndex(component: 'controllerManager' | 'scheduler'): number {
    return (component === 'scheduler' ? this.schedulers : this.controllerManagers).findIndex((r) => r.leading);
  }

  /**
   * A scenario whose pods have a usage model or whose Deployments autoscale runs in a cluster with
   * metrics-server installed (as `orchsim serve` always is), so `metrics.k8s.io` answers the
   * autoscalers; any other gets none, and its run does no work for metrics.
   */
  #installMetrics(server: ApiServer): void {
    if (this.scenario.workloads.some((w) => w.usage !== undefined || w.autoscale !== undefined))
      server.aggregate(new MetricsServer({ bus: server.bus, clock: this.clock }));
  }

  #link(name: string): Link {
    let link = this.links.get(name);
    if (!link) this.links.set(name, (link = new Link(this.bus, this.clock, this.random.fork(`link/${name}`))));
    return link;
  }

  #controllerManager(i: number): ControllerManager {
    const identity = `controller-manager-${i}`;
    const hooks = this.#hooks;
    return new ControllerManager({
      bus: this.#link(identity), asIdentity: this.#tokens.asIdentity, clock: this.clock, random: this.random.fork(identity),
      options: controllerManagerFromScenario(this.scenario.options.controllerManager), identity, system: this.system, events: this.scenario.events,
      onError: (controller, e) => this.#error(controller, e),
      ...(hooks.onTaint ? { onTaint: hooks.onTaint } : {}), ...(hooks.onEvict ? { onEvict: hooks.onEvict } : {}),
      ...(hooks.onLeading ? { onLeading: (id, leading, at) => hooks.onLeading!('orch-controller-manager', id, leading, at) } : {}),
    });
  }

  #scheduler(i: number): Replica<Scheduler> {
    const identity = `scheduler-${i}`;
    const hooks = this.#hooks;
    return schedulerReplica({
      bus: this.#tokens.asIdentity(this.#link(identity), SCHEDULER), clock: this.clock, random: this.random.fork(i === 0 ? 'scheduler' : identity),
      options: schedulerFromScenario(this.scenario.options.scheduler), identity, system: this.system, events: this.scenario.events,
      ...(hooks.onDecision ? { onDecision: hooks.onDecision } : {}),
      ...(hooks.onLeading ? { onLeading: hooks.onLeading } : {}),
      onError: (e) => this.#error('scheduler', e),
    });
  }

  node(name: string): SimNode | undefined {
    return this.#byName.get(name);
  }

  /** Starts (or restarts, after a crash) the agent of `name`. */
  async startNode(name: string): Promise<void> {
    const node = this.node(name);
    if (!node) throw new Error(`no node ${name} in this cluster`);
    if (this.agents.has(name)) return;
    const agent = new NodeAgent({ bus: this.#tokens.asIdentity(this.#link(name), nodeIdentity(name)), clock: this.clock, random: this.random.fork(`nodeagent/${name}`), nodeName: name,
      options: node.options, system: this.system, events: this.scenario.events, onError: (e) => this.#error(`nodeagent/${name}`, e),
      ...(this.traffic ? { loadShares: this.traffic } : {}) });
    this.agents.set(name, agent);
    await agent.start();
  }

  /** A node of `pool` the cloud provisioned joins: its agent starts and registers it. */
  async addNode(pool: NodePool, name: string, index: number): Promise<void> {
    const zone = pool.zones[index % pool.zones.length] ?? '';
    const node: SimNode = { name, pool: pool.name, zone, options: { ...nodeAgentFromScenario(this.scenario.options.nodeagent), ...poolOptions(pool, zone, this.#nextIndex++) } };
    this.nodes.push(node);
    this.#byName.set(name, node);
    await this.startNode(name);
  }

  /** The cloud removed the node's machine: its agent stops and its Node object is deleted. */
  async removeNode(name: string): Promise<void> {
    this.crashNode(name);
    const i = this.nodes.findIndex((n) => n.name === name);
    if (i >= 0) this.nodes.splice(i, 1);
    this.#byName.delete(name);
    try {
      await new ApiClient(this.adminBus, 'orchsim-cloud').delete(NODES, undefined, name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  /** The cloud takes the node's instance back: an autoscaled group shrinks with it; any other node is simply gone. */
  async loseInstance(name: string): Promise<void> {
    if (!(await this.cloud?.instanceLost(name))) await this.removeNode(name);
  }

  /**
   * The node is deleted with its instance (its agent stops, its Node is deleted, the pods on it left
   * to the pod GC). The cloud's group (a pool the cluster autoscaler scales) replaces it unless
   * `replace` is false (then it shrinks); another pool's node is replaced only with `replace`, by the pool's next index never
   * used, after the same provisioning delay. The replacement's name and how long until it joins.
   */
  async deleteNode(name: string, replace: boolean | undefined): Promise<{ by: string; joinsInMs: number } | undefined> {
    const node = this.node(name);
    if (!node) return undefined;
    const delayMs = this.scenario.clusterAutoscaler?.provisioningDelayMs ?? DEFAULT_PROVISIONING_DELAY_MS;
    if (this.cloud?.runs(name)) {
      const by = await this.cloud.terminate(name, replace ?? true);
      return by === undefined ? undefined : { by, joinsInMs: delayMs };
    }
    await this.removeNode(name);
    if (!replace) return undefined;
    const pool = this.scenario.nodePools.find((p) => p.name === node.pool)!;
    const index = this.#replacements.get(pool.name) ?? pool.count;
    this.#replacements.set(pool.name, index + 1);
    const by = nodeName(pool, index);
    this.clock.setTimeout(() => void this.addNode(pool, by, index).catch((e) => this.#error('cloud', e)), delayMs);
    return { by, joinsInMs: delayMs };
  }

  /** The node crashes: its agent stops at once (no more lease renewals, status or pod updates). */
  crashNode(name: string): void {
    const agent = this.agents.get(name);
    if (!agent) return;
    agent.crash();
    this.agents.delete(name);
  }

  stop(): void {
    this.autoscaler?.stop();
    this.balancer?.stop();
    this.traffic?.stop();
    for (const s of this.schedulers) s.crash();
    for (const cm of this.controllerManagers) cm.crash();
    for (const a of this.agents.values()) a.stop();
    this.agents.clear();
    this.server.stop();
  }

  #error(component: string, e: unknown): void {
    // Requests a faulty link lost time out, and nobody answers while the API server is down: that
    // is the fault, not a failure of the run.
    if (e instanceof LostRequestError || (e instanceof NoRespondersError && this.apiServerDown)) return;
    if (this.#hooks.onError) this.#hooks.onError(component, e);
    else console.error(`${component}:`, e);
  }
}

function planNodes(scenario: Scenario): SimNode[] {
  const nodes: SimNode[] = [];
  const agentDefaults = nodeAgentFromScenario(scenario.options.nodeagent);
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
