// The controller manager: the control loops `--controllers` enables, each with its own API client
// limited to orchApiQps/orchApiBurst as the real one's clients are, and each an actor of its own
// (`controller/<name>`). The process's lifecycle is the component machine (`controller-manager/<identity>`).
// With leader election (the default) the replica campaigns for its Lease and runs the loops only
// while it leads: a new set of loops per term, stopped when the term ends, as a restarted process
// would start afresh.
//
//   node-lifecycle-controller   node health, Unknown conditions, zones, NoExecute and NoSchedule taints
//   taint-eviction-controller   deletes pods that do not tolerate a node's NoExecute taints, or no longer
//   replicaset-controller       keeps each ReplicaSet's pods at its replica count
//   pod-garbage-collector       deletes terminated pods beyond the threshold, orphans of deleted nodes
//   garbage-collector           deletes objects whose owners are gone; orphan and foreground deletion of owners
//   namespace-controller        empties a namespace being deleted, then lets it go
//   deployment-controller       rolls each Deployment's template out through ReplicaSets
//   daemonset-controller        one pod per eligible node, its templates kept as ControllerRevisions
//   statefulset-controller      pods with stable names and ordinals, made, removed and updated in order
//   resourcequota-controller    each ResourceQuota's status: its hard limits and what its namespace uses
//   disruption-controller       each PodDisruptionBudget's status, which evictions spend
//   job-controller              runs each Job's pods to completion: parallelism, back-off, deadline, suspend, indexes
//   cronjob-controller          creates each CronJob's Jobs on its schedule, keeps their history
//   ttl-after-finished-controller  deletes finished Jobs once their ttlSecondsAfterFinished has passed
//   endpoints-controller        each Service's Endpoints from the ready (and not ready) pods it selects
//   endpointslice-controller    each Service's EndpointSlices, at most --max-endpoints-per-slice endpoints each
//   endpointslice-mirroring-controller   EndpointSlices mirroring the Endpoints of selectorless Services
//   serviceaccount-controller   a `default` ServiceAccount in every namespace
//   root-ca-certificate-publisher-controller   the kube-root-ca.crt ConfigMap in every namespace (given a CA)
//   horizontal-pod-autoscaler-controller   scales each autoscaler's target by its pods' metrics
//
// Its registry (`metrics`) holds what a real controller manager's /metrics shows of these: the
// requests of its clients (rest_client_*), its work queues (workqueue_*), its leader status.
import { SYSTEM_NAMESPACE } from '../api/namespaces.ts';
import { CONTROLLER_MANAGER, serviceAccountIdentity, type AsIdentity } from '../client/credentials.ts';
import { ClusterRoleAggregationController } from './controllers/clusterrole-aggregation.ts';
import { fromPromise, type Actor } from 'xstate';
import type { Clock, Random } from '../api/env.ts';
import { newRegistry, type Registry } from '../api/metrics.ts';
import { ApiClient } from '../client/client.ts';
import { coreRecorders } from '../client/events/index.ts';
import type { Informer } from '../client/informer.ts';
import { electionConfig } from '../client/leader-election.ts';
import { Replica } from '../client/replica.ts';
import { SharedInformers } from '../client/shared-informers.ts';
import { RateLimiter } from '../client/rate-limiter.ts';
import { meteredBus } from '../client/request-metrics.ts';
import { componentMachine } from '../../machines/component.ts';
import type { ZoneState } from '../../machines/zone.ts';
import type { Bus } from '../../transport/bus.ts';
import { ActorSystem } from '../system/actor-system.ts';
import { stateName } from '../system/records.ts';
import { whenState } from '../system/when-state.ts';
import { NodeLifecycleController } from './controllers/node-lifecycle.ts';
import { DaemonSetController } from './controllers/daemonset.ts';
import { DeploymentController } from './controllers/deployment.ts';
import { DisruptionController } from './controllers/disruption.ts';
import { EndpointsController } from './controllers/endpoints.ts';
import { EndpointSliceController } from './controllers/endpointslice.ts';
import { EndpointSliceMirroringController } from './controllers/endpointslice-mirroring.ts';
import { RootCaPublisher } from './controllers/root-ca-publisher.ts';
import { ServiceAccountsController } from './controllers/serviceaccounts.ts';
import { GarbageCollector } from './controllers/garbage-collector.ts';
import { NamespaceController } from './controllers/namespace.ts';
import { PodGarbageCollector } from './controllers/pod-gc.ts';
import { ReplicaSetController } from './controllers/replicaset.ts';
import { ResourceQuotaController } from './controllers/resource-quota.ts';
import { StatefulSetController } from './controllers/statefulset.ts';
import { JobController } from './controllers/job.ts';
import { CronJobController } from './controllers/cronjob.ts';
import { TtlAfterFinishedController } from './controllers/ttl-after-finished.ts';
import { TaintEvictionController } from './controllers/taint-eviction.ts';
import { HorizontalPodAutoscalerController } from './controllers/horizontal-pod-autoscaler.ts';
import { controllerEnabled, controllerManagerOptions, KNOWN_CONTROLLERS, type ControllerManagerOptions, type ControllerName } from './options.ts';
import { actorIds } from '../system/ids.ts';

