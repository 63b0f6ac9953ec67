// The cluster behind `orchsim serve --nodes N`: simulated nodes (one node agent each, spread over
// zones), the scheduler and the controller manager, on the server's bus and clock, so that kubectl
// sees Ready nodes and pods that get scheduled and run, as with a fake-node tool.
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

export interface ServeNodesOptions {
  nodes: number;
  /** Zones the nodes are spread over, round-robin. */
  zones: string[];
  /** Options of every node agent (capacity and the like). */
  nodeagent?: Partial<NodeAgentOptions>;
}

export interface ServedNodes {
  names: string[];
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
  const controllers = new ControllerManager({ bus, asIdentity, options: { useServiceAccountCredentials: true }, clock, random: random.fork('controller-manager'), system, onError });
  await controllers.start();
  const names = Array.from({ length: o.nodes }, (_, i) => `node-${i}`);
  const agents = new Map<string, NodeAgent>();
  /** Agents started again after a stop: each draws from its own stream. */
  let restarts = 0;
  const startAgent = async (name: string) => {
    const i = names.indexOf(name);
    const zone = o.zones.length ? o.zones[i % o.zones.length]! : '';
    const stream = restarts === 0 ? `nodeagent/${name}` : `nodeagent/${name}/restart-${restarts}`;
    const agent = new NodeAgent({ bus: asIdentity(bus, nodeIdentity(name)), clock, random: random.fork(stream), nodeName: name,
      options: { region: zone ? 'region-1' : '', zone, ...nodeAddresses(i), ...o.nodeagent }, system,
      onError: (e) => onError(`nodeagent/${name}`, e) });
    agents.set(name, agent);
    await agent.start();
  };
  for (const name of names) await startAgent(name);
  const scheduler = schedulerReplica({ bus: asIdentity(bus, SCHEDULER), clock, random: random.fork('scheduler'), options: schedulerOptions(), identity: 'scheduler', system,
    onError: (e) => onError('scheduler', e) });
  await scheduler.start();
  return {
    names,
    running: (name) => agents.has(name),
    stopNode(name) {
      const agent = agents.get(name);
      if (!agent) return false;
      agent.stop();
      agents.delete(name);
      return true;
    },
    async startNode(name) {
      if (!names.includes(name) || agents.has(name)) return false;
      restarts++;
      await startAgent(name);
      return true;
    },
    async stop() {
      for (const a of agents.values()) a.stop();
      await Promise.all([scheduler.stop(), controllers.stop()]);
    },
  };
}
