// Scale-up as the real autoscaler plans it (core/scaleup/orchestrator, estimator/binpacking):
// pending pods that fit the nodes there are, or the nodes already asked for, are left to the
// scheduler; for the rest each group not at its maximum estimates how many of its template nodes
// the pods would fill (first fit, the largest pods first), the expanders choose one option, and
// it grows by that many nodes (capped at its maximum). Pods no group can take are told why.
import type { Node } from '../api/model/core.ts';
import type { Random } from '../api/env.ts';
import type { FilterPlugin, NodeInfo, PodInfo } from '../scheduler/framework.ts';
import type { NodeGroup } from './cloud-provider.ts';
import { bestOption, type Option } from './expander.ts';
import type { ExpanderName } from './options.ts';
import { Simulation, type Placement } from './simulation.ts';

/** The real skipped-group reason of a group at its maximum. */
export const MAX_LIMIT_REACHED = 'max node group size reached';
const HOSTNAME = 'kubernetes.io/hostname';

export interface GroupState {
  group: NodeGroup;
  /** Nodes asked for that are not yet Ready. */
  upcoming: number;
}

export interface ScaleUpInput {
  /** Pods the scheduler found no node for. */
  pending: readonly PodInfo[];
  /** The Ready nodes not being removed, as the scheduler's cache holds them. */
  nodes: readonly NodeInfo[];
  groups: readonly GroupState[];
  filters: readonly FilterPlugin[];
  expanders: readonly ExpanderName[];
  random: Random;
}

export interface ScaleUpPlan {
  /** The group to grow, from its target size to newSize, and the pods that would then fit. */
  chosen?: { option: Option; currentSize: number; newSize: number };
  /** Pods that no option helps, with the reasons per group (for NotTriggerScaleUp). */
  unhelped: { pod: PodInfo; reasons: string[][] }[];
}

/** A copy of the group's template, named as the real one's template nodes are. */
function templateCopy(group: NodeGroup, index: number): Node {
  const t = group.templateNode();
  const name = `template-node-for-${group.id}-${index}`;
  return { ...t, metadata: { ...t.metadata, name, labels: { ...t.metadata.labels, [HOSTNAME]: name } } };
}

/** Larger pods first: their share of the template's CPU plus their share of its memory. */
function bySize(pods: readonly PodInfo[], template: NodeInfo): PodInfo[] {
  const share = (p: PodInfo) => p.requests.milliCPU / (template.allocatableMilliCPU || 1) + p.requests.memory / (template.allocatableMemory || 1);
  return [...pods].sort((a, b) => share(b) - share(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** How many new nodes of `group` (at most `room`) the pods would fill, and which pods fit. */
function estimate(sim: Simulation, g: GroupState, room: number, pods: readonly PodInfo[], reasons: Map<PodInfo, string[][]>): Option {
  const added: NodeInfo[] = [];
  const placements: Placement[] = [];
  const helped: PodInfo[] = [];
  const probe = sim.addNode(templateCopy(g.group, 0));
  const order = bySize(pods, probe);
  sim.removeNode(probe.name);
  for (const pod of order) {
    let p = sim.place(pod, added);
    if (!p && added.length < room) {
      const fresh = sim.addNode(templateCopy(g.group, added.length));
      const why: string[] = [];
      p = sim.place(pod, [fresh], why);
      if (p) added.push(fresh);
      else {
        sim.removeNode(fresh.name);
        reasons.get(pod)!.push([...new Set(why)]);
      }
    }
    if (p) {
      placements.push(p);
      helped.push(pod);
    }
  }
  const offered = { milliCPU: 0, memory: 0 };
  for (const n of added) {
    offered.milliCPU += n.allocatableMilliCPU;
    offered.memory += n.allocatableMemory;
  }
  sim.undo(placements);
  for (const n of added) sim.removeNode(n.name);
  return { group: g.group, nodeCount: added.length, pods: helped, offered };
}

export function planScaleUp(input: ScaleUpInput): ScaleUpPlan {
  const sim = new Simulation(input.nodes, input.filters);
  // Nodes asked for and not yet Ready are there already, as their templates.
  for (const g of input.groups) for (let i = 0; i < g.upcoming; i++) sim.addNode(templateCopy(g.group, -1 - i));
  const remaining = input.pending.filter((pod) => !sim.place(pod));
  if (remaining.length === 0) return { unhelped: [] };
  const reasons = new Map<PodInfo, string[][]>(remaining.map((p) => [p, []]));
  const options: Option[] = [];
  for (const g of input.groups) {
    const room = g.group.maxSize - g.group.targetSize();
    if (room <= 0) {
      for (const r of reasons.values()) r.push([MAX_LIMIT_REACHED]);
      continue;
    }
    const option = estimate(sim, g, room, remaining, reasons);
    if (option.nodeCount > 0) options.push(option);
  }
  const option = bestOption(options, input.expanders, input.random);
  const helped = new Set(option?.pods);
  const unhelped = remaining.filter((p) => !helped.has(p)).map((pod) => ({ pod, reasons: reasons.get(pod)! }));
  if (!option) return { unhelped };
  const currentSize = option.group.targetSize();
  return { chosen: { option, currentSize, newSize: currentSize + option.nodeCount }, unhelped };
}

/** The real NotTriggerScaleUp text: each reason with the number of groups that gave it. */
export function notTriggeredMessage(reasons: readonly string[][]): string {
  const counts = new Map<string, number>();
  for (const group of reasons) for (const r of group) counts.set(r, (counts.get(r) ?? 0) + 1);
  return `pod didn't trigger scale-up: ${[...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([r, n]) => `${n} ${r}`).join(', ')}`;
}