export interface ControllerManagerInit {
  bus: Bus;
  /** Gives the manager, and each controller under --use-service-account-credentials, its credentials on the bus. */
  asIdentity?: AsIdentity;
  clock: Clock;
  /** Leader election's jitter is drawn from it. */
  random: Random;
  options?: Partial<ControllerManagerOptions>;
  /** The replica's name: its holderIdentity on the leader Lease. */
  identity?: string;
  onError?: (controller: string, e: unknown) => void;
  onTaint?: (node: string, key: string, atMs: number) => void;
  onEvict?: (pod: string, atMs: number) => void;
  /** Told when this replica starts and stops running its loops. */
  onLeading?: (identity: string, leading: boolean, atMs: number) => void;
  /** Where its metrics go (a new registry when absent). */
  registry?: Registry;
  /** The process's actor system, where its machines are hosted (a system of its own when absent). */
  system?: ActorSystem;
  /** Whether its controllers record events, as the real ones do (default); false: none. */
  events?: boolean;
  /** The cluster's CA bundle (PEM), which the root-ca-cert-publisher publishes; without it that controller does not run. */
  rootCa?: string;
}

/** The service account each controller uses, where it is not the controller's name (the real ones). */
const SERVICE_ACCOUNTS: Partial<Record<ControllerName, string>> = {
  'node-lifecycle-controller': 'node-controller',
  'garbage-collector': 'generic-garbage-collector',
  'daemonset-controller': 'daemon-set-controller',
  'endpoints-controller': 'endpoint-controller',
  'endpointslice-mirroring-controller': 'endpointslicemirroring-controller',
  'serviceaccount-controller': 'service-account-controller',
  'root-ca-certificate-publisher-controller': 'root-ca-cert-publisher',
  'horizontal-pod-autoscaler-controller': 'horizontal-pod-autoscaler',
};

/** The service account of each controller `o` enables (under --use-service-account-credentials). */
export const controllerServiceAccounts = (o: ControllerManagerOptions): string[] =>
  KNOWN_CONTROLLERS.filter((name) => controllerEnabled(o.controllers, name)).map((name) => SERVICE_ACCOUNTS[name] ?? name);

/** One term's loops. */
class Loops {
  readonly nodeLifecycle: NodeLifecycleController | undefined;
  readonly taintEviction: TaintEvictionController | undefined;
  readonly replicaSets: ReplicaSetController | undefined;
  readonly podGc: PodGarbageCollector | undefined;
  readonly garbageCollector: GarbageCollector | undefined;
  readonly namespaces: NamespaceController | undefined;
  readonly deployments: DeploymentController | undefined;
  readonly daemonSets: DaemonSetController | undefined;
  readonly statefulSets: StatefulSetController | undefined;
  readonly #informers: SharedInformers;
  readonly #all: { start(): Promise<void>; stop(): void }[] = [];

