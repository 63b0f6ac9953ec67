// Nodes created through the API with the annotation `orchsim.io/simulated: "true"` are taken over
// by a simulated node agent, as fake-node tools (kwok) take over the nodes they select: serve
// watches Nodes, starts an agent for each annotated one it does not run yet (which then reports
// its conditions, renews its Lease and runs the pods bound to it), and stops it when the Node is
// deleted or loses the annotation. The agent's capacity, zone, pod range and address are the
// Node's own where it states them (status.capacity, the topology labels, spec.podCIDR, an
// InternalIP address), else serve's defaults; a Node without a pod range is given one, as the
// node IPAM controller gives one to a node that registers without it.
import type { Clock } from '../actors/api/env.ts';
import { isConflict } from '../actors/api/status.ts';
import type { KObject } from '../actors/api/types.ts';
import { WatchHub } from '../actors/apiserver/watch/hub.ts';
import { ApiClient } from '../actors/client/client.ts';
import { Informer } from '../actors/client/informer.ts';
import type { NodeAgentOptions } from '../actors/nodeagent/options.ts';
import type { Bus } from '../transport/bus.ts';
import { NODES, type Node } from '../actors/api/model/core.ts';

export const SIMULATED_ANNOTATION = 'orchsim.io/simulated';
const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
const RANGE_ATTEMPTS = 5;

export interface ApiNodeHooks {
  /** Whether serve simulates `name` already (one of its own nodes): a Node of that name is not taken over. */
  has(name: string): boolean;
  /** Starts an agent for the Node with these options. */
  take(name: string, options: Partial<NodeAgentOptions>): Promise<void>;
  /** Stops the agent of a Node that is gone or no longer annotated. */
  release(name: string): void;
  /** The pod range and address to give a Node that states none (a fresh one per call). */
  addresses(): Pick<NodeAgentOptions, 'podCIDR' | 'internalIP'>;
  onError(e: unknown): void;
}

const annotated = (node: KObject) => node.metadata.annotations?.[SIMULATED_ANNOTATION] === 'true';

/** What a Node says of itself, as an agent's options. */
export function agentOptionsOf(node: Node, fallback: Pick<NodeAgentOptions, 'podCIDR' | 'internalIP'>): Partial<NodeAgentOptions> {
  const capacity = node.status?.capacity ?? {};
  const podCIDR = node.spec?.podCIDR;
  const internalIP = (node.status?.addresses ?? []).find((a) => a.type === 'InternalIP')?.address;
  const pods = Number(capacity.pods);
  const labels = node.metadata.labels ?? {};
  return {
    ...(capacity.cpu ? { cpu: capacity.cpu } : {}), ...(capacity.memory ? { memory: capacity.memory } : {}),
    ...(capacity['ephemeral-storage'] ? { ephemeralStorage: capacity['ephemeral-storage'] } : {}),
    ...(Number.isInteger(pods) && pods > 0 ? { maxPods: pods } : {}),
    zone: labels[ZONE] ?? '', region: labels[REGION] ?? '',
    // The agent's addresses are /24s; a Node's own range of another size is left to the agent's default.
    podCIDR: podCIDR && /^\d+\.\d+\.\d+\.0\/24$/.test(podCIDR) ? podCIDR : fallback.podCIDR,
    internalIP: internalIP ?? fallback.internalIP,
  };
}

/** Follows the Nodes; resolves once the first list is handled. The returned function stops following. */
export async function takeOverApiNodes(bus: Bus, clock: Clock, hooks: ApiNodeHooks): Promise<() => void> {
  const client = new ApiClient(bus, 'orchsim-serve/simulated-nodes', undefined, undefined, { clock });
  const informer = new Informer({ client, hub: new WatchHub(bus), clock, type: NODES, indexed: false });
  /** The Nodes this takes over (serve's own nodes are not among them), and those whose agent is being started. */
  const taken = new Set<string>();
  const starting = new Set<string>();
  const release = (name: string) => {
    if (taken.delete(name)) hooks.release(name);
  };
  const consider = (node: KObject) => {
    const name = node.metadata.name!;
    if (!annotated(node) || node.metadata.deletionTimestamp) return release(name);
    if (taken.has(name) || starting.has(name) || hooks.has(name)) return;
    starting.add(name);
    const options = agentOptionsOf(node, hooks.addresses());
    void giveRange(client, node, options.podCIDR!)
      // Deleted meanwhile: no agent, or it would register the Node again.
      .then(() => (informer.cache.get(undefined, name) ? (taken.add(name), hooks.take(name, options)) : undefined))
      .catch(hooks.onError).finally(() => starting.delete(name));
  };
  informer.on({ add: consider, update: (_old, node) => consider(node), delete: (node) => release(node.metadata.name!) });
  await informer.start();
  return () => informer.stop();
}

/** A Node without a pod range gets the one its agent gives its pods addresses from (written again when another write races it). */
async function giveRange(client: ApiClient, node: Node, podCIDR: string): Promise<void> {
  if (node.spec?.podCIDR) return;
  for (let attempt = 1; ; attempt++) {
    try {
      return void (await client.patch(NODES, undefined, node.metadata.name!, { spec: { podCIDR, podCIDRs: [podCIDR] } }, 'merge'));
    } catch (e) {
      if (!(isConflict(e) && attempt < RANGE_ATTEMPTS)) throw e;
    }
  }
}
