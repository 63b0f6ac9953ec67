// Scale-up as the real autoscaler plans it (core/scaleup/orchestrator, estimator/binpacking,
// equivalence groups): pending pods that fit the nodes there are, or the nodes already asked for,
// are left to the scheduler; for the rest each group not at its maximum estimates how many of its
// template nodes the pods would fill (the largest pods first, one equivalence group at a time),
// the expanders choose one option, and it grows by that many nodes (capped at its maximum), shared
// with the groups similar to it when balancing (balance.ts). Pods no group can take are told why.
// Alike pods are judged once where the real one does, so a burst of thousands of pending replicas
// costs about what their distinct shapes do.
import type { Node } from '../api/model/core.ts';
import { controllerOf } from '../api/types.ts';
import type { Random } from '../api/env.ts';
import type { FilterPlugin, NodeInfo, PodInfo } from '../scheduler/framework.ts';
import type { NodeGroup } from './cloud-provider.ts';
import { balanceScaleUp, similarTemplates, type Increase } from './balance.ts';
import { bestOption, type Option, type PriorityConfig } from './expander.ts';
import type { ExpanderName } from './options.ts';
import { Simulation, type Placement } from './simulation.ts';

/** The real skipped-group reason of a group at its maximum. */
export const MAX_LIMIT_REACHED = 'max node group size reached';
/** The real skipped-group reason of a group backed off after a failed scale-up. */
export const BACKOFF_REASON = 'in backoff after failed scale-up';
const HOSTNAME = 'kubernetes.io/hostname';

export interface GroupState {
  group: NodeGroup;
  /** Nodes asked for that are not yet Ready. */
  upcoming: number;
  /** Left out of scale-up after a failed one (cluster-state.ts). */
  backedOff?: boolean;
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
  /** What the priority expander reads, when it is one of the expanders. */
  priority?: PriorityConfig;
  /** `--balance-similar-node-groups`: the labels its similarity check leaves out. */
  balance?: { ignoredLabels: ReadonlySet<string> };
}

export interface ScaleUpPlan {
  /** The option chosen, and the groups that grow for it (itself, and the similar groups when balancing). */
  chosen?: { option: Option; increases: Increase[] };
  /** Pods that no option helps, with the reasons per group (for NotTriggerScaleUp). */
  unhelped: { pod: PodInfo; reasons: string[][] }[];
}

/** A copy of the group's template, named as the real one's template nodes are. */
function templateCopy(group: NodeGroup, index: number): Node {
  const t = group.templateNode();
  const name = `template-node-for-${group.id}-${index}`;
  return { ...t, metadata: { ...t.metadata, name, labels: { ...t.metadata.labels, [HOSTNAME]: name } } };
}

/**
 * Pods alike for scheduling, as the real PodEquivalenceGroups: the same controller and the same
 * spec but for projected volumes (their names carry generated suffixes and place nothing). One
 * pod of a group that fits nowhere says the rest do not either. Groups in order of first appearance.
 */
