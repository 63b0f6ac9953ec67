// The cluster autoscaler's options: the flags of the real cluster-autoscaler 1.32 this simulator
// acts on, with their defaults (its FAQ's table), in one OptionTable. A scenario's
// `clusterAutoscaler:` section gives them by flag name (`scale-down-unneeded-time: 5m`).
import { bool, duration, float, int, string, strings } from '../api/options/kinds.ts';
import { OptionTable, type OptionSpec } from '../api/options/table.ts';

/** The expanders this simulator has (the real `--expander` names). */
export const EXPANDERS = ['random', 'least-waste', 'price', 'most-pods', 'priority'] as const;
export type ExpanderName = (typeof EXPANDERS)[number];

export interface ClusterAutoscalerOptions {
  /** `--scan-interval`: how often the cluster is looked at for scale-up and scale-down. */
  scanIntervalMs: number;
  /** `--expander`: the strategies that choose the node group to grow, applied in turn (each narrows the options; random breaks the last tie). */
  expander: ExpanderName[];
  /** `--scale-down-enabled`. */
  scaleDownEnabled: boolean;
  /** `--scale-down-unneeded-time`: how long a node must stay unneeded before it is removed. */
  scaleDownUnneededTimeMs: number;
  /** `--scale-down-delay-after-add`: no scale-down this long after a scale-up. */
  scaleDownDelayAfterAddMs: number;
  /** `--scale-down-delay-after-delete`: no scale-down this long after a node was removed; absent: the scan interval. */
  scaleDownDelayAfterDeleteMs?: number;
  /** `--scale-down-utilization-threshold`: a node whose requested CPU and memory are both under this fraction of allocatable may be unneeded. */
  scaleDownUtilizationThreshold: number;
  /** `--max-node-provision-time`: a node not registered this long after its scale-up is given up. */
  maxNodeProvisionTimeMs: number;
  /** `--initial-node-group-backoff-duration`: how long a group whose scale-up failed is left out first. */
  initialNodeGroupBackoffMs: number;
  /** `--max-node-group-backoff-duration`: the longest a group is left out (each failure after a backoff ended doubles it up to this). */
  maxNodeGroupBackoffMs: number;
  /** `--node-group-backoff-reset-timeout`: a group whose last failure is this old starts again from the initial backoff. */
  nodeGroupBackoffResetTimeoutMs: number;
  /** `--balance-similar-node-groups`: a scale-up is shared among the groups similar to the chosen one. */
  balanceSimilarNodeGroups: boolean;
  /** `--balancing-ignore-label`: labels left out when groups are compared for balancing. */
  balancingIgnoreLabel: string[];
  /** `--max-empty-bulk-delete`: empty nodes removed at once. */
  maxEmptyBulkDelete: number;
  /** `--max-graceful-termination-sec`: how long a drained node's pods may take to go before the node is removed anyway. */
  maxGracefulTerminationSec: number;
  /** `--skip-nodes-with-local-storage`: a pod with an emptyDir or hostPath volume blocks its node's removal. */
  skipNodesWithLocalStorage: boolean;
  /** `--skip-nodes-with-system-pods`: a kube-system pod without a PodDisruptionBudget blocks its node's removal. */
  skipNodesWithSystemPods: boolean;
  /** `--write-status-configmap` and `--status-config-map-name`. */
  writeStatusConfigMap: boolean;
  statusConfigMapName: string;
}

const G = 'Cluster autoscaler flags';
const fraction = (v: number) => (v >= 0 && v <= 1 ? undefined : 'must be between 0 and 1');
const positive = (v: number) => (v > 0 ? undefined : 'must be greater than 0');
const notNegative = (v: number) => (v >= 0 ? undefined : 'must not be negative');
const expanders = (v: string[]) => {
  const bad = v.find((e) => !(EXPANDERS as readonly string[]).includes(e));
  if (v.length === 0) return `must name at least one of ${EXPANDERS.join(', ')}`;
  return bad === undefined ? undefined : `${JSON.stringify(bad)} is not an expander this simulator has (${EXPANDERS.join(', ')}; grpc needs a server of its own)`;
};

