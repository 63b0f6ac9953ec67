// The controller manager's options (seed 001: the common options, "Controller manager", its
// Authentication rows and its Limits) as one table: parsing, defaults, rules and help. The
// options its loops act on set fields of ControllerManagerOptions (durations in milliseconds);
// the rest (cloud, volumes, autoscaling, certificates) are accepted and checked but change
// nothing in a simulator, and `--help` says so.
import { commonOptions } from '../api/options/common.ts';
import { AUTH_GROUP, delegatedAuthSpecs } from '../api/options/delegated-auth.ts';
import { bool, cidrs, duration, float, int, int32, string, strings } from '../api/options/kinds.ts';
import { OptionTable, type OptionSpec } from '../api/options/table.ts';
import { LEADER_ELECT_RULE, leaderElectSpecs } from '../client/leader-elect-flags.ts';
import type { LeaderElectOptions } from '../client/leader-election.ts';
import { CONTROLLER_ALIASES, NOT_SIMULATED_CONTROLLERS } from './controller-names.ts';
import { inspectOptions } from '../system/options.ts';

/** The controllers `--controllers '*'` runs, by the names the flag takes. */
export const KNOWN_CONTROLLERS = ['node-lifecycle-controller', 'taint-eviction-controller', 'replicaset-controller', 'pod-garbage-collector', 'garbage-collector', 'namespace-controller', 'deployment-controller', 'daemonset-controller', 'statefulset-controller', 'clusterrole-aggregation-controller', 'resourcequota-controller',
  'disruption-controller', 'job-controller', 'cronjob-controller', 'ttl-after-finished-controller',
  'endpoints-controller', 'endpointslice-controller', 'endpointslice-mirroring-controller', 'serviceaccount-controller', 'root-ca-certificate-publisher-controller',
  'horizontal-pod-autoscaler-controller'] as const;
export type ControllerName = (typeof KNOWN_CONTROLLERS)[number];

/** With the `--leader-elect` options it shares with the scheduler (only the replica holding the lock works). */
export interface ControllerManagerOptions extends LeaderElectOptions {
  /** `--controllers`: `*` all, `name` enables one, `-name` disables one. */
  controllers: string[];
  /** `--node-monitor-period`: how often node health is probed. */
  nodeMonitorPeriodMs: number;
  /** `--node-monitor-grace-period`: without a renewal this long, a node's conditions turn Unknown. */
  nodeMonitorGracePeriodMs: number;
  /** `--node-startup-grace-period`: the same for a node that never reported Ready. */
  nodeStartupGracePeriodMs: number;
  /** `--node-eviction-rate`: nodes tainted per second in a Normal zone. */
  nodeEvictionRate: number;
  /** `--secondary-node-eviction-rate`: in a PartialDisruption zone larger than `largeClusterSizeThreshold`. */
  secondaryNodeEvictionRate: number;
  /** `--large-cluster-size-threshold`: at or below this many nodes a disrupted zone is not tainted at all. */
  largeClusterSizeThreshold: number;
  /** `--unhealthy-zone-threshold`: the fraction of not-Ready nodes (more than 2) that makes a zone PartialDisruption. */
  unhealthyZoneThreshold: number;
  /** `--terminated-pod-gc-threshold`: Succeeded and Failed pods kept before the oldest are deleted; 0 or less: all kept. */
  terminatedPodGcThreshold: number;
  /** `--concurrent-*-syncs`: objects of each kind reconciled at once. */
  concurrentReplicasetSyncs: number;
  concurrentGcSyncs: number;
  concurrentNamespaceSyncs: number;
  concurrentDeploymentSyncs: number;
  concurrentDaemonsetSyncs: number;
  concurrentStatefulsetSyncs: number;
  concurrentResourceQuotaSyncs: number;
  /** `--resource-quota-sync-period`: every quota's usage is recounted this often. */
  resourceQuotaSyncPeriodMs: number;
  concurrentJobSyncs: number;
  concurrentCronJobSyncs: number;
  concurrentTtlAfterFinishedSyncs: number;
  concurrentEndpointSyncs: number;
  concurrentServiceEndpointSyncs: number;
  /** `--max-endpoints-per-slice`: the most endpoints an EndpointSlice holds. */
  maxEndpointsPerSlice: number;
  /** `--endpoint-updates-batch-period`, `--endpointslice-updates-batch-period`: how long pod changes wait to be written together; 0 or absent: no wait. */
  endpointUpdatesBatchPeriodMs?: number;
  endpointsliceUpdatesBatchPeriodMs?: number;
  /** The endpointslice-mirroring controller's `--mirroring-*` options. */
  mirroringConcurrentServiceEndpointSyncs: number;
  mirroringMaxEndpointsPerSubset: number;
  mirroringEndpointsliceUpdatesBatchPeriodMs?: number;
  /** `--use-service-account-credentials`: each controller authenticates as its own service account (in orch-system). */
  useServiceAccountCredentials: boolean;
  /** The `--horizontal-pod-autoscaler-*` options: how often autoscalers sync, the downscale window, the CPU sample rules, the tolerance. */
  hpaSyncPeriodMs: number;
  hpaDownscaleStabilizationMs: number;
  hpaCpuInitializationPeriodMs: number;
  hpaInitialReadinessDelayMs: number;
  hpaTolerance: number;
  /** `--orch-api-qps`, `--orch-api-burst`: the client's limit towards the API server; 0 QPS: no limit. */
  orchApiQps: number;
  orchApiBurst: number;
}