export function equivalenceGroups(pods: readonly PodInfo[]): PodInfo[][] {
  const groups = new Map<string, PodInfo[]>();
  for (const p of pods) {
    const owner = controllerOf(p.pod)?.uid;
    const key = owner === undefined ? `pod/${p.key}` : `${owner}/${specKey(p)}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(p);
  }
  return [...groups.values()];
}

const specKeys = new WeakMap<PodInfo, string>();
function specKey(p: PodInfo): string {
  let key = specKeys.get(p);
  if (key === undefined) {
    const spec = p.pod.spec ?? { containers: [] };
    const volumes = spec.volumes?.filter((v) => v.projected === undefined);
    specKeys.set(p, (key = JSON.stringify({ ...spec, nodeName: undefined, volumes })));
  }
  return key;
}

/** Larger groups' pods first: their share of the template's CPU plus their share of its memory. */
function bySize(groups: readonly PodInfo[][], template: NodeInfo): PodInfo[][] {
  const share = (p: PodInfo) => p.requests.milliCPU / (template.allocatableMilliCPU || 1) + p.requests.memory / (template.allocatableMemory || 1);
  return [...groups].sort((a, b) => share(b[0]!) - share(a[0]!) || (a[0]!.key < b[0]!.key ? -1 : a[0]!.key > b[0]!.key ? 1 : 0));
}

/**
 * How many new nodes of `group` (at most `room`) the pods would fill, and which pods fit: the
 * real binpacking estimator. Each equivalence group's pods go first onto the new nodes already
 * added (the node its last pod went to first), until one does not fit; the rest onto the newest
 * node, else onto a new one; a pod that does not fit an empty node ends its group.
 */
function estimate(sim: Simulation, g: GroupState, room: number, groups: readonly PodInfo[][], reasons: Map<PodInfo, string[][]>): Option {
  const added: NodeInfo[] = [];
  const placements: Placement[] = [];
  const probe = sim.addNode(templateCopy(g.group, 0));
  const order = bySize(groups, probe);
  sim.removeNode(probe.name);
  for (const pods of order) {
    let i = 0;
    let hint: NodeInfo | undefined;
    for (; i < pods.length; i++) {
      const p = (hint && sim.place(pods[i]!, [hint])) || sim.place(pods[i]!, added);
      if (!p) break;
      placements.push(p);
      hint = p.node;
    }
    for (; i < pods.length; i++) {
      const newest = added.at(-1);
      let p = newest && sim.place(pods[i]!, [newest]);
      if (!p) {
        if (added.length >= room) break;
        const fresh = sim.addNode(templateCopy(g.group, added.length));
        const why: string[] = [];
        p = sim.place(pods[i]!, [fresh], why);
        if (!p) {
          sim.removeNode(fresh.name);
          const reason = [...new Set(why)];
          for (const pod of pods.slice(i)) reasons.get(pod)!.push(reason);
          break;
        }
        added.push(fresh);
      }
      placements.push(p);
    }
  }
  const offered = { milliCPU: 0, memory: 0 };
  for (const n of added) {
    offered.milliCPU += n.allocatableMilliCPU;
    offered.memory += n.allocatableMemory;
  }
  const helped = placements.map((p) => p.pod);
  sim.undo(placements);
  for (const n of added) sim.removeNode(n.name);
  return { group: g.group, nodeCount: added.length, pods: helped, offered };
}

/**
 * The pending pods that fit no node there is (nor one asked for), as the real
 * FilterOutSchedulable finds them: each tried on the node its group's last pod went to, then on
 * every node; once one of a group fits nowhere, the rest of its group are not tried.
 */
function unplaceable(sim: Simulation, pending: readonly PodInfo[]): PodInfo[] {
  const out: PodInfo[] = [];
  for (const pods of equivalenceGroups(pending)) {
    let hint: NodeInfo | undefined;
    for (let i = 0; i < pods.length; i++) {
      const p = (hint && sim.place(pods[i]!, [hint])) || sim.place(pods[i]!);
      if (!p) {
        out.push(...pods.slice(i));
        break;
      }
      hint = p.node;
    }
  }
  return out;
}

export function planScaleUp(input: ScaleUpInput): ScaleUpPlan {
  const sim = new Simulation(input.nodes, input.filters);
  // Nodes asked for and not yet Ready are there already, as their templates.
  for (const g of input.groups) for (let i = 0; i < g.upcoming; i++) sim.addNode(templateCopy(g.group, -1 - i));
  const remaining = unplaceable(sim, input.pending);
  if (remaining.length === 0) return { unhelped: [] };
  const reasons = new Map<PodInfo, string[][]>(remaining.map((p) => [p, []]));
  const groups = equivalenceGroups(remaining);
  const options: Option[] = [];
  for (const g of input.groups) {
    const room = g.group.maxSize - g.group.targetSize();
    if (g.backedOff) {
      for (const r of reasons.values()) r.push([BACKOFF_REASON]);
      continue;
    }
    if (room <= 0) {
      for (const r of reasons.values()) r.push([MAX_LIMIT_REACHED]);
      continue;
    }
    const option = estimate(sim, g, room, groups, reasons);
    if (option.nodeCount > 0) options.push(option);
  }
  const option = bestOption(options, input.expanders, input.random, input.priority);
  const helped = new Set(option?.pods);
  const unhelped = remaining.filter((p) => !helped.has(p)).map((pod) => ({ pod, reasons: reasons.get(pod)! }));
  if (!option) return { unhelped };
  const similar = input.balance ? similarGroups(sim, input.groups, option, input.balance.ignoredLabels) : [];
  return { chosen: { option, increases: balanceScaleUp([option.group, ...similar], option.nodeCount) }, unhelped };
}

/** The groups similar to the chosen one, free to grow, where each of its pods fits an empty node (the real ComputeSimilarNodeGroups). */
function similarGroups(sim: Simulation, groups: readonly GroupState[], chosen: Option, ignored: ReadonlySet<string>): NodeGroup[] {
  const template = chosen.group.templateNode();
  return groups.filter((g) => g.group !== chosen.group && !g.backedOff && g.group.targetSize() < g.group.maxSize
    && similarTemplates(template, g.group.templateNode(), ignored) && takesEach(sim, g.group, chosen.pods)).map((g) => g.group);
}

function takesEach(sim: Simulation, group: NodeGroup, pods: readonly PodInfo[]): boolean {
  const node = sim.addNode(templateCopy(group, 0));
  const fits = pods.every((pod) => {
    const p = sim.place(pod, [node]);
    if (p) sim.undo([p]);
    return p !== undefined;
  });
  sim.removeNode(node.name);
  return fits;
}

/** The real NotTriggerScaleUp text: each reason with the number of groups that gave it. */
export function notTriggeredMessage(reasons: readonly string[][]): string {
  const counts = new Map<string, number>();
  for (const group of reasons) for (const r of group) counts.set(r, (counts.get(r) ?? 0) + 1);
  return `pod didn't trigger scale-up: ${[...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([r, n]) => `${n} ${r}`).join(', ')}`;
}
