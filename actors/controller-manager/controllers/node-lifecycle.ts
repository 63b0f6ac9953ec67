// The node lifecycle controller, as the real one monitors node health and taints for eviction.
// Its machines decide; this class observes and writes:
//
// - One node-health machine per node (machines/node-health.ts, `node-health/<name>`): every
//   nodeMonitorPeriod a pass probes each node (a renewal of its Lease or a new heartbeat in its
//   Ready condition, seen on this controller's own clock, is a probe; the machine reads the last
//   one's time when its grace period would end). The grace period (nodeMonitorGracePeriod,
//   nodeStartupGracePeriod while it never reported Ready) is the machine's delay; once it is
//   over, the pass sends PASS and the machine sets the node's Ready,
//   MemoryPressure, DiskPressure and PIDPressure conditions Unknown, and, when it took Ready
//   away, its pods' Ready condition False (through pods/status; ContainersReady stays, as the
//   real MarkPodsNotReady leaves it). A node some of whose pods failed to be marked is tried
//   again on later passes while it is not Ready; a pod newly bound to, or first seen on, a node
//   not Ready is marked too. The node's agent sets them Ready again once it reaches the server.
// - The decision to taint reads the Ready condition as the pass observed it, before its own
//   write: a node whose Ready is False or Unknown is queued in its zone's tainting queue, which
//   puts the NoExecute taint `not-ready` or `unreachable` on it at the zone's rate. A node Ready
//   again loses those taints and leaves the queue.
// - One zone machine per zone (zones.ts): its state (Normal, PartialDisruption, FullDisruption)
//   sets its queue's rate. When every zone is fully disrupted the controller assumes the problem
//   is its own: it removes every NoExecute taint it set and stops tainting; when a zone comes
//   back, every node gets a fresh grace period.
// The controller itself runs as `controller/node-lifecycle-controller` (controller-actor.ts),
// its monitor pass the lifecycle machine's periodic pass. Both passes wait for their writes, as the
// real ones block on theirs: the monitor pass updates NODE_UPDATE_WORKERS nodes at a time (each
// its conditions, its taint, then its pods one by one) and the next starts a period after it ends;
// the tainting pass writes one taint after the other. So no taint waits behind a pass's backlog in
// the client's rate limiter, and a zone's taints land its rate apart. With it runs the tainting of nodes by
// condition (node-condition-taints.ts). Pods are evicted by the taint eviction controller once a
// taint lands (taint-eviction.ts).
// It records, as `node-controller`: RegisteredNode and RemovingNode when a pass first sees a node
// and sees it gone, NodeNotReady on a node whose Ready it took away, and NodeNotReady (Warning,
// "Node is not ready") on each pod it marks not Ready.
import { assign, type Actor } from 'xstate';
import type { Clock } from '../../api/env.ts';
import { timestamp } from '../../api/env.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { ApiClient } from '../../client/client.ts';
import { NO_EVENTS, referenceTo, type EventRecorder, type RecorderFactory } from '../../client/events/index.ts';
import type { Informer } from '../../client/informer.ts';
import type { SharedInformers } from '../../client/shared-informers.ts';
import type { RateLimiter } from '../../client/rate-limiter.ts';
import { NODE_LEASE_NAMESPACE } from '../../api/namespaces.ts';
import { nodeHealthMachine, type ReadyStatus } from '../../../machines/node-health.ts';
import type { ZoneState } from '../../../machines/zone.ts';
import type { Bus } from '../../../transport/bus.ts';
import { ActorSystem } from '../../system/actor-system.ts';
import { ControllerActor } from '../controller-actor.ts';
import { hasTaint, NOT_READY, swapTaints, UNREACHABLE, updateTaints, type Taint } from '../node-taints.ts';
import type { ControllerManagerOptions } from '../options.ts';
import type { Queued } from '../tainting-queue.ts';
import { NodeConditionTaints } from './node-condition-taints.ts';
import { Zones, type ZoneCounts } from './zones.ts';
import { actorIds } from '../../system/ids.ts';
import { LEASES, type Lease } from '../../api/model/coordination.ts';
import { NODES, type Node, type NodeCondition, PODS, type Pod } from '../../api/model/core.ts';