const GROUP = 'Controller manager options';
const LIMITS = 'Limits';
const CLOUD = 'no cloud provider is simulated';
const VOLUMES = 'volumes are not simulated';
const NETWORK = 'pod and service networking is not simulated';
const NOT_RUN = 'the controller it tunes is not simulated';
const positive = (v: number) => (v > 0 ? undefined : 'must be a duration greater than 0');
const atLeastOne = (v: number) => (v >= 1 ? undefined : 'must be at least 1');
const notNegative = (v: number) => (v >= 0 ? undefined : 'must not be negative');

/** Every name `--controllers` takes: orchsim's, their aliases, and the real ones it does not simulate. */
function controllersRule(list: string[]): string | undefined {
  for (const c of list) {
    const name = c.startsWith('-') ? c.slice(1) : c;
    if (name === '*' || (KNOWN_CONTROLLERS as readonly string[]).includes(name) || name in CONTROLLER_ALIASES || NOT_SIMULATED_CONTROLLERS.has(name)) continue;
    return `names ${JSON.stringify(name)}, which is not a controller (simulated: ${KNOWN_CONTROLLERS.join(', ')})`;
  }
  return undefined;
}

const concurrent = (what: string, dflt: number, key?: keyof ControllerManagerOptions): OptionSpec<ControllerManagerOptions> => ({
  name: `concurrent-${what}-syncs`, kind: int32, default: dflt, group: LIMITS, rule: atLeastOne, help: `${what} objects synced at once`,
  ...(key ? { key } : { inert: NOT_RUN }),
});

const SIGNERS = ['apiserver-client', 'apiserver-client-nodeagent', 'nodeagent-serving', 'legacy-unknown'];

function signingSpecs(): OptionSpec<ControllerManagerOptions>[] {
  const inert = 'certificates are not signed';
  return [
    { name: 'cluster-signing-cert-file', kind: string, group: AUTH_GROUP, help: 'the CA certificate of every signer', inert },
    { name: 'cluster-signing-key-file', kind: string, group: AUTH_GROUP, help: 'the CA key of every signer', inert },
    ...SIGNERS.flatMap((s): OptionSpec<ControllerManagerOptions>[] => [
      { name: `cluster-signing-${s}-cert-file`, kind: string, group: AUTH_GROUP, help: `the CA certificate of the ${s} signer`, inert },
      { name: `cluster-signing-${s}-key-file`, kind: string, group: AUTH_GROUP, help: `the CA key of the ${s} signer`, inert },
    ]),
  ];
}

/** The general signing pair excludes the signer-specific files. */
const signingRule = {
  names: ['cluster-signing-cert-file', 'cluster-signing-key-file'],
  check: (_: unknown, given: (name: string) => boolean) => {
    if (!given('cluster-signing-cert-file') && !given('cluster-signing-key-file')) return undefined;
    const specific = SIGNERS.flatMap((s) => [`cluster-signing-${s}-cert-file`, `cluster-signing-${s}-key-file`]).find(given);
    return specific ? `--cluster-signing-cert-file and --cluster-signing-key-file exclude the signer-specific files such as --${specific}` : undefined;
  },
};

