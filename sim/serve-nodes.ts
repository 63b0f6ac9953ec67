// The cluster behind `orchsim serve --nodes N`: simulated nodes (one node agent each, spread over
// zones), the scheduler and the controller manager, on the server's bus and clock, so that kubectl
// sees Ready nodes and pods that get scheduled and run, as with a fake-node tool. Nodes created
// through the API with the annotation orchsim.io/simulated: "true" get an agent too (api-nodes.ts).
import type { Clock, Random } from '../actors/api/env.ts';
import { ControllerManager } from '../actors/controller-manager/controller-manager.ts';
import { NodeAgent } from '../actors/nodeagent/nodeagent.ts';
import type { NodeAgentOptions } from '../actors/nodeagent/options.ts';
import { schedulerOptions } from '../actors/scheduler/options.ts';
import { schedulerReplica } from '../actors/scheduler/replica.ts';
import type { ActorSystem } from '../actors/system/actor-system.ts';
import type { Bus } from '../transport/bus.ts';
import { nodeIdentity, SCHEDULER, type AsIdentity } from '../actors/client/credentials.ts';
import { nodeAddresses } from './cluster.ts';
import { takeOverApiNodes } from './api-nodes.ts';

/** Who follows the Nodes to take over annotated ones: an administrator, as a fake-node tool runs. */
const NODE_SIMULATOR = { username: 'orchsim-node-simulator', groups: ['system:masters', 'system:authenticated'] };

export interface ServeNodesOptions {
  nodes: number;
  /** Zones the nodes are spread over, round-robin. */
  zones: string[];
  /** Options of every node agent (capacity and the like). */
  nodeagent?: Partial<NodeAgentOptions>;
  /** The cluster's CA bundle, which the controller manager publishes in every namespace (kube-root-ca.crt). */
  rootCa?: string;
}

export interface ServedNodes {
  /** The nodes serve simulates: its own, then those taken over through the API. */
  readonly names: string[];
  /** Whether `name`'s agent runs. */
  running(name: string): boolean;
  /** Stops `name`'s agent, as `systemctl stop` would: its Node goes silent. False if it was not running. */
  stopNode(name: string): boolean;
  /** Starts `name`'s agent again: it registers and renews its Lease anew. False if it was running. */
  startNode(name: string): Promise<boolean>;
  /** Stops everything; resolves once the controller manager and the scheduler have released their Leases. */
  stop(): Promise<void>;
}

/**
 * Names `node-0`, `node-1`, ... as kind-like tools name theirs. Each component authenticates as
 * itself (`asIdentity`): the scheduler, the controller manager with a service account per
 * controller (as kubeadm runs it), each node agent as its node.
 */
export async function startServedNodes(bus: Bus, asIdentity: AsIdentity, clock: Clock, random: Random, system: ActorSystem, o: ServeNodesOptions,
  onError: (where: string, e: unknown) => void): Promise<ServedNodes> {
  if (!(Number.isInteger(o.nodes) && o.nodes >= 0 && o.nodes <= 5000)) throw new RangeError(`--nodes must be an integer from 0 to 5000, got ${o.nodes}`);
  const controllers = new ControllerManager({ bus, asIdentity, options: { useServiceAccountCredentials: true }, clock, random: random.fork('controller-manager'), system, onError,
    ...(o.rootCa !== undefined ? { rootCa: o.rootCa } : {}) });
  await controllers.start();
  const names = Array.from({ length: o.nodes }, (_, i) => `node-${i}`);
  /** Each node's agent options: serve's own nodes', then those of Nodes taken over through the API. */
  const options = new Map<string, Partial<NodeAgentOptions>>(names.map((name, i) => {
    const zone = o.zones.length ? o.zones[i % o.zones.length]! : '';
    return [name, { region: zone ? 'region-1' : '', zone, ...nodeAddresses(i), ...o.nodeagent }];
  }));
  const agents = new Map<string, NodeAgent>();
  /** Agents started again after a stop: each draws from its own stream. */
  let restarts = 0;
  const startAgent = async (name: string) => {
    const stream = restarts === 0 ? `nodeagent/${name}` : `nodeagent/${name}/restart-${restarts}`;
    const agent = new NodeAgent({ bus: asIdentity(bus, nodeIdentity(name)), clock, random: random.fork(stream), nodeName: name,
      options: options.get(name), system, onError: (e) => onError(`nodeagent/${name}`, e) });
    agents.set(name, agent);
    await agent.start();
  };
  const stopAgent = (name: string) => {
    const agent = agents.get(name);
    agent?.stop();
    agents.delete(name);
    return agent !== undefined;
  };
  for (const name of names) await startAgent(name);
  let taken = names.length;
  const stopFollowing = await takeOverApiNodes(asIdentity(bus, NODE_SIMULATOR), clock, {
    has: (name) => options.has(name),
    take: (name, given) => (options.set(name, { ...o.nodeagent, ...given }), startAgent(name)),
    release: (name) => (stopAgent(name), options.delete(name)),
    addresses: () => nodeAddresses(taken++),
    onError: (e) => onError('simulated-nodes', e),
  });
  const scheduler = schedulerReplica({ bus: asIdentity(bus, SCHEDULER), clock, random: random.fork('scheduler'), options: schedulerOptions(), identity: 'scheduler', system,
    onError: (e) => onError('scheduler', e) });
  await scheduler.start();
  return {
    get names() {
      return [...options.keys()];
    },
    running: (name) => agents.has(name),
    stopNode: stopAgent,
    async startNode(name) {
      if (!options.has(name) || agents.has(name)) return false;
      restarts++;
      await startAgent(name);
      return true;
    },
    async stop() {
      stopFollowing();
      for (const a of agents.values()) a.stop();
      await Promise.all([scheduler.stop(), controllers.stop()]);
    },
  };
}
