// The default plugin set of the real kube-scheduler: its filter order and its score weights. The
// loops that run them over the nodes are the scheduling cycle's (../cycle.ts).
import type { FilterPlugin, ScorePlugin } from '../framework.ts';
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