export const CLUSTER_AUTOSCALER_TABLE = new OptionTable<ClusterAutoscalerOptions>('cluster autoscaler', [
  { name: 'scan-interval', kind: duration, key: 'scanIntervalMs', default: 10_000, group: G, rule: positive, help: 'how often the cluster is reevaluated for scale up or down' },
  { name: 'expander', kind: strings, key: 'expander', default: ['random'], group: G, rule: expanders, help: 'the node group expansion strategies, comma-separated, applied in order' },
  { name: 'scale-down-enabled', kind: bool, key: 'scaleDownEnabled', default: true, group: G, help: 'whether the autoscaler scales the cluster down' },
  { name: 'scale-down-unneeded-time', kind: duration, key: 'scaleDownUnneededTimeMs', default: 600_000, group: G, rule: notNegative, help: 'how long a node should be unneeded before it is eligible for scale down' },
  { name: 'scale-down-delay-after-add', kind: duration, key: 'scaleDownDelayAfterAddMs', default: 600_000, group: G, rule: notNegative, help: 'how long after scale up that scale down evaluation resumes' },
  { name: 'scale-down-delay-after-delete', kind: duration, key: 'scaleDownDelayAfterDeleteMs', group: G, rule: notNegative, defaultText: 'scan-interval', help: 'how long after node deletion that scale down evaluation resumes' },
  { name: 'scale-down-utilization-threshold', kind: float, key: 'scaleDownUtilizationThreshold', default: 0.5, group: G, rule: fraction, help: 'the ratio of requested to allocatable resources below which a node can be scaled down' },
  { name: 'max-node-provision-time', kind: duration, key: 'maxNodeProvisionTimeMs', default: 900_000, group: G, rule: positive, help: 'the longest the autoscaler waits for a node to be provisioned' },
  { name: 'initial-node-group-backoff-duration', kind: duration, key: 'initialNodeGroupBackoffMs', default: 300_000, group: G, rule: positive, help: 'the duration of the first backoff after a new node failed to start' },
  { name: 'max-node-group-backoff-duration', kind: duration, key: 'maxNodeGroupBackoffMs', default: 1_800_000, group: G, rule: positive, help: 'the maximum backoff duration for a node group after new nodes failed to start' },
  { name: 'node-group-backoff-reset-timeout', kind: duration, key: 'nodeGroupBackoffResetTimeoutMs', default: 10_800_000, group: G, rule: positive, help: 'the time after the last failed scale-up when the backoff duration is reset' },
  { name: 'balance-similar-node-groups', kind: bool, key: 'balanceSimilarNodeGroups', default: false, group: G, help: 'detect similar node groups and balance the number of nodes between them' },
  { name: 'balancing-ignore-label', kind: strings, key: 'balancingIgnoreLabel', default: [], group: G, help: 'labels, comma-separated, to ignore when comparing node groups for similarity' },
  { name: 'max-empty-bulk-delete', kind: int, key: 'maxEmptyBulkDelete', default: 10, group: G, rule: positive, help: 'empty nodes that can be deleted at the same time' },
  { name: 'max-graceful-termination-sec', kind: int, key: 'maxGracefulTerminationSec', default: 600, group: G, rule: notNegative, help: 'seconds the autoscaler waits for pods to terminate when scaling a node down' },
  { name: 'skip-nodes-with-local-storage', kind: bool, key: 'skipNodesWithLocalStorage', default: true, group: G, help: 'never delete nodes with pods with local storage (emptyDir or hostPath)' },
  { name: 'skip-nodes-with-system-pods', kind: bool, key: 'skipNodesWithSystemPods', default: true, group: G, help: 'never delete nodes with kube-system pods (except DaemonSet and mirror pods) that have no PodDisruptionBudget' },
  { name: 'write-status-configmap', kind: bool, key: 'writeStatusConfigMap', default: true, group: G, help: 'whether the autoscaler writes its status to a ConfigMap' },
  { name: 'status-config-map-name', kind: string, key: 'statusConfigMapName', default: 'cluster-autoscaler-status', group: G, help: 'the status ConfigMap\'s name (in kube-system)' },
] as OptionSpec<ClusterAutoscalerOptions>[]);

/** Fields given in code, checked by the table's rules. */
export function clusterAutoscalerOptions(fields: Partial<ClusterAutoscalerOptions> = {}): ClusterAutoscalerOptions {
  return CLUSTER_AUTOSCALER_TABLE.options(fields);
}

/** A scenario's flags by name (`scan-interval: 10s`); throws an OptionError naming the flag. */
export function clusterAutoscalerFromScenario(record: Record<string, unknown>): ClusterAutoscalerOptions {
  return CLUSTER_AUTOSCALER_TABLE.resolve(CLUSTER_AUTOSCALER_TABLE.readValues(record)).options;
}
