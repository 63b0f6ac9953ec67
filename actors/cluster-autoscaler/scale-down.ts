// Which nodes are unneeded now, as the real autoscaler's scale-down planner finds them
// (core/scaledown/planner, simulator/cluster.go): a node of a group whose pods request less than
// the utilisation threshold of its allocatable CPU and of its memory (the larger fraction
// counts), whose pods may all be moved (drain-rules.ts, budgets allowing) and fit on the other
// nodes (the scheduler's filters decide, nodes found unneeded earlier in the pass excepted), and
// whose group stays at or above its minimum. How long a node has been unneeded is the machine's.
import type { PodDisruptionBudget } from '../api/model/policy.ts';
import type { FilterPlugin, NodeInfo, PodInfo } from '../scheduler/framework.ts';
import type { NodeGroup } from './cloud-provider.ts';
import { drainability } from './drain-rules.ts';
import type { ClusterAutoscalerOptions } from './options.ts';
import { Simulation, unboundPodInfo, type Placement } from './simulation.ts';

/** The real utilization.Info: each fraction, the larger one and its resource. */
export interface Utilization {
  cpu: number;
  memory: number;
  resource: 'cpu' | 'memory';
  value: number;
}

export interface Candidate {
  info: NodeInfo;
  group: NodeGroup;
}

export interface UnneededNode {
  name: string;
  group: NodeGroup;
  utilization: Utilization;
  /** The pods a drain would evict (none: an empty node). */
  podsToMove: PodInfo[];
}

export interface ScaleDownInput {
  /** Every Ready node not being removed: where pods may go. */
  nodes: readonly NodeInfo[];
  /** The nodes that may be removed (of a group, not annotated scale-down-disabled, not being removed), in the order to consider them. */
  candidates: readonly Candidate[];
  budgets: readonly PodDisruptionBudget[];
  /** Nodes of each group whose removal is under way (they no longer count above the minimum). */
  deleting: ReadonlyMap<string, number>;
  options: Pick<ClusterAutoscalerOptions, 'scaleDownUtilizationThreshold' | 'skipNodesWithLocalStorage' | 'skipNodesWithSystemPods'>;
  filters: readonly FilterPlugin[];
}

export function utilizationOf(node: NodeInfo): Utilization {
  const cpu = node.allocatableMilliCPU > 0 ? node.requestedMilliCPU / node.allocatableMilliCPU : 0;
  const memory = node.allocatableMemory > 0 ? node.requestedMemory / node.allocatableMemory : 0;
  return cpu >= memory ? { cpu, memory, resource: 'cpu', value: cpu } : { cpu, memory, resource: 'memory', value: memory };
}

/** The pods to move off `node`, or undefined when one blocks it (or a budget would be broken). */
function podsToMove(node: NodeInfo, input: ScaleDownInput, allowed: Map<PodDisruptionBudget, number>): PodInfo[] | undefined {
  const out: PodInfo[] = [];
  const spent = new Map<PodDisruptionBudget, number>();
  for (const p of node.pods) {
    const d = drainability(p.pod, input.budgets, input.options);
    if (d.kind === 'block') return undefined;
    if (d.kind === 'skip') continue;
    for (const b of d.budgets) spent.set(b, (spent.get(b) ?? 0) + 1);
    out.push(unboundPodInfo(p.pod));
  }
  for (const [b, n] of spent) if ((allowed.get(b) ?? b.status?.disruptionsAllowed ?? 0) < n) return undefined;
  for (const [b, n] of spent) allowed.set(b, (allowed.get(b) ?? b.status?.disruptionsAllowed ?? 0) - n);
  return out;
}

export function findUnneeded(input: ScaleDownInput): UnneededNode[] {
  // The what-if copy is made only once a node needs its pods placed: a pass that finds no node
  // under the threshold, or only empty ones, copies nothing.
  let copy: Simulation | undefined;
  const gone = new Set<string>();
  const simulation = () => (copy ??= new Simulation(input.nodes.filter((n) => !gone.has(n.name)), input.filters));
  const room = new Map<NodeGroup, number>();
  const allowed = new Map<PodDisruptionBudget, number>();
  const out: UnneededNode[] = [];
  for (const { info, group } of input.candidates) {
    const utilization = utilizationOf(info);
    if (!(utilization.value < input.options.scaleDownUtilizationThreshold)) continue;
    const left = room.get(group) ?? group.targetSize() - (input.deleting.get(group.id) ?? 0) - group.minSize;
    if (left <= 0) continue;
    const before = new Map(allowed);
    const pods = podsToMove(info, input, allowed);
    if (!pods) continue;
    if (pods.length === 0) {
      if (copy) copy.removeNode(info.name);
      else gone.add(info.name);
      room.set(group, left - 1);
      out.push({ name: info.name, group, utilization, podsToMove: pods });
      continue;
    }
    const sim = simulation();
    // Where the pods would go: any other node (those found unneeded are gone from the simulation).
    const destinations = sim.nodes.filter((n) => n.name !== info.name);
    const placed: Placement[] = [];
    for (const pod of pods) {
      const p = sim.place(pod, destinations);
      if (!p) break;
      placed.push(p);
    }
    if (placed.length < pods.length) {
      sim.undo(placed);
      allowed.clear();
      for (const [b, n] of before) allowed.set(b, n);
      continue;
    }
    sim.removeNode(info.name);
    room.set(group, left - 1);
    out.push({ name: info.name, group, utilization, podsToMove: pods });
  }
  return out;
}