  /** `init.bus` is the metered one; `registry` the replica's. */
  constructor(init: ControllerManagerInit, o: ControllerManagerOptions, registry: Registry, system: ActorSystem) {
    const { clock } = init;
    const own = init.asIdentity ? init.asIdentity(init.bus, CONTROLLER_MANAGER) : init.bus;
    /** Under --use-service-account-credentials each controller is its service account; else it is the manager. */
    const busOf = (name: ControllerName) => init.asIdentity && o.useServiceAccountCredentials
      ? init.asIdentity(init.bus, serviceAccountIdentity(SYSTEM_NAMESPACE, SERVICE_ACCOUNTS[name] ?? name)) : own;
    const informers = (this.#informers = new SharedInformers(own, clock, 'controller-manager'));
    const limiter = () => (o.orchApiQps > 0 ? new RateLimiter(clock, o.orchApiQps, o.orchApiBurst) : undefined);
    const onError = (controller: string) => (e: unknown) => (init.onError ? init.onError(controller, e) : console.error(`${controller}:`, e));
    const optional = <T>(value: T | undefined, key: string) => (value === undefined ? {} : { [key]: value });
    // Each controller records through its own client, as the real ones each have a broadcaster.
    const events = init.events === false ? undefined : coreRecorders(clock, init.random.fork('events'));
    const enabled = (name: ControllerName) => controllerEnabled(o.controllers, name);
    /** What every loop gets: the bus, clock and shared informers, its own rate-limited client, its error path. */
    const base = (name: ControllerName) => ({ bus: busOf(name), clock, informers, registry, system, onError: onError(name), ...optional(limiter(), 'limiter'),
      ...optional(events, 'events') });
    const add = <T extends { start(): Promise<void>; stop(): void }>(loop: T): T => (this.#all.push(loop), loop);
    if (enabled('node-lifecycle-controller'))
      this.nodeLifecycle = add(new NodeLifecycleController({ ...base('node-lifecycle-controller'), options: o, ...optional(init.onTaint, 'onTaint') }));
    if (enabled('taint-eviction-controller')) this.taintEviction = add(new TaintEvictionController({ ...base('taint-eviction-controller'), ...optional(init.onEvict, 'onEvict') }));
    if (enabled('replicaset-controller')) this.replicaSets = add(new ReplicaSetController({ ...base('replicaset-controller'), workers: o.concurrentReplicasetSyncs }));
    if (enabled('pod-garbage-collector')) this.podGc = add(new PodGarbageCollector({ ...base('pod-garbage-collector'), terminatedPodGcThreshold: o.terminatedPodGcThreshold }));
    if (enabled('garbage-collector')) this.garbageCollector = add(new GarbageCollector({ ...base('garbage-collector'), workers: o.concurrentGcSyncs }));
    if (enabled('namespace-controller')) this.namespaces = add(new NamespaceController({ ...base('namespace-controller'), workers: o.concurrentNamespaceSyncs }));
    if (enabled('deployment-controller')) this.deployments = add(new DeploymentController({ ...base('deployment-controller'), workers: o.concurrentDeploymentSyncs }));
    if (enabled('daemonset-controller')) this.daemonSets = add(new DaemonSetController({ ...base('daemonset-controller'), workers: o.concurrentDaemonsetSyncs }));
    if (enabled('clusterrole-aggregation-controller')) add(new ClusterRoleAggregationController({ ...base('clusterrole-aggregation-controller'), workers: 5 }));
    if (enabled('statefulset-controller')) this.statefulSets = add(new StatefulSetController({ ...base('statefulset-controller'), workers: o.concurrentStatefulsetSyncs }));
    if (enabled('resourcequota-controller'))
      add(new ResourceQuotaController({ ...base('resourcequota-controller'), workers: o.concurrentResourceQuotaSyncs, syncPeriodMs: o.resourceQuotaSyncPeriodMs }));
    if (enabled('disruption-controller')) add(new DisruptionController(base('disruption-controller')));
    if (enabled('job-controller')) add(new JobController({ ...base('job-controller'), workers: o.concurrentJobSyncs }));
    if (enabled('cronjob-controller')) add(new CronJobController({ ...base('cronjob-controller'), workers: o.concurrentCronJobSyncs }));
    if (enabled('ttl-after-finished-controller')) add(new TtlAfterFinishedController({ ...base('ttl-after-finished-controller'), workers: o.concurrentTtlAfterFinishedSyncs }));
    if (enabled('endpoints-controller'))
      add(new EndpointsController({ ...base('endpoints-controller'), workers: o.concurrentEndpointSyncs, batchPeriodMs: o.endpointUpdatesBatchPeriodMs ?? 0 }));
    if (enabled('endpointslice-controller')) add(new EndpointSliceController({ ...base('endpointslice-controller'), workers: o.concurrentServiceEndpointSyncs,
      maxEndpointsPerSlice: o.maxEndpointsPerSlice, batchPeriodMs: o.endpointsliceUpdatesBatchPeriodMs ?? 0 }));
    if (enabled('endpointslice-mirroring-controller')) add(new EndpointSliceMirroringController({ ...base('endpointslice-mirroring-controller'),
      workers: o.mirroringConcurrentServiceEndpointSyncs, maxEndpointsPerSubset: o.mirroringMaxEndpointsPerSubset, batchPeriodMs: o.mirroringEndpointsliceUpdatesBatchPeriodMs ?? 0 }));
    if (enabled('serviceaccount-controller')) add(new ServiceAccountsController(base('serviceaccount-controller')));
    if (enabled('root-ca-certificate-publisher-controller') && init.rootCa !== undefined)
      add(new RootCaPublisher({ ...base('root-ca-certificate-publisher-controller'), rootCa: init.rootCa }));
    if (enabled('horizontal-pod-autoscaler-controller')) add(new HorizontalPodAutoscalerController({ ...base('horizontal-pod-autoscaler-controller'), options: {
      syncPeriodMs: o.hpaSyncPeriodMs, downscaleStabilizationMs: o.hpaDownscaleStabilizationMs,
      rules: { tolerance: o.hpaTolerance, cpuInitializationPeriodMs: o.hpaCpuInitializationPeriodMs, initialReadinessDelayMs: o.hpaInitialReadinessDelayMs } } }));
  }

  async start(): Promise<void> {
    for (const loop of this.#all) await loop.start();
  }

  stop(): void {
    for (const loop of this.#all) loop.stop();
    this.#informers.stop();
  }

  /** The informers the loops share. */
  get informers(): Informer[] {
    return this.#informers.all;
  }
}

export class ControllerManager {
  readonly options: ControllerManagerOptions;
  readonly replica: Replica<Loops>;
  /** The registry its /metrics shows. */
  readonly metrics: Registry;
  readonly #lifecycle: Actor<typeof componentMachine>;

  constructor(init: ControllerManagerInit) {
    const o = (this.options = controllerManagerOptions(init.options));
    const registry = (this.metrics = init.registry ?? newRegistry());
    const bus = meteredBus(init.bus, init.clock, registry);
    const system = init.system ?? new ActorSystem(init.clock);
    const identity = init.identity ?? 'controller-manager';
    this.replica = new Replica({
      identity, clock: init.clock, registry, make: () => new Loops({ ...init, bus }, o, registry, system),
      ...(o.leaderElect ? { election: {
        // As the real one: the election's requests give up after the renew deadline.
        client: new ApiClient(init.asIdentity ? init.asIdentity(bus, CONTROLLER_MANAGER) : bus, 'controller-manager/leader-election', o.leaderElectRenewDeadlineMs, undefined, { clock: init.clock }), random: init.random,
        config: electionConfig(o),
      } } : {}),
      ...(init.onLeading ? { onLeading: init.onLeading } : {}),
      onError: (e) => init.onError?.('controller-manager', e),
      system,
    });
    const machine = componentMachine.provide({
      actors: { start: fromPromise(() => this.replica.start()), stop: fromPromise(() => this.replica.stop()) },
      actions: { halt: () => this.replica.crash() },
    });
    this.#lifecycle = system.host(machine, { id: actorIds.controllerManager(identity) });
  }

  get identity(): string {
    return this.replica.identity;
  }

  /** Starts campaigning (with leader election) or the loops (without); rejects if they could not start. */
  start(): Promise<void> {
    const done = this.#reaching('Running');
    this.#lifecycle.start();
    return done;
  }

  /** Stops the loops; a leader releases its Lease. */
  stop(): Promise<void> {
    const done = this.#reaching('Stopped');
    this.#lifecycle.send({ type: 'STOP' });
    return done;
  }

  /** The replica dies at once: loops stopped, no release (its Lease runs out). */
  crash(): void {
    this.#lifecycle.send({ type: 'CRASH' });
  }

  /** Resolves once the lifecycle is in `state` (or has ended otherwise); rejects if it failed to start. */
  #reaching(state: 'Running' | 'Stopped'): Promise<void> {
    return whenState(this.#lifecycle, (s) => (s.matches('Failed') ? new Error(s.context.error) : s.matches(state) || s.status !== 'active' ? 'settled' : undefined));
  }

  /** Whether this replica runs its loops now. */
  get leading(): boolean {
    return this.replica.leading;
  }

  get nodeLifecycle(): NodeLifecycleController | undefined {
    return this.replica.current?.nodeLifecycle;
  }

  get taintEviction(): TaintEvictionController | undefined {
    return this.replica.current?.taintEviction;
  }

  /** The component machine's state: `Starting`, `Running`, `Stopping`, `Stopped`, `Crashed` or `Failed`. */
  get state(): string {
    return stateName(this.#lifecycle.getSnapshot().value);
  }

  get lifecycle(): Actor<typeof componentMachine> {
    return this.#lifecycle;
  }

  /** Every zone's state while leading (empty otherwise, or without the node lifecycle controller). */
  zoneStates(): Map<string, ZoneState> {
    return this.nodeLifecycle?.zoneStates() ?? new Map();
  }

  /** The informers of this term's loops (the checkers compare their caches with the store). */
  get informers(): Informer[] {
    return this.replica.current?.informers ?? [];
  }
}