/** How often each zone's tainting queue is worked while it holds nodes (the real NodeEvictionPeriod). */
export const TAINTING_PASS_MS = 100;
/** How many nodes a monitor pass updates at once, each waiting for its writes (the real UpdateWorkerSize). */
export const NODE_UPDATE_WORKERS = 8;

const NOT_READY_TAINT: Taint = { key: NOT_READY, effect: 'NoExecute' };
const UNREACHABLE_TAINT: Taint = { key: UNREACHABLE, effect: 'NoExecute' };
/** The conditions a silent node's are set to Unknown, in this order. */
const PROBED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/** A node's health machine, and what the controller last saw of the node: the probes it compares, and when it last heard from it. */
interface NodeHealth {
  actor: Actor<HealthMachine>;
  ready: NodeCondition | undefined;
  leaseRenewTime: string | undefined;
  /** The real controller's probe timestamp, on this controller's clock. */
  probeMs: number;
  /** The Ready condition's status the machine was last told (OBSERVED), or took itself (Unknown); undefined: none yet. */
  told: ReadyStatus | undefined;
}

type HealthMachine = ReturnType<NodeLifecycleController['healthMachine']>;

export interface NodeLifecycleInit {
  bus: Bus;
  clock: Clock;
  informers: SharedInformers;
  options: ControllerManagerOptions;
  limiter?: RateLimiter;
  onError?: (e: unknown) => void;
  /** Told each NoExecute taint this controller puts on a node. */
  onTaint?: (node: string, key: string, atMs: number) => void;
  /** Where its machines are hosted (a system of its own when absent). */
  system?: ActorSystem;
  /** Makes its event recorder; without it, it records none. */
  events?: RecorderFactory;
}

const conditionsOf = (node: Node): NodeCondition[] => node.status?.conditions ?? [];
const readyOf = (node: Node): NodeCondition | undefined => conditionsOf(node).find((c) => c.type === 'Ready');
/** The zone of a node: region and zone labels, as the real controller's zone key. */
export function zoneOf(node: KObject): string {
  const l = node.metadata.labels ?? {};
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return region || zone ? `${region}:${zone}` : '';
}

export class NodeLifecycleController {
  readonly #o: ControllerManagerOptions;
  readonly #clock: Clock;
  readonly #system: ActorSystem;
  readonly #client: ApiClient;
  readonly #events: EventRecorder;
  readonly #informers: SharedInformers;
  readonly #nodes: Informer<Node>;
  readonly #leases: Informer<Lease>;
  readonly #pods: Informer<Pod>;
  readonly #onError: (e: unknown) => void;
  readonly #onTaint: NodeLifecycleInit['onTaint'];
  readonly #conditionTaints: NodeConditionTaints;
  readonly #lifecycle: ControllerActor;
  readonly #healthMachine: HealthMachine;
  readonly #health = new Map<string, NodeHealth>();
  /** The same records by their health machine's id: where the machine's `look` reads. */
  readonly #byActor = new Map<string, NodeHealth>();
  readonly #known = new Map<string, string>();
  /** The uid of each known node, for the event when it goes. */
  readonly #uids = new Map<string, string>();
  readonly #zones: Zones;
  /** Nodes whose health machine's grace period is over: the next pass gives its verdict. */
  readonly #silent = new Set<string>();
  /** The node a pass is looking at: where the health machine's actions apply; `write` is its conditions' write. */
  #passing: { node: KObject; now: number; tookReady: boolean; marked: boolean; write?: Promise<void> } | undefined;
  /** Nodes some of whose pods could not be marked not Ready: tried again while the node is not Ready. */
  readonly #markRetries = new Set<string>();
  /**
   * Nodes whose taint write is on its way (it may wait behind other writes for the client's rate
   * limit): not queued again meanwhile, as the real tainting queue keeps a node until its swap returns.
   */
  readonly #swapping = new Set<string>();
  #startMs = 0;
  /** When the last tainting pass ended: the next starts TAINTING_PASS_MS after it (wait.Until). */
  #lastPassEndMs = -Infinity;
  #taintingTimer: unknown;
  /** A tainting pass is waiting for its writes. */
  #tainting = false;

