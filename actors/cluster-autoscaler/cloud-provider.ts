// The seam between the autoscaler and the cloud it runs on, as the real one's cloudprovider
// interfaces (NodeGroup: Id, MinSize, MaxSize, TargetSize, IncreaseSize, DeleteNodes,
// TemplateNodeInfo; CloudProvider: NodeGroups, NodeGroupForNode; a price per node). The simulator
// implements it (sim/cloud-provider.ts): nodes it is asked for join after its provisioning delay.
import type { Node } from '../api/model/core.ts';

export interface NodeGroup {
  readonly id: string;
  readonly minSize: number;
  readonly maxSize: number;
  /** The nodes the group should have: those running, those asked for and not yet joined, less those being removed. */
  targetSize(): number;
  /** Its machines by node name: running ones and those asked for (a machine that never registers stays here until deleted). */
  instances(): readonly string[];
  /** A Node as the group's next one will register: its labels, taints and allocatable resources. */
  templateNode(): Node;
  /** What one of its nodes costs per hour, when known (the price expander's figure). */
  readonly costPerHour: number | undefined;
}

export interface CloudProvider {
  /** Labels whose values differ by group on this cloud: its comparator leaves them out when balancing. */
  readonly groupLabels: readonly string[];
  /** The groups, in a fixed order. */
  nodeGroups(): readonly NodeGroup[];
  /** The group a node belongs to, or undefined for a node no group holds (never scaled). */
  nodeGroupForNode(node: Node): NodeGroup | undefined;
  /** Asks for `delta` more nodes of the group; they join later. Throws when that would pass its maximum. */
  increaseSize(groupId: string, delta: number): void;
  /** Removes these nodes of the group (the machines go, then their Node objects, if they ever registered). */
  deleteNodes(groupId: string, nodes: readonly string[]): Promise<void>;
}
