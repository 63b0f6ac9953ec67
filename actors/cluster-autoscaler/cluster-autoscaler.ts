// The cluster autoscaler actor: informers for nodes, pods and PodDisruptionBudgets feed a copy of
// the scheduler's cache (the same NodeInfo the filter plugins read) and the set of pods the
// scheduler marked Unschedulable; its machine (machines/cluster-autoscaler.ts) runs the loop and
// keeps the times; this file supplies each step: plan and ask for a scale-up (scale-up.ts), find
// the unneeded nodes (scale-down.ts), begin their removal (actuator.ts), write the status
// ConfigMap (status.ts). Each loop begins as the real one's: nodes asked for that did not come in
// time back their group off and are removed (cluster-state.ts). It records the real autoscaler's
// Events as `cluster-autoscaler`.
import { fromPromise, type Actor } from 'xstate';
import type { Clock, Random } from '../api/env.ts';
import { isFinished, isReady } from '../api/fields.ts';
import { isNotFound } from '../api/status.ts';
import { controllerOf } from '../api/types.ts';
import { CONFIG_MAPS, NODES, PODS, type ConfigMap, type Node, type Pod } from '../api/model/core.ts';
import { PDBS, type PodDisruptionBudget } from '../api/model/policy.ts';
import { KUBE_SYSTEM_NAMESPACE } from '../api/namespaces.ts';
import { WatchHub } from '../apiserver/watch/hub.ts';
import { cacheKey } from '../client/cache.ts';
import { ApiClient } from '../client/client.ts';
import { CoreEventRecorder, NO_EVENTS, referenceTo, type EventRecorder, type ObjectReference } from '../client/events/index.ts';
import { Informer } from '../client/informer.ts';
import type { Bus } from '../../transport/bus.ts';
import { clusterAutoscalerMachine, type ScaleUpResult, type UnneededResult } from '../../machines/cluster-autoscaler.ts';
import { SchedulerCache } from '../scheduler/cache.ts';
import type { FilterPlugin, NodeInfo } from '../scheduler/framework.ts';
import { podInfo } from '../scheduler/pod-info.ts';
import { defaultFilterPlugins } from '../scheduler/plugins/index.ts';
import { schedulingRelevantChange } from '../scheduler/scheduler.ts';
import { ActorSystem } from '../system/actor-system.ts';
import { startRunning } from '../system/when-state.ts';
import { Actuator, TO_BE_DELETED_TAINT } from './actuator.ts';
import type { CloudProvider, NodeGroup } from './cloud-provider.ts';
import { ignoredLabels, type Increase } from './balance.ts';
import { ClusterState, type GroupSight } from './cluster-state.ts';
import { SCALE_DOWN_DISABLED } from './drain-rules.ts';
import type { ClusterAutoscalerOptions } from './options.ts';
import { findUnneeded, type UnneededNode } from './scale-down.ts';
import { loadPriorityConfig } from './priorities.ts';
import { giveUpOnMissingNodes } from './provisioning.ts';
import { notTriggeredMessage, planScaleUp } from './scale-up.ts';
import { LAST_UPDATED_ANNOTATION, lastUpdatedText, statusYaml, Transitions, type NodeCounts, type StatusView } from './status.ts';

const COMPONENT = 'cluster-autoscaler';
export const CLUSTER_AUTOSCALER_ID = 'cluster-autoscaler';

export interface ClusterAutoscalerInit {
  bus: Bus;
  clock: Clock;
  random: Random;
  options: ClusterAutoscalerOptions;
  provider: CloudProvider;
  system?: ActorSystem;
  /** Whether it records Events (default true). */
  events?: boolean;
  filters?: FilterPlugin[];
  onError?: (e: unknown) => void;
}

const isUnschedulable = (p: Pod) => !p.spec?.nodeName && !p.metadata.deletionTimestamp
  && p.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable') === true;

export class ClusterAutoscaler {
  readonly options: ClusterAutoscalerOptions;
  readonly #o: ClusterAutoscalerInit;
  readonly #client: ApiClient;
  readonly #events: EventRecorder;
  readonly #nodes: Informer<Node>;
  readonly #pods: Informer<Pod>;
  readonly #budgets: Informer<PodDisruptionBudget>;
  readonly #cache = new SchedulerCache();
  readonly #ready = new Set<string>();
  readonly #unschedulable = new Set<string>();
  readonly #filters: FilterPlugin[];
  readonly #actuator: Actuator;
  readonly #transitions = new Transitions();
  readonly #state: ClusterState;
  /** The expanders' tie-breaks: one stream for the autoscaler's life, so each loop draws afresh. */
  readonly #ties: Random;
  readonly #lifecycle: Actor<typeof clusterAutoscalerMachine>;
  #unneeded: UnneededNode[] = [];
  #statusMap: ObjectReference | undefined;

