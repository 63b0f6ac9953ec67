// The default plugin set of the real kube-scheduler (its filter order and its score weights), and
// the three loops a scheduling cycle runs over them: preFilter once per pod, filterNode per node
// until one plugin says no, scoreNodes over the feasible nodes. One CycleState serves one pod in
// one cycle: create it, run preFilter, then filterNode and scoreNodes with the same state.
import type { CycleState, FilterPlugin, NodeInfo, PodInfo, ScorePlugin, Snapshot } from '../framework.ts';
import { balancedAllocation } from './balanced-allocation.ts';
import { imageLocality } from './image-locality.ts';
import { interPodAffinity, type InterPodAffinityOptions } from './inter-pod-affinity.ts';
import { nodeAffinity } from './node-affinity.ts';
import { nodeName } from './node-name.ts';
import { nodePorts } from './node-ports.ts';
import { nodeResourcesFit } from './node-resources-fit.ts';
import { nodeUnschedulable } from './node-unschedulable.ts';
import { podTopologySpread, type PodTopologySpreadOptions } from './pod-topology-spread.ts';
import { taintToleration } from './taint-toleration.ts';

export { balancedAllocation, imageLocality, interPodAffinity, nodeAffinity, nodeName, nodePorts, nodeResourcesFit, nodeUnschedulable, podTopologySpread, taintToleration };
export type { InterPodAffinityOptions, PodTopologySpreadOptions };

/** What the cluster-aware plugins may ask of the world outside the snapshot. */
export interface DefaultPluginOptions extends PodTopologySpreadOptions, InterPodAffinityOptions {}

/** NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, PodTopologySpread, InterPodAffinity. */
export function defaultFilterPlugins(options: DefaultPluginOptions = {}): FilterPlugin[] {
  return [nodeUnschedulable, nodeName, taintToleration, nodeAffinity, nodePorts, nodeResourcesFit, podTopologySpread(options), interPodAffinity(options)];
}

/**
 * TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1, PodTopologySpread 2, InterPodAffinity 2,
 * NodeResourcesBalancedAllocation 1, ImageLocality 1.
 */
export function defaultScorePlugins(options: DefaultPluginOptions = {}): ScorePlugin[] {
  return [taintToleration, nodeAffinity, nodeResourcesFit, podTopologySpread(options), interPodAffinity(options), balancedAllocation, imageLocality];
}

export interface FilterFailure {
  plugin: string;
  reason: string;
}

/** Runs every preFilter in order; the first rejection (which holds for every node) stops the run. */
export function preFilter(state: CycleState, pod: PodInfo, snapshot: Snapshot, plugins: readonly FilterPlugin[]): FilterFailure | undefined {
  for (const plugin of plugins) {
    const result = plugin.preFilter?.(state, pod, snapshot);
    if (result && result.reject !== undefined) return { plugin: plugin.name, reason: result.reject };
  }
  return undefined;
}

/** The first plugin that rejects the node, with its reason; undefined when the node is feasible. */
export function filterNode(state: CycleState, pod: PodInfo, node: NodeInfo, snapshot: Snapshot, plugins: readonly FilterPlugin[]): FilterFailure | undefined {
  for (let i = 0; i < plugins.length; i++) {
    const reason = plugins[i]!.filter(state, pod, node, snapshot);
    if (reason !== undefined) return { plugin: plugins[i]!.name, reason };
  }
  return undefined;
}

export interface PluginScores {
  name: string;
  weight: number;
  /** The normalised score times the weight, one per node, in the order of the nodes scored. */
  scores: number[];
}

export interface NodeScores {
  /** The sum over plugins, one per node. */
  totals: number[];
  plugins: PluginScores[];
}

/** Scores the feasible nodes: preScore, score each node, normalise, weigh, sum. */
export function scoreNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], snapshot: Snapshot, plugins: readonly ScorePlugin[]): NodeScores {
  const totals = new Array<number>(nodes.length).fill(0);
  const perPlugin: PluginScores[] = [];
  for (const plugin of plugins) {
    plugin.preScore?.(state, pod, nodes, snapshot);
    const scores = new Array<number>(nodes.length);
    for (let i = 0; i < nodes.length; i++) scores[i] = plugin.score(state, pod, nodes[i]!, snapshot);
    plugin.normalize?.(state, pod, scores);
    for (let i = 0; i < nodes.length; i++) {
      scores[i] = scores[i]! * plugin.weight;
      totals[i]! += scores[i]!;
    }
    perPlugin.push({ name: plugin.name, weight: plugin.weight, scores });
  }
  return { totals, plugins: perPlugin };
}