  constructor(init: NodeLifecycleInit) {
    this.#o = init.options;
    this.#clock = init.clock;
    this.#system = init.system ?? new ActorSystem(init.clock);
    this.#client = new ApiClient(init.bus, 'node-lifecycle-controller', undefined, init.limiter, { clock: init.clock });
    this.#events = init.events?.(this.#client, { component: 'node-controller' }) ?? NO_EVENTS;
    this.#informers = init.informers;
    this.#nodes = init.informers.get(NODES);
    this.#leases = init.informers.get(LEASES, NODE_LEASE_NAMESPACE);
    this.#pods = init.informers.get(PODS);
    this.#pods.on({ add: (p) => this.#podBound(undefined, p), update: (old, p) => this.#podBound(old, p) });
    this.#onError = init.onError ?? ((e) => console.error('node-lifecycle-controller:', e));
    this.#onTaint = init.onTaint;
    this.#conditionTaints = new NodeConditionTaints({ bus: init.bus, informers: init.informers, onError: this.#onError });
    this.#healthMachine = this.healthMachine();
    const o = init.options;
    this.#zones = new Zones(init.clock, this.#system, { unhealthyZoneThreshold: o.unhealthyZoneThreshold, evictionRate: o.nodeEvictionRate,
      secondaryEvictionRate: o.secondaryNodeEvictionRate, largeClusterSizeThreshold: o.largeClusterSizeThreshold });
    this.#lifecycle = new ControllerActor('node-lifecycle-controller', {
      periodMs: o.nodeMonitorPeriodMs,
      syncCaches: async () => {
        await this.#informers.start();
        await this.#conditionTaints.start();
      },
      run: () => void (this.#startMs = this.#clock.now()),
      pass: () => this.#monitorNodeHealth().catch((e) => this.#onError(e)),
      halt: () => this.#halt(),
    }, this.#system);
  }

  /** The health machine with this controller's I/O; public only for its type. */
  healthMachine() {
    return nodeHealthMachine.provide({
      actions: {
        look: assign(({ self }) => ({ probeMs: this.#byActor.get(self.id)?.probeMs ?? 0, nowMs: this.#clock.now() })),
        markUnknown: () => this.#markUnknown(),
        markPodsNotReady: () => {
          if (!this.#passing) return;
          this.#passing.tookReady = true;
          const { name, uid } = this.#passing.node.metadata;
          this.#nodeEvent(name!, uid ?? '', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
        },
        silent: ({ self }) => void this.#silent.add(self.id),
        heard: ({ self }) => void this.#silent.delete(self.id),
      },
    });
  }

  start(): Promise<void> {
    return this.#lifecycle.start();
  }

  stop(): void {
    this.#lifecycle.stop();
  }

  #halt(): void {
    this.#events.stop();
    this.#clock.clearTimeout(this.#taintingTimer);
    this.#taintingTimer = undefined;
    this.#conditionTaints.stop();
    for (const h of this.#health.values()) h.actor.stop();
    this.#health.clear();
    this.#byActor.clear();
    this.#silent.clear();
    this.#zones.stop();
  }

  /** Every zone's state, by zone key (`region:zone`). */
  zoneStates(): Map<string, ZoneState> {
    return this.#zones.states();
  }

  get informers(): Informer[] {
    return [this.#nodes, this.#leases, this.#pods];
  }

  // ---- Monitoring ---------------------------------------------------------------------------------

  /**
   * The real monitorNodeHealth: one pass over every node, NODE_UPDATE_WORKERS at a time, each
   * waiting for its writes (its conditions, its taints, its pods one by one), then the zones.
   */
  async #monitorNodeHealth(): Promise<void> {
    const nodes = this.#nodes.cache.list().sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    const present = new Set(nodes.map((n) => n.metadata.name!));
    for (const node of nodes) {
      const name = node.metadata.name!;
      if (this.#known.has(name)) continue;
      const zone = zoneOf(node);
      this.#known.set(name, zone);
      this.#uids.set(name, node.metadata.uid ?? '');
      this.#nodeEvent(name, node.metadata.uid ?? '', 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
      this.#zones.ensure(zone);
      await this.#lifecycle.as(() => this.#markReachable(node));
    }
    for (const name of [...this.#known.keys()]) {
      if (present.has(name)) continue;
      this.#zones.queue(this.#known.get(name)!)?.remove(name);
      this.#nodeEvent(name, this.#uids.get(name) ?? '', 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
      this.#known.delete(name);
      this.#uids.delete(name);
      const h = this.#health.get(name);
      if (h) {
        this.#silent.delete(h.actor.id);
        this.#byActor.delete(h.actor.id);
        h.actor.stop();
      }
      this.#health.delete(name);
    }
    const counts = new Map<string, ZoneCounts>();
    for (const zone of this.#known.values()) {
      const c = counts.get(zone) ?? { ready: 0, notReady: 0, size: 0 };
      c.size++;
      counts.set(zone, c);
    }
    let next = 0;
    const worker = async () => {
      while (next < nodes.length && this.#lifecycle.running) await this.#updateNode(nodes[next++]!, counts);
    };
    await Promise.all(Array.from({ length: Math.min(NODE_UPDATE_WORKERS, nodes.length) }, worker));
    if (!this.#lifecycle.running) return;
    const disruption = this.#lifecycle.as(() => this.#zones.observe(counts));
    // Every zone down at once: more likely the controller's own view is cut off. No evictions.
    if (disruption === 'allDown') for (const node of nodes) await this.#lifecycle.as(() => this.#markReachable(node));
    // Back from a total outage: every node gets a fresh grace period.
    if (disruption === 'back') this.#lifecycle.as(() => {
      for (const h of this.#health.values()) {
        h.probeMs = this.#clock.now();
        h.actor.send({ type: 'RESET', nowMs: h.probeMs });
      }
    });
    this.#armTainting();
  }

  /**
   * One node of a monitor pass, as the real updateNodeFunc: its health, counted in its zone, then
   * its taint and its pods. Each step after a wait runs as the controller (`as`): what it sends is
   * the controller's.
   */
  async #updateNode(node: KObject, counts: Map<string, ZoneCounts>): Promise<void> {
    const name = node.metadata.name!;
    const now = this.#clock.now();
    const { observed, current, hasCondition, tookReady, write } = this.#lifecycle.as(() => this.#updateHealth(node, now));
    // As the real ComputeZoneState counts them: a node that never posted its Ready condition is not Ready.
    const c = counts.get(zoneOf(node))!;
    if (current === 'True') c.ready++;
    else c.notReady++;
    await write;
    if (!hasCondition) return;
    await this.#lifecycle.as(() => this.#decideTaint(node, observed, now));
    // The real monitorNodeHealth: once when this pass took the node's Ready away, again while a retry is owed.
    if (tookReady || (this.#markRetries.has(name) && observed.status !== 'True')) await this.#markPodsNotReady(name, this.#pods.cache.onNode(name), now);
    else this.#markRetries.delete(name);
  }

  /**
   * The real tryUpdateNodeHealth: the Ready condition as observed, and the node's health after
   * this pass (the machine's state). A probe (a new heartbeat, a renewed Lease, or first sight of
   * a node that posted a Ready condition) moves the probe time the machine reads; a change of the
   * Ready condition's status is told to it (OBSERVED); a node whose grace period is over gets the
   * machine's verdict (PASS).
   */
  #updateHealth(node: KObject, now: number): { observed: NodeCondition; current: ReadyStatus; hasCondition: boolean; tookReady: boolean; write?: Promise<void> } {
    const name = node.metadata.name!;
    const ready = readyOf(node);
    const at = node.metadata.creationTimestamp ?? undefined;
    const observed: NodeCondition = ready ?? { type: 'Ready', status: 'Unknown', lastHeartbeatTime: at, lastTransitionTime: at };
    let health = this.#health.get(name);
    if (!health) {
      // First sight: a node that posted its Ready condition is heard now; one that never did, at its creation.
      const probeMs = ready ? now : Date.parse(node.metadata.creationTimestamp ?? '') || now;
      const actor = this.#system.host(this.#healthMachine, { id: actorIds.nodeHealth(name), node: name, input: {
        monitorGraceMs: this.#o.nodeMonitorGracePeriodMs, startupGraceMs: this.#o.nodeStartupGracePeriodMs, probeMs, nowMs: now,
      } });
      health = { actor, ready: undefined, leaseRenewTime: undefined, probeMs, told: undefined };
      this.#health.set(name, health);
      this.#byActor.set(actor.id, health);
      actor.start();
    }
    // A new heartbeat is the node's own word: a probe, and its status the one to tell the machine.
    // (The same heartbeat with another status is this controller's own write, or a stale copy.)
    const heartbeat = ready !== undefined && (!health.ready || health.ready.lastHeartbeatTime !== ready.lastHeartbeatTime);
    if (heartbeat) health.probeMs = now;
    health.ready = ready;
    const renewTime = this.#leases.cache.get(NODE_LEASE_NAMESPACE, name)?.spec?.renewTime;
    // The same time as last pass (a lease renews every 10 s, the pass runs every 5 s) is no renewal: compared before parsing.
    if (renewTime && renewTime !== health.leaseRenewTime && (!health.leaseRenewTime || Date.parse(health.leaseRenewTime) < Date.parse(renewTime))) {
      health.leaseRenewTime = renewTime;
      health.probeMs = now;
    }
    const status = ready?.status as ReadyStatus | undefined;
    if (heartbeat && status !== health.told) {
      health.told = status;
      health.actor.send({ type: 'OBSERVED', ready: status, probeMs: health.probeMs, nowMs: now });
    }
    let tookReady = false;
    let hasCondition = ready !== undefined;
    let write: Promise<void> | undefined;
    if (this.#silent.has(health.actor.id)) {
      this.#passing = { node, now, tookReady: false, marked: false };
      health.actor.send({ type: 'PASS', ready: status, probeMs: health.probeMs, nowMs: now });
      ({ tookReady, write } = this.#passing);
      hasCondition ||= this.#passing.marked;
      this.#passing = undefined;
    }
    // The machine's top-level state is the Ready condition's status as the controller holds it.
    const top = health.actor.getSnapshot().value as Partial<Record<'Ready' | 'NotReady' | 'Unknown', unknown>>;
    const current: ReadyStatus = 'Ready' in top ? 'True' : 'NotReady' in top ? 'False' : 'Unknown';
    return { observed, current, hasCondition, tookReady, write };
  }

  /** The health machine's verdict on the node of this pass: its probed conditions set Unknown. */
  #markUnknown(): void {
    const passing = this.#passing;
    if (!passing) return;
    const { node, now } = passing;
    const conditions = this.#unknownConditions(node, now);
    const health = this.#health.get(node.metadata.name!)!;
    health.ready = conditions.find((c) => c.type === 'Ready');
    // The machine is Unknown now: the written condition, when it comes back on a pass, is no change to tell it.
    health.told = 'Unknown';
    passing.marked = true;
    passing.write = this.#writeConditions(node, conditions);
  }
  /** The node's conditions with the probed ones Unknown (added when missing), as a silent node's. */
  #unknownConditions(node: KObject, now: number): NodeCondition[] {
    const conditions = conditionsOf(node).map((c) =>
      PROBED_CONDITIONS.includes(c.type) && c.status !== 'Unknown'
        ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: timestamp(now) }
        : c);
    for (const type of PROBED_CONDITIONS)
      if (!conditions.some((c) => c.type === type))
        conditions.push({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.',
          lastHeartbeatTime: node.metadata.creationTimestamp ?? undefined, lastTransitionTime: timestamp(now) });
    return conditions;
  }

  async #writeConditions(node: KObject, conditions: NodeCondition[]): Promise<void> {
    const patch = { metadata: { resourceVersion: node.metadata.resourceVersion }, status: { conditions } };
    await this.#client.patch(NODES, undefined, node.metadata.name!, patch, 'merge', 'status').catch((e) => {
      // A node that changed meanwhile is probed again on the next pass.
      if (!(isConflict(e) || isNotFound(e))) this.#onError(e);
    });
  }

  // ---- Pods ---------------------------------------------------------------------------------------

  /** The real processPod: a pod bound (or first seen) on a node whose Ready, as last monitored, is not True. */
  #podBound(old: Pod | undefined, pod: Pod): void {
    const node = pod.spec?.nodeName;
    if (!node || (old && old.spec?.nodeName === node)) return;
    const ready = this.#health.get(node)?.ready;
    if (ready && ready.status !== 'True') void this.#markPodsNotReady(node, [pod], this.#clock.now());
  }

  /**
   * The real MarkPodsNotReady: one pod after the other, each write waited for, each pod's Ready
   * condition, where it has one and it is not False already, set False (its transition time now),
   * with the pod's resourceVersion as precondition. A failure other than the pod being gone owes
   * the node a retry on the next pass.
   */
  async #markPodsNotReady(nodeName: string, pods: Pod[], now: number): Promise<void> {
    let failed = false;
    for (const pod of pods) {
      const conditions = pod.status?.conditions ?? [];
      const ready = conditions.find((c) => c.type === 'Ready');
      if (!ready || ready.status === 'False' || pod.spec?.nodeName !== nodeName) continue;
      const marked = conditions.map((c) => (c === ready ? { ...c, status: 'False', lastTransitionTime: timestamp(now) } : c));
      const patch = { metadata: { resourceVersion: pod.metadata.resourceVersion }, status: { conditions: marked } };
      const gone = await this.#lifecycle.as(() => this.#client.patch(PODS, pod.metadata.namespace, pod.metadata.name!, patch, 'merge', 'status')).then(() => false, (e) => {
        if (isNotFound(e)) return true;
        if (!isConflict(e)) this.#onError(e);
        failed = true;
        return false;
      });
      // As the real one: recorded once the write was tried, unless the pod was gone.
      if (!gone) this.#events.event(referenceTo(PODS, pod), 'Warning', 'NodeNotReady', 'Node is not ready');
    }
    if (failed) this.#markRetries.add(nodeName);
    else this.#markRetries.delete(nodeName);
  }

  /** An event about a node, referred to as the real RecordNodeEvent and RecordNodeStatusChange refer to it. */
  #nodeEvent(name: string, uid: string, reason: string, message: string): void {
    this.#events.event({ apiVersion: 'v1', kind: 'Node', name, uid }, 'Normal', reason, message);
  }

  // ---- Tainting -----------------------------------------------------------------------------------

  /** The real processTaintBaseEviction, on the Ready condition as observed; resolves once its writes returned. */
  async #decideTaint(node: KObject, observed: NodeCondition, now: number): Promise<void> {
    if (observed.status === 'True') return this.#markReachable(node);
    if (this.#swapping.has(node.metadata.name!)) return;
    const [taint, opposite] = observed.status === 'False' ? [NOT_READY_TAINT, UNREACHABLE_TAINT] : [UNREACHABLE_TAINT, NOT_READY_TAINT];
    // A node tainted for the other reason is switched at once: it was already found unhealthy.
    if (hasTaint(node, opposite.key, 'NoExecute')) return void (await this.#swap(node, taint, opposite, now));
    const queue = this.#zones.queue(zoneOf(node));
    if (!queue) return;
    // Not tainted yet: queued again from now (a node tainted already stays out of the queue).
    if (!hasTaint(node, taint.key, 'NoExecute')) queue.remove(node.metadata.name!);
    // The tainting pass runs beside the monitor pass: it may take the node before this pass ends.
    if (queue.add(node.metadata.name!, node.metadata.uid ?? '', now)) this.#armTainting();
  }

  /** The real markNodeAsReachable: no NoExecute taint of ours, out of the tainting queue; resolves once the write returned. */
  async #markReachable(node: KObject): Promise<void> {
    this.#zones.queue(zoneOf(node))?.remove(node.metadata.name!);
    if (!hasTaint(node, NOT_READY, 'NoExecute') && !hasTaint(node, UNREACHABLE, 'NoExecute')) return;
    await updateTaints(this.#client, node, (taints) => swapTaints(taints, [], [NOT_READY_TAINT, UNREACHABLE_TAINT])).catch((e) => this.#onError(e));
  }

  /**
   * Puts `taint` on the node in place of `opposite`; told (onTaint) when the write lands. Resolves
   * once the write returned: true when it did (or the node is gone), false when it failed.
   */
  async #swap(node: KObject, taint: Taint, opposite: Taint, now: number): Promise<boolean> {
    const name = node.metadata.name!;
    const added = { ...taint, timeAdded: timestamp(now) };
    this.#swapping.add(name);
    try {
      if (await updateTaints(this.#client, node, (taints) => swapTaints(taints, [added], [opposite]))) this.#onTaint?.(name, taint.key, this.#clock.now());
      return true;
    } catch (e) {
      this.#onError(e);
      return false;
    } finally {
      this.#swapping.delete(name);
    }
  }

  /**
   * Works the zones' queues while any holds a node: TAINTING_PASS_MS after the last pass ended
   * (wait.Until), and from idle on a grid from the controller's start.
   */
  #armTainting(): void {
    if (!this.#lifecycle.running || this.#taintingTimer !== undefined || this.#tainting) return;
    if (!this.#zones.queued) return;
    const now = this.#clock.now();
    const next = Math.max(this.#startMs + Math.ceil((now - this.#startMs) / TAINTING_PASS_MS) * TAINTING_PASS_MS, this.#lastPassEndMs + TAINTING_PASS_MS);
    this.#taintingTimer = this.#clock.setTimeout(() => {
      this.#taintingTimer = undefined;
      this.#tainting = true;
      this.#zones.taint((q) => this.#taintQueued(q)).catch((e) => this.#onError(e)).finally(() => {
        this.#tainting = false;
        this.#lastPassEndMs = this.#clock.now();
        this.#armTainting();
      });
    }, next - now);
  }

  /** The real tainting pass's action: the taint its Ready condition calls for, the write waited for (a failed one is tried again). */
  async #taintQueued(q: Queued): Promise<{ done: boolean }> {
    const node = this.#nodes.cache.get(undefined, q.name);
    if (!node) return { done: true };
    const status = readyOf(node)?.status;
    // Ready again meanwhile: nothing to taint.
    if (status !== 'False' && status !== 'Unknown') return { done: true };
    const [taint, opposite] = status === 'False' ? [NOT_READY_TAINT, UNREACHABLE_TAINT] : [UNREACHABLE_TAINT, NOT_READY_TAINT];
    return { done: await this.#swap(node, taint, opposite, this.#clock.now()) };
  }
}