  constructor(init: ClusterAutoscalerInit) {
    this.#o = init;
    this.options = init.options;
    const { clock } = init;
    this.#client = new ApiClient(init.bus, COMPONENT, undefined, undefined, { clock });
    this.#events = init.events === false ? NO_EVENTS : new CoreEventRecorder({ client: this.#client, clock, random: init.random.fork('events'), source: { component: COMPONENT } });
    const hub = new WatchHub(init.bus);
    this.#nodes = new Informer({ client: this.#client, hub, clock, type: NODES, indexed: false });
    this.#pods = new Informer({ client: this.#client, hub, clock, type: PODS, indexed: true });
    this.#budgets = new Informer({ client: this.#client, hub, clock, type: PDBS, indexed: false });
    this.#filters = init.filters ?? defaultFilterPlugins();
    this.#state = new ClusterState(init.options);
    this.#ties = init.random.fork('expander');
    this.#nodes.on({ add: (n) => this.#nodeChanged(undefined, n), update: (old, n) => this.#nodeChanged(old, n), delete: (n) => this.#nodeDeleted(n) });
    this.#pods.on({ add: (p) => this.#podChanged(p), update: (_old, p) => this.#podChanged(p), delete: (p) => this.#podGone(p) });
    this.#actuator = new Actuator({
      client: this.#client, clock, events: this.#events, provider: init.provider, statusMap: () => this.#statusMap,
      node: (name) => this.#nodes.cache.get(undefined, name),
      podsLeft: (name) => this.#pods.cache.onNode(name).filter((p) => !isFinished(p) && controllerOf(p)?.kind !== 'DaemonSet').length,
      onError: (e) => this.#error(e),
    });
    const o = init.options;
    const machine = clusterAutoscalerMachine.provide({
      actors: {
        syncCaches: fromPromise(async () => {
          await Promise.all([this.#nodes.start(), this.#pods.start(), this.#budgets.start()]);
          await this.#writeStatus();
        }),
        scaleUp: fromPromise(async () => this.#scaleUp()),
        findUnneeded: fromPromise(async () => this.#findUnneeded()),
        scaleDown: fromPromise(async ({ input }: { input: { nodes: string[] } }) => this.#scaleDown(input.nodes)),
      },
      actions: {
        writeStatus: () => void this.#writeStatus().catch((e) => this.#error(e)),
        halt: () => {
          this.#nodes.stop();
          this.#pods.stop();
          this.#budgets.stop();
          this.#events.stop();
        },
      },
    });
    const system = init.system ?? new ActorSystem(clock);
    this.#lifecycle = system.host(machine, {
      id: CLUSTER_AUTOSCALER_ID,
      input: {
        scanIntervalMs: o.scanIntervalMs, scaleDownEnabled: o.scaleDownEnabled, scaleDownUnneededTimeMs: o.scaleDownUnneededTimeMs,
        scaleDownDelayAfterAddMs: o.scaleDownDelayAfterAddMs, scaleDownDelayAfterDeleteMs: o.scaleDownDelayAfterDeleteMs ?? o.scanIntervalMs,
      },
    });
  }

  /** Lists and watches, writes its first status, then loops; rejects if it could not start. */
  start(): Promise<void> {
    return startRunning(this.#lifecycle);
  }

  stop(): void {
    this.#lifecycle.send({ type: 'STOP' });
  }

  get lifecycle(): Actor<typeof clusterAutoscalerMachine> {
    return this.#lifecycle;
  }

  // ---- Informer events: the cache of nodes and bound pods, the unschedulable pods ----------------

  #nodeChanged(old: Node | undefined, node: Node): void {
    const name = node.metadata.name!;
    if (isReady(node)) this.#ready.add(name);
    else this.#ready.delete(name);
    if (!old || schedulingRelevantChange(old, node)) this.#cache.setNode(node);
  }

  #nodeDeleted(node: Node): void {
    this.#ready.delete(node.metadata.name!);
    this.#cache.removeNode(node.metadata.name!);
  }

  #podChanged(pod: Pod): void {
    const key = cacheKey(pod);
    if (isUnschedulable(pod)) this.#unschedulable.add(key);
    else this.#unschedulable.delete(key);
    const node = pod.spec?.nodeName;
    if (!node) return;
    if (isFinished(pod)) return void this.#cache.unplace(key);
    const placed = this.#cache.placement(key);
    if (!placed || placed.node !== node || placed.info.uid !== pod.metadata.uid) this.#cache.place(podInfo(pod), node, false);
    else placed.info.pod = pod;
  }

  #podGone(pod: Pod): void {
    const key = cacheKey(pod);
    this.#unschedulable.delete(key);
    this.#cache.unplace(key);
  }

  // ---- The loop's steps --------------------------------------------------------------------------

  /** Ready nodes not being removed: where pods run in a simulation. */
  #usableNodes(): NodeInfo[] {
    return this.#cache.snapshot().nodes.filter((n) => this.#ready.has(n.name) && !this.#actuator.deleting.has(n.name) && !n.taints.some((t) => t.key === TO_BE_DELETED_TAINT));
  }

  /** Registered and Ready nodes of each group, and its machines with no Node (long unregistered: as of the loop's start). */
  #groupCounts(): Map<string, NodeCounts> {
    const registered = (name: string) => this.#nodes.cache.get(undefined, name) !== undefined;
    const counts = new Map<string, NodeCounts>(this.#o.provider.nodeGroups().map((g) => {
      const unregistered = g.instances().filter((n) => !registered(n));
      const long = new Set(this.#state.unregistered(g.id).long);
      const longCount = unregistered.filter((n) => long.has(n)).length;
      return [g.id, { total: 0, ready: 0, unregistered: unregistered.length - longCount, longUnregistered: longCount }];
    }));
    for (const node of this.#nodes.cache.list()) {
      const c = counts.get(this.#o.provider.nodeGroupForNode(node)?.id ?? '');
      if (!c) continue;
      c.total++;
      if (this.#ready.has(node.metadata.name!)) c.ready++;
    }
    return counts;
  }

  #sight(group: NodeGroup, counts: Map<string, NodeCounts>): GroupSight {
    return { id: group.id, target: group.targetSize(), instances: group.instances(), ready: counts.get(group.id)!.ready };
  }

  async #scaleUp(): Promise<ScaleUpResult> {
    const atMs = this.#o.clock.now();
    const before = this.#groupCounts();
    const sights = this.#o.provider.nodeGroups().map((g) => this.#sight(g, before));
    const registered = (name: string) => this.#nodes.cache.get(undefined, name) !== undefined;
    if (await giveUpOnMissingNodes({ provider: this.#o.provider, state: this.#state, log: (...a) => this.#log(...a) }, atMs, sights, registered)) return { atMs, scaledUp: false, ended: true };
    const pending = [...this.#unschedulable].sort().map((k) => this.#pods.cache.byKey(k)).filter((p): p is Pod => p !== undefined).map(podInfo);
    if (pending.length === 0) return { atMs, scaledUp: false };
    const counts = this.#groupCounts();
    // Asked for and not yet Ready, less those given up on: the real clusterstate's upcoming nodes.
    const groups = this.#o.provider.nodeGroups().map((group) => ({
      group, upcoming: this.#state.upcoming(this.#sight(group, counts)), backedOff: this.#state.backoff(group.id, atMs) !== undefined,
    }));
    const priority = this.options.expander.includes('priority') ? await loadPriorityConfig(this.#client, this.#events) : undefined;
    const balance = this.options.balanceSimilarNodeGroups ? { ignoredLabels: ignoredLabels([...this.#o.provider.groupLabels, ...this.options.balancingIgnoreLabel]) } : undefined;
    const plan = planScaleUp({ pending, nodes: this.#usableNodes(), groups, filters: this.#filters, expanders: this.options.expander, random: this.#ties,
      ...(priority ? { priority } : {}), ...(balance ? { balance } : {}) });
    if (!plan.chosen) {
      for (const u of plan.unhelped) if (u.reasons.length) this.#events.event(referenceTo(PODS, u.pod.pod), 'Normal', 'NotTriggerScaleUp', notTriggeredMessage(u.reasons));
      return { atMs, scaledUp: false };
    }
    const { option, increases } = plan.chosen;
    for (const increase of increases) this.#grow(increase, atMs);
    const info = `[${increases.map((i) => `{${i.group.id} ${i.currentSize}->${i.newSize} (max: ${i.group.maxSize})}`).join(' ')}]`;
    for (const p of option.pods) this.#events.event(referenceTo(PODS, p.pod), 'Normal', 'TriggeredScaleUp', `pod triggered scale-up: ${info}`);
    return { atMs, scaledUp: true };
  }

  /** Asks the cloud to grow one group, as the real executeScaleUp: a refusal backs the group off and ends the scale-up. */
  #grow({ group, currentSize, newSize }: Increase, atMs: number): void {
    this.#log('ScaledUpGroup', `Scale-up: setting group ${group.id} size to ${newSize} instead of ${currentSize} (max: ${group.maxSize})`);
    try {
      this.#o.provider.increaseSize(group.id, newSize - currentSize);
    } catch (e) {
      this.#log('FailedToScaleUpGroup', `Scale-up failed for group ${group.id}: ${(e as Error).message}`, 'Warning');
      this.#state.failed(group.id, atMs, { errorCode: 'cloudProviderError', errorMessage: `failed to increase node group size: ${(e as Error).message}` });
      throw e;
    }
    this.#state.scaleUp(group.id, atMs);
    this.#log('ScaledUpGroup', `Scale-up: group ${group.id} size set to ${newSize} instead of ${currentSize} (max: ${group.maxSize})`);
  }

  async #findUnneeded(): Promise<UnneededResult> {
    const atMs = this.#o.clock.now();
    const nodes = this.#usableNodes();
    const candidates = nodes.flatMap((info) => {
      // The informer's copy: the cache's is rebuilt only when what the filters read changes, not for annotations.
      const node = this.#nodes.cache.get(undefined, info.name);
      if (!node) return [];
      const group = this.#o.provider.nodeGroupForNode(node);
      return group && node.metadata.annotations?.[SCALE_DOWN_DISABLED] !== 'true' ? [{ info, group }] : [];
    });
    this.#unneeded = findUnneeded({ nodes, candidates, budgets: this.#budgets.cache.list(), deleting: this.#actuator.deletingPerGroup(), options: this.options, filters: this.#filters });
    return { atMs, nodes: this.#unneeded.map((u) => u.name) };
  }

  /** Begins removing the due nodes: empty ones up to max-empty-bulk-delete, one drain at a time. */
  async #scaleDown(due: readonly string[]): Promise<string[]> {
    const wanted = new Set(due);
    const nodes = this.#unneeded.filter((u) => wanted.has(u.name));
    const empty = nodes.filter((u) => u.podsToMove.length === 0).slice(0, this.options.maxEmptyBulkDelete);
    const draining = [...this.#actuator.deleting.keys()].some((n) => this.#pods.cache.onNode(n).length > 0);
    const drain = draining ? [] : nodes.filter((u) => u.podsToMove.length > 0).slice(0, 1);
    const begun: string[] = [];
    for (const u of [...empty, ...drain]) if (await this.#actuator.remove(u)) begun.push(u.name);
    return begun;
  }

  #log(reason: string, message: string, type: 'Normal' | 'Warning' = 'Normal'): void {
    if (this.#statusMap) this.#events.event(this.#statusMap, type, reason, message);
  }

  #statusView(): StatusView {
    const counts = this.#groupCounts();
    const all: NodeCounts = { total: this.#nodes.cache.size, ready: this.#ready.size, unregistered: 0, longUnregistered: 0 };
    const now = this.#o.clock.now();
    const groups = this.#o.provider.nodeGroups().map((g) => {
      const c = counts.get(g.id)!;
      all.unregistered += c.unregistered;
      all.longUnregistered += c.longUnregistered;
      const backoff = this.#state.backoff(g.id, now);
      return { name: g.id, counts: c, target: g.targetSize(), min: g.minSize, max: g.maxSize, candidates: this.#unneeded.filter((u) => u.group === g).length, ...(backoff ? { backoff } : {}) };
    });
    return { counts: all, candidates: this.#unneeded.length, groups };
  }

  /** Writes `cluster-autoscaler-status` (created when missing), as the real one every loop. */
  async #writeStatus(): Promise<void> {
    if (!this.options.writeStatusConfigMap) return;
    const now = this.#o.clock.now();
    const name = this.options.statusConfigMapName;
    const data = { status: statusYaml(this.#statusView(), now, this.#transitions) };
    const annotations = { [LAST_UPDATED_ANNOTATION]: lastUpdatedText(now) };
    let map: ConfigMap;
    try {
      map = await this.#client.patch(CONFIG_MAPS, KUBE_SYSTEM_NAMESPACE, name, { metadata: { annotations }, data }, 'merge');
    } catch (e) {
      if (!isNotFound(e)) throw e;
      map = await this.#client.create(CONFIG_MAPS, { metadata: { name, namespace: KUBE_SYSTEM_NAMESPACE, annotations }, data });
    }
    this.#statusMap = referenceTo(CONFIG_MAPS, map);
  }

  #error(e: unknown): void {
    if (this.#o.onError) this.#o.onError(e);
    else console.error(`${COMPONENT}:`, e);
  }
}
