// The controller manager's options that shape its behaviour (seed 001, "Controller manager"), with
// the real defaults, merged once and checked here. Durations are in milliseconds.
import { checkLeaderElectOptions, type LeaderElectOptions } from '../client/leader-election.ts';

/** The controllers `--controllers '*'` runs, by the names the flag takes. */
export const KNOWN_CONTROLLERS = ['node-lifecycle-controller', 'taint-eviction-controller', 'replicaset-controller', 'pod-garbage-collector', 'garbage-collector', 'namespace-controller', 'deployment-controller', 'daemonset-controller', 'statefulset-controller'] as const;
export type ControllerName = (typeof KNOWN_CONTROLLERS)[number];

/** With the `--leader-elect` options it shares with the other components (only the replica holding the lock works). */
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
  /** `--concurrent-replicaset-syncs`: ReplicaSets reconciled at once. */
  concurrentReplicasetSyncs: number;
  /** `--concurrent-gc-syncs`: objects the garbage collector works on at once. */
  concurrentGcSyncs: number;
  /** `--concurrent-namespace-syncs`: namespaces emptied at once. */
  concurrentNamespaceSyncs: number;
  /** `--concurrent-deployment-syncs`: Deployments reconciled at once. */
  concurrentDeploymentSyncs: number;
  /** `--concurrent-daemonset-syncs`: DaemonSets reconciled at once. */
  concurrentDaemonsetSyncs: number;
  /** `--concurrent-statefulset-syncs`: StatefulSets reconciled at once. */
  concurrentStatefulsetSyncs: number;
  /** `--orch-api-qps`, `--orch-api-burst`: the client's limit towards the API server; 0 QPS: no limit. */
  orchApiQps: number;
  orchApiBurst: number;
}

export const defaultControllerManagerOptions: Readonly<ControllerManagerOptions> = {
  controllers: ['*'],
  nodeMonitorPeriodMs: 5_000,
  nodeMonitorGracePeriodMs: 40_000,
  nodeStartupGracePeriodMs: 60_000,
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
  terminatedPodGcThreshold: 12_500,
  concurrentReplicasetSyncs: 5,
  concurrentGcSyncs: 20,
  concurrentNamespaceSyncs: 10,
  concurrentDeploymentSyncs: 5,
  concurrentDaemonsetSyncs: 2,
  concurrentStatefulsetSyncs: 5,
  orchApiQps: 20,
  orchApiBurst: 30,
  leaderElect: true,
  leaderElectLeaseDurationMs: 15_000,
  leaderElectRenewDeadlineMs: 10_000,
  leaderElectRetryPeriodMs: 2_000,
  leaderElectResourceName: 'orch-controller-manager',
  leaderElectResourceNamespace: 'orch-system',
};

/** Merges `options` over the defaults and validates the result; throws a RangeError naming the bad field. */
export function controllerManagerOptions(options: Partial<ControllerManagerOptions> = {}): ControllerManagerOptions {
  const unknown = Object.keys(options).filter((k) => !(k in defaultControllerManagerOptions));
  if (unknown.length) throw new RangeError(`unknown controller manager option ${unknown.join(', ')}; known: ${Object.keys(defaultControllerManagerOptions).join(', ')}`);
  const o: ControllerManagerOptions = { ...defaultControllerManagerOptions, ...options };
  const bad = (name: keyof ControllerManagerOptions, rule: string) => new RangeError(`controller manager option ${name} ${rule}, got ${JSON.stringify(o[name])}`);
  if (!Array.isArray(o.controllers) || o.controllers.some((c) => typeof c !== 'string')) throw bad('controllers', 'must be a list of controller names');
  for (const c of o.controllers) {
    const name = c.startsWith('-') ? c.slice(1) : c;
    if (name !== '*' && !(KNOWN_CONTROLLERS as readonly string[]).includes(name))
      throw bad('controllers', `names ${JSON.stringify(name)}, which is not a controller (known: ${KNOWN_CONTROLLERS.join(', ')})`);
  }
  for (const name of ['nodeMonitorPeriodMs', 'nodeMonitorGracePeriodMs', 'nodeStartupGracePeriodMs'] as const)
    if (!(Number.isFinite(o[name]) && o[name] > 0)) throw bad(name, 'must be a duration greater than 0');
  for (const name of ['nodeEvictionRate', 'secondaryNodeEvictionRate'] as const)
    if (!(Number.isFinite(o[name]) && o[name] >= 0)) throw bad(name, 'must be a number of at least 0');
  if (!(Number.isInteger(o.largeClusterSizeThreshold) && o.largeClusterSizeThreshold >= 0)) throw bad('largeClusterSizeThreshold', 'must be an integer of at least 0');
  if (!(o.unhealthyZoneThreshold > 0 && o.unhealthyZoneThreshold <= 1)) throw bad('unhealthyZoneThreshold', 'must be a fraction greater than 0 and at most 1');
  if (!Number.isInteger(o.terminatedPodGcThreshold)) throw bad('terminatedPodGcThreshold', 'must be an integer');
  for (const name of ['concurrentReplicasetSyncs', 'concurrentGcSyncs', 'concurrentNamespaceSyncs', 'concurrentDeploymentSyncs', 'concurrentDaemonsetSyncs', 'concurrentStatefulsetSyncs'] as const)
    if (!(Number.isInteger(o[name]) && o[name] >= 1)) throw bad(name, 'must be an integer of at least 1');
  if (!(Number.isFinite(o.orchApiQps) && o.orchApiQps >= 0)) throw bad('orchApiQps', 'must be a number of at least 0');
  if (!(Number.isInteger(o.orchApiBurst) && o.orchApiBurst >= 0)) throw bad('orchApiBurst', 'must be an integer of at least 0');
  checkLeaderElectOptions('controller manager', o);
  return o;
}

/** Whether `--controllers` runs `name`: listed, or `*` and not `-name`. */
export function controllerEnabled(controllers: readonly string[], name: ControllerName): boolean {
  if (controllers.includes(`-${name}`)) return false;
  return controllers.includes(name) || controllers.includes('*');
}