export const CONTROLLER_MANAGER_TABLE = new OptionTable<ControllerManagerOptions>('controller manager', [
  ...commonOptions<ControllerManagerOptions>('controller-manager'),
  { name: 'secure-port', kind: int, default: 10257, group: GROUP, rule: (v: number) => (v >= 0 && v <= 65535 ? undefined : 'must be a port from 0 to 65535 (0 serves no HTTPS)'), help: 'the HTTPS port of /healthz and /metrics; 0 serves no HTTPS' },
  { name: 'orchconfig', kind: string, group: GROUP, help: 'credentials and the API server\'s location' },
  { name: 'master', kind: string, group: GROUP, help: 'the API server\'s address; overrides the one in --orchconfig (in orchsim, nats://HOST:PORT, the bus the API server serves on)' },
  ...inspectOptions<ControllerManagerOptions>(GROUP),
  { name: 'controllers', kind: strings, key: 'controllers', default: ['*'], group: GROUP, rule: controllersRule,
    help: `controllers to run: * (every default one), name (enable), -name (disable); simulated: ${KNOWN_CONTROLLERS.join(', ')}; the real ones' other names are accepted and run nothing` },
  { name: 'controller-start-interval', kind: duration, group: GROUP, rule: notNegative, help: 'the interval between starting controllers', inert: 'controllers start together' },
  { name: 'allocate-node-cidrs', kind: bool, default: false, group: GROUP, help: 'allocate pod CIDRs to nodes and set them at the cloud provider', inert: NETWORK },
  { name: 'cluster-cidr', kind: cidrs, group: GROUP, help: 'the pods\' range; needs --allocate-node-cidrs', inert: NETWORK },
  { name: 'service-cluster-ip-range', kind: cidrs, group: GROUP, help: 'the services\' range; needs --allocate-node-cidrs', inert: NETWORK, rule: (v: string[]) => (v.length <= 2 ? undefined : 'must be at most two CIDRs (dual stack)') },
  { name: 'cidr-allocator-type', kind: string, default: 'RangeAllocator', group: GROUP, help: 'the CIDR allocator', inert: NETWORK },
  { name: 'node-cidr-mask-size', kind: int32, group: GROUP, help: 'the mask size of node CIDRs', inert: NETWORK, rule: (v: number) => (v >= 0 && v <= 128 ? undefined : 'must be from 0 to 128') },
  { name: 'node-cidr-mask-size-ipv4', kind: int32, default: 24, group: GROUP, help: 'the mask size of IPv4 node CIDRs', inert: NETWORK, rule: (v: number) => (v >= 0 && v <= 32 ? undefined : 'must be from 0 to 32') },
  { name: 'node-cidr-mask-size-ipv6', kind: int32, default: 64, group: GROUP, help: 'the mask size of IPv6 node CIDRs', inert: NETWORK, rule: (v: number) => (v >= 0 && v <= 128 ? undefined : 'must be from 0 to 128') },
  { name: 'configure-cloud-routes', kind: bool, default: true, group: GROUP, help: 'configure allocated CIDRs at the cloud provider', inert: CLOUD },
  { name: 'route-reconciliation-period', kind: duration, default: 10_000, group: GROUP, rule: positive, help: 'how often routes are reconciled', inert: CLOUD },
  { name: 'cloud-config', kind: string, group: GROUP, help: 'the cloud provider\'s configuration file', inert: CLOUD, deprecated: 'cloud providers are removed from the controller manager' },
  { name: 'cloud-provider', kind: string, group: GROUP, help: 'the cloud provider', inert: CLOUD, deprecated: 'cloud providers are removed from the controller manager' },
  { name: 'external-cloud-volume-plugin', kind: string, group: GROUP, help: 'the volume plugin of an external cloud provider', inert: CLOUD, deprecated: 'cloud providers are removed from the controller manager' },
  { name: 'cluster-name', kind: string, default: 'orch', group: GROUP, help: 'the prefix of the cluster\'s instances', inert: CLOUD },
  { name: 'cluster-signing-duration', kind: duration, default: 8_760 * 3_600_000, group: GROUP, rule: positive, help: 'the longest lifetime of a signed certificate (a request may ask for less with spec.expirationSeconds)', inert: 'certificates are not signed' },
  { name: 'enable-dynamic-provisioning', kind: bool, default: true, group: GROUP, help: 'provision volumes dynamically', inert: VOLUMES },
  { name: 'enable-garbage-collector', kind: bool, default: true, group: GROUP, help: 'run the garbage collector; must match the API server\'s flag', inert: 'use --controllers=-garbage-collector' },
  { name: 'enable-hostpath-provisioner', kind: bool, default: false, group: GROUP, help: 'host-path volumes for development', inert: VOLUMES },
  { name: 'enable-leader-migration', kind: bool, default: false, group: GROUP, help: 'migrate controllers\' leadership between managers', inert: 'there is one kind of controller manager' },
  { name: 'leader-migration-config', kind: string, group: GROUP, help: 'the LeaderMigrationConfiguration (v1alpha1) file', inert: 'there is one kind of controller manager' },
  { name: 'endpoint-updates-batch-period', kind: duration, key: 'endpointUpdatesBatchPeriodMs', group: GROUP, rule: notNegative, help: 'how long pod changes wait before the endpoints controller writes them, so a burst is one write' },
  { name: 'endpointslice-updates-batch-period', kind: duration, key: 'endpointsliceUpdatesBatchPeriodMs', group: GROUP, rule: notNegative, help: 'how long pod changes wait before the endpointslice controller writes them, so a burst is one write' },
  { name: 'mirroring-endpointslice-updates-batch-period', kind: duration, key: 'mirroringEndpointsliceUpdatesBatchPeriodMs', group: GROUP, rule: notNegative,
    help: 'how long Endpoints changes wait before the mirroring controller writes them, so a burst is one write' },
  { name: 'max-endpoints-per-slice', kind: int32, key: 'maxEndpointsPerSlice', default: 100, group: LIMITS, rule: (v: number) => (v >= 1 && v <= 1000 ? undefined : 'must be from 1 to 1000'), help: 'the most endpoints the endpointslice controller puts in one EndpointSlice' },
  { name: 'mirroring-max-endpoints-per-subset', kind: int32, key: 'mirroringMaxEndpointsPerSubset', default: 1000, group: GROUP, rule: (v: number) => (v >= 1 ? undefined : 'must be at least 1'),
    help: 'the endpoints of an Endpoints subset the mirroring controller mirrors, and the most a mirrored slice holds' },
  { name: 'attach-detach-reconcile-sync-period', kind: duration, default: 60_000, group: GROUP, rule: (v: number) => (v > 1_000 ? undefined : 'must be longer than 1s'), help: 'how often volume attachments are reconciled', inert: VOLUMES },
  { name: 'disable-attach-detach-reconcile-sync', kind: bool, default: false, group: GROUP, help: 'skip reconciling volume attachments', inert: VOLUMES },
  { name: 'pvclaimbinder-sync-period', kind: duration, default: 15_000, group: GROUP, rule: positive, help: 'how often volumes and claims are synced', inert: VOLUMES },
  { name: 'pv-recycler-minimum-timeout-nfs', kind: int32, default: 300, group: GROUP, rule: notNegative, help: 'the shortest timeout of an NFS recycler pod', inert: VOLUMES },
  { name: 'pv-recycler-increment-timeout-nfs', kind: int32, default: 30, group: GROUP, rule: notNegative, help: 'seconds added per Gi to an NFS recycler pod\'s timeout', inert: VOLUMES },
  { name: 'pv-recycler-minimum-timeout-hostpath', kind: int32, default: 60, group: GROUP, rule: notNegative, help: 'the shortest timeout of a host-path recycler pod', inert: VOLUMES },
  { name: 'pv-recycler-timeout-increment-hostpath', kind: int32, default: 30, group: GROUP, rule: notNegative, help: 'seconds added per Gi to a host-path recycler pod\'s timeout', inert: VOLUMES },
  { name: 'pv-recycler-pod-template-filepath-nfs', kind: string, group: GROUP, help: 'the pod template of NFS recyclers', inert: VOLUMES },
  { name: 'pv-recycler-pod-template-filepath-hostpath', kind: string, group: GROUP, help: 'the pod template of host-path recyclers', inert: VOLUMES },
  { name: 'namespace-sync-period', kind: duration, default: 300_000, group: GROUP, rule: positive, help: 'how often namespaces\' life cycles are synced', inert: 'namespaces are synced on every change' },
  { name: 'resource-quota-sync-period', kind: duration, key: 'resourceQuotaSyncPeriodMs', default: 300_000, group: GROUP, rule: positive, help: 'how often every quota\'s usage is recounted' },
  { name: 'min-resync-period', kind: duration, default: 12 * 3_600_000, group: GROUP, rule: positive, help: 'reflectors resync at a random time between this and twice this', inert: 'informers never lose events here, so they do not resync' },
  { name: 'horizontal-pod-autoscaler-sync-period', kind: duration, key: 'hpaSyncPeriodMs', default: 15_000, group: GROUP, rule: positive, help: 'how often autoscalers are synced' },
  { name: 'horizontal-pod-autoscaler-downscale-stabilization', kind: duration, key: 'hpaDownscaleStabilizationMs', default: 300_000, group: GROUP, rule: notNegative, help: 'the window of downscale recommendations' },
  { name: 'horizontal-pod-autoscaler-cpu-initialization-period', kind: duration, key: 'hpaCpuInitializationPeriodMs', default: 300_000, group: GROUP, rule: notNegative, help: 'how long after start CPU samples may be skipped' },
  { name: 'horizontal-pod-autoscaler-initial-readiness-delay', kind: duration, key: 'hpaInitialReadinessDelayMs', default: 30_000, group: GROUP, rule: notNegative, help: 'how long after start readiness changes count as first readiness' },
  { name: 'horizontal-pod-autoscaler-tolerance', kind: float, key: 'hpaTolerance', default: 0.1, group: GROUP, rule: notNegative, help: 'the least change from 1.0 in the metric ratio that scales' },
  ...leaderElectSpecs<ControllerManagerOptions>(GROUP, 'orch-controller-manager'),
  { name: 'node-monitor-period', kind: duration, key: 'nodeMonitorPeriodMs', default: 5_000, group: GROUP, rule: positive, help: 'how often node health is probed' },
  { name: 'node-monitor-grace-period', kind: duration, key: 'nodeMonitorGracePeriodMs', default: 40_000, group: GROUP, rule: positive,
    help: 'how long a node may go unheard before it is unhealthy; should be a multiple of the node agents\' status update frequency' },
  { name: 'node-startup-grace-period', kind: duration, key: 'nodeStartupGracePeriodMs', default: 60_000, group: GROUP, rule: positive, help: 'the same for a node that never reported Ready' },
  { name: 'pod-eviction-timeout', kind: duration, default: 300_000, group: GROUP, rule: positive, help: 'the grace of pods on failed nodes',
    inert: 'taint-based eviction uses the pods\' tolerationSeconds instead, as the real controller does since taint eviction' },
  { name: 'node-eviction-rate', kind: float, key: 'nodeEvictionRate', default: 0.1, group: GROUP, rule: notNegative, help: 'nodes tainted per second in a healthy zone' },
  { name: 'secondary-node-eviction-rate', kind: float, key: 'secondaryNodeEvictionRate', default: 0.01, group: GROUP, rule: notNegative,
    help: 'nodes tainted per second in an unhealthy zone; 0 at or below --large-cluster-size-threshold' },
  { name: 'large-cluster-size-threshold', kind: int32, key: 'largeClusterSizeThreshold', default: 50, group: GROUP, rule: notNegative, help: 'zones of at most this many nodes are not tainted while partially disrupted' },
  { name: 'unhealthy-zone-threshold', kind: float, key: 'unhealthyZoneThreshold', default: 0.55, group: GROUP,
    rule: (v: number) => (v > 0 && v <= 1 ? undefined : 'must be a fraction greater than 0 and at most 1'), help: 'the fraction of not-Ready nodes (at least 3) that makes a zone unhealthy' },
  { name: 'terminated-pod-gc-threshold', kind: int32, key: 'terminatedPodGcThreshold', default: 12_500, group: LIMITS, help: 'terminated pods kept before the oldest are deleted; 0 or less disables the collector' },
  { name: 'orch-api-content-type', kind: string, default: 'application/vnd.orchestrator.protobuf', group: GROUP, help: 'the content type of requests to the API server', inert: 'bus messages have one codec' },
  { name: 'flex-volume-plugin-dir', kind: string, default: '/usr/libexec/orch/nodeagent-plugins/volume/exec/', group: GROUP, help: 'where flex volume plugins are', inert: VOLUMES },
  { name: 'volume-host-allow-local-loopback', kind: bool, default: true, group: GROUP, help: 'let volume plugins reach local loopback addresses', inert: VOLUMES },
  { name: 'volume-host-cidr-denylist', kind: cidrs, group: GROUP, help: 'ranges volume plugins may not reach', inert: VOLUMES },
  ...delegatedAuthSpecs<ControllerManagerOptions>('controller-manager'),
  { name: 'use-service-account-credentials', kind: bool, key: 'useServiceAccountCredentials', default: false, group: AUTH_GROUP, help: 'each controller uses its own service account' },
  { name: 'root-ca-file', kind: string, group: AUTH_GROUP, help: 'the CA bundle the root-ca-cert-publisher publishes in every namespace (kube-root-ca.crt); without it, none is published' },
  { name: 'service-account-private-key-file', kind: string, group: AUTH_GROUP, help: 'the key that signs service account tokens', inert: 'token secrets are not made' },
  ...signingSpecs(),
  { name: 'orch-api-qps', kind: float, key: 'orchApiQps', default: 20, group: LIMITS, rule: notNegative, help: 'requests per second towards the API server; 0: no limit' },
  { name: 'orch-api-burst', kind: int32, key: 'orchApiBurst', default: 30, group: LIMITS, rule: notNegative, help: 'requests allowed in a burst towards the API server' },
  concurrent('deployment', 5, 'concurrentDeploymentSyncs'),
  concurrent('endpoint', 5, 'concurrentEndpointSyncs'),
  concurrent('ephemeralvolume', 5),
  concurrent('gc', 20, 'concurrentGcSyncs'),
  concurrent('namespace', 10, 'concurrentNamespaceSyncs'),
  concurrent('rc', 5),
  concurrent('replicaset', 5, 'concurrentReplicasetSyncs'),
  concurrent('resource-quota', 5, 'concurrentResourceQuotaSyncs'),
  concurrent('service-endpoint', 5, 'concurrentServiceEndpointSyncs'),
  concurrent('service', 1),
  concurrent('serviceaccount-token', 5),
  concurrent('statefulset', 5, 'concurrentStatefulsetSyncs'),
  concurrent('ttl-after-finished', 5, 'concurrentTtlAfterFinishedSyncs'),
  concurrent('daemonset', 2, 'concurrentDaemonsetSyncs'),
  concurrent('job', 5, 'concurrentJobSyncs'),
  concurrent('cron-job', 5, 'concurrentCronJobSyncs'),
  { name: 'mirroring-concurrent-service-endpoint-syncs', kind: int32, key: 'mirroringConcurrentServiceEndpointSyncs', default: 5, group: LIMITS, rule: atLeastOne, help: 'mirrored endpoint objects synced at once' },
] as OptionSpec<ControllerManagerOptions>[], [
  LEADER_ELECT_RULE,
  signingRule,
]);

export const defaultControllerManagerOptions: Readonly<ControllerManagerOptions> = CONTROLLER_MANAGER_TABLE.defaults();

/** Fields given in code, checked by the table's rules (as the command line is). */
export function controllerManagerOptions(options: Partial<ControllerManagerOptions> = {}): ControllerManagerOptions {
  return CONTROLLER_MANAGER_TABLE.options(options);
}

/** A scenario's `options.controllerManager`: flags by name (`node-monitor-grace-period: 20s`). */
export function controllerManagerFromScenario(record: Record<string, unknown>, where = ''): ControllerManagerOptions {
  return CONTROLLER_MANAGER_TABLE.resolve(CONTROLLER_MANAGER_TABLE.readValues(record, where)).options;
}

/** Whether `--controllers` runs `name`: listed (or by an alias), or `*` and not `-name`. */
export function controllerEnabled(controllers: readonly string[], name: ControllerName): boolean {
  const names = (entry: string) => [entry, CONTROLLER_ALIASES[entry]];
  if (controllers.some((c) => c.startsWith('-') && names(c.slice(1)).includes(name))) return false;
  return controllers.includes('*') || controllers.some((c) => names(c).includes(name));
}
