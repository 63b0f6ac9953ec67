// The node lifecycle controller, as the real one monitors node health and taints for eviction:
//
// - Every nodeMonitorPeriod it probes each node: a renewal of the node's Lease or a new heartbeat
//   in its Ready condition, seen on this controller's own clock, is a probe. A node not probed for
//   nodeMonitorGracePeriod (nodeStartupGracePeriod while it never reported Ready) gets its Ready,
//   MemoryPressure, DiskPressure and PIDPressure conditions set to Unknown.
// - The pass that turns a Ready node's condition Unknown marks its pods not Ready (their Ready
//   condition False, through pods/status; ContainersReady stays, as the real MarkPodsNotReady
//   leaves it), once: a node some of whose pods failed to be marked is tried again on later passes
//   while it is not Ready. A pod newly bound to, or first seen on, a node not Ready is marked too.
//   The node's agent sets them Ready again once it reaches the server (actors/nodeagent/).
// - On the pass after that (the decision reads the condition as it was observed, before this
//   pass's write) a node whose Ready is False or Unknown is queued in its zone's tainting queue;
//   the queue puts the NoExecute taint `not-ready` or `unreachable` on it at the zone's rate. A
//   node Ready again loses those taints and leaves the queue.
// - Each zone (region and zone labels) moves through Initial, Normal, PartialDisruption and
//   FullDisruption (machines/zone.ts) on every pass; its state sets its queue's rate: the eviction
//   rate when Normal, the secondary rate when partially disrupted (0 at or below the large-cluster
//   size), the eviction rate when fully disrupted. When every zone is fully disrupted the
//   controller assumes the problem is its own: it removes every NoExecute taint it set and stops;
//   when a zone comes back, every node gets a fresh grace period.
// Pods are evicted by the taint eviction controller once a taint lands (taint-eviction.ts).
import { createActor, type Actor } from 'xstate';
import type { Clock } from '../../api/env.ts';
import { timestamp } from '../../api/env.ts';
import { lookupResource } from '../../api/resources.ts';
import { StatusError } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { ApiClient } from '../../client/client.ts';
import type { Informer } from '../../client/informer.ts';
import type { SharedInformers } from '../../client/shared-informers.ts';
import type { RateLimiter } from '../../client/rate-limiter.ts';
import { NODE_LEASE_NAMESPACE } from '../../nodeagent/nodeagent.ts';
import { zoneMachine, zoneStateOf, type ZoneState } from '../../../machines/zone.ts';
import type { Bus } from '../../../transport/bus.ts';
import { hasTaint, NODES, NOT_READY, swapTaints, UNREACHABLE, updateTaints, type Taint } from '../node-taints.ts';
import type { ControllerManagerOptions } from '../options.ts';
import { TaintingQueue, type Queued } from '../tainting-queue.ts';

const LEASES = lookupResource('coordination.k8s.io', 'v1', 'leases')!;
const PODS = lookupResource('', 'v1', 'pods')!;

/** How often each zone's tainting queue is worked while it holds nodes (the real NodeEvictionPeriod). */
export const TAINTING_PASS_MS = 100;

const NOT_READY_TAINT: Taint = { key: NOT_READY, effect: 'NoExecute' };
const UNREACHABLE_TAINT: Taint = { key: UNREACHABLE, effect: 'NoExecute' };
/** The conditions a silent node's are set to Unknown, in this order. */
const PROBED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

interface Condition {
  type: string;
  status: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** What the controller last saw of a node, on its own clock. */
interface NodeHealth {
  ready: Condition | undefined;
  leaseRenewTime: string | undefined;
  probeMs: number;
  readyTransitionMs: number;
}

interface Zone {
  actor: Actor<typeof zoneMachine>;
  queue: TaintingQueue;
}

export interface NodeLifecycleInit {
  bus: Bus;
  clock: Clock;
  informers: SharedInformers;
  options: ControllerManagerOptions;
  limiter?: RateLimiter;
  onError?: (e: unknown) => void;
  /** Told each NoExecute taint this controller puts on a node. */
  onTaint?: (node: string, key: string, atMs: number) => void;
}

const conditionsOf = (node: KObject): Condition[] => ((node.status as { conditions?: Condition[] } | undefined)?.conditions ?? []);
const readyOf = (node: KObject): Condition | undefined => conditionsOf(node).find((c) => c.type === 'Ready');
const sameCondition = (a: Condition | undefined, b: Condition | undefined) =>
  a?.status === b?.status && a?.reason === b?.reason && a?.message === b?.message &&
  a?.lastHeartbeatTime === b?.lastHeartbeatTime && a?.lastTransitionTime === b?.lastTransitionTime;

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
  readonly #client: ApiClient;
  readonly #informers: SharedInformers;
  readonly #nodes: Informer;
  readonly #leases: Informer;
  readonly #pods: Informer;
  readonly #onError: (e: unknown) => void;
  readonly #onTaint: NodeLifecycleInit['onTaint'];
  readonly #health = new Map<string, NodeHealth>();
  readonly #known = new Map<string, string>();
  readonly #zones = new Map<string, Zone>();
  /** Nodes some of whose pods could not be marked not Ready: tried again while the node is not Ready. */
  readonly #markRetries = new Set<string>();
  /**
   * Nodes whose taint write is on its way (it may wait behind other writes for the client's rate
   * limit): not queued again meanwhile, as the real tainting queue keeps a node until its swap returns.
   */
  readonly #swapping = new Set<string>();
  #startMs = 0;
  #lastPassMs = -Infinity;
  #monitorTimer: unknown;
  #taintingTimer: unknown;
  #stopped = false;

  constructor(init: NodeLifecycleInit) {
    this.#o = init.options;
    this.#clock = init.clock;
    this.#client = new ApiClient(init.bus, 'node-lifecycle-controller', undefined, init.limiter, { clock: init.clock });
    this.#informers = init.informers;
    this.#nodes = init.informers.get(NODES);
    this.#leases = init.informers.get(LEASES, NODE_LEASE_NAMESPACE);
    this.#pods = init.informers.get(PODS);
    this.#pods.on({ add: (p) => this.#podBound(undefined, p), update: (old, p) => this.#podBound(old, p) });
    this.#onError = init.onError ?? ((e) => console.error('node-lifecycle-controller:', e));
    this.#onTaint = init.onTaint;
  }

  async start(): Promise<void> {
    await this.#informers.start();
    this.#startMs = this.#clock.now();
    this.#monitor();
  }

  stop(): void {
    this.#stopped = true;
    this.#clock.clearTimeout(this.#monitorTimer);
    this.#clock.clearTimeout(this.#taintingTimer);
    for (const z of this.#zones.values()) z.actor.stop();
  }

  /** Every zone's state, by zone key (`region:zone`). */
  zoneStates(): Map<string, ZoneState> {
    return new Map([...this.#zones].map(([k, z]) => [k, z.actor.getSnapshot().value as ZoneState]));
  }

  get informers(): Informer[] {
    return [this.#nodes, this.#leases, this.#pods];
  }

  // ---- Monitoring ---------------------------------------------------------------------------------

  #monitor(): void {
    if (this.#stopped) return;
    try {
      this.#monitorNodeHealth();
    } catch (e) {
      this.#onError(e);
    }
    this.#monitorTimer = this.#clock.setTimeout(() => this.#monitor(), this.#o.nodeMonitorPeriodMs);
  }

  #monitorNodeHealth(): void {
    const now = this.#clock.now();
    const nodes = this.#nodes.cache.list().sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    const present = new Set(nodes.map((n) => n.metadata.name!));
    for (const node of nodes) {
      const name = node.metadata.name!;
      if (this.#known.has(name)) continue;
      const zone = zoneOf(node);
      this.#known.set(name, zone);
      this.#zone(zone, now);
      this.#markReachable(node);
    }
    for (const name of [...this.#known.keys()]) {
      if (present.has(name)) continue;
      this.#zones.get(this.#known.get(name)!)?.queue.remove(name);
      this.#known.delete(name);
      this.#health.delete(name);
    }
    const readyByZone = new Map<string, string[]>();
    for (const node of nodes) {
      const { observed, current } = this.#updateHealth(node, now);
      if (!current) continue;
      const zone = zoneOf(node);
      const list = readyByZone.get(zone) ?? [];
      list.push(current.status);
      readyByZone.set(zone, list);
      this.#decideTaint(node, observed, now);
      const name = node.metadata.name!;
      // The real monitorNodeHealth: once when this pass took the node's Ready away, again while a retry is owed.
      if ((current.status !== 'True' && observed.status === 'True') || (this.#markRetries.has(name) && observed.status !== 'True')) this.#markPodsNotReady(name, this.#pods.cache.onNode(name), now);
      else this.#markRetries.delete(name);
    }
    this.#handleDisruption(readyByZone, nodes, now);
    this.#armTainting();
  }

  /** The real tryUpdateNodeHealth: the Ready condition as observed, and as it is after this pass. */
  #updateHealth(node: KObject, now: number): { observed: Condition; current: Condition | undefined } {
    const name = node.metadata.name!;
    let current = readyOf(node);
    let health = this.#health.get(name);
    let observed: Condition;
    let graceMs: number;
    if (!current) {
      const created = Date.parse(node.metadata.creationTimestamp ?? '') || now;
      const at = node.metadata.creationTimestamp ?? undefined;
      observed = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: at, lastTransitionTime: at };
      graceMs = this.#o.nodeStartupGracePeriodMs;
      health = health ? { ...health, ready: undefined } : { ready: undefined, leaseRenewTime: undefined, probeMs: created, readyTransitionMs: created };
    } else {
      observed = current;
      graceMs = this.#o.nodeMonitorGracePeriodMs;
      const saved = health?.ready;
      if (!health || !saved) health = { ready: current, leaseRenewTime: health?.leaseRenewTime, probeMs: now, readyTransitionMs: now };
      else if (saved.lastHeartbeatTime !== current.lastHeartbeatTime) {
        const transitionMs = saved.lastTransitionTime !== current.lastTransitionTime ? now : health.readyTransitionMs;
        health = { ready: current, leaseRenewTime: health.leaseRenewTime, probeMs: now, readyTransitionMs: transitionMs };
      }
    }
    const renewTime = (this.#leases.cache.get(NODE_LEASE_NAMESPACE, name)?.spec as { renewTime?: string } | undefined)?.renewTime;
    // The same time as last pass (a lease renews every 10 s, the pass runs every 5 s) is no renewal: compared before parsing.
    if (renewTime && renewTime !== health.leaseRenewTime && (!health.leaseRenewTime || Date.parse(health.leaseRenewTime) < Date.parse(renewTime)))
      health = { ...health, leaseRenewTime: renewTime, probeMs: now };
    this.#health.set(name, health);
    if (now > health.probeMs + graceMs) {
      const conditions = this.#unknownConditions(node, now);
      const ready = conditions.find((c) => c.type === 'Ready');
      if (!sameCondition(ready, observed)) {
        this.#writeConditions(node, conditions);
        this.#health.set(name, { ...health, ready, readyTransitionMs: now });
        current = ready;
      }
    }
    return { observed, current };
  }

  /** The node's conditions with the probed ones Unknown (added when missing), as a silent node's. */
  #unknownConditions(node: KObject, now: number): Condition[] {
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

  #writeConditions(node: KObject, conditions: Condition[]): void {
    const patch = { metadata: { resourceVersion: node.metadata.resourceVersion }, status: { conditions } };
    this.#client.patch(NODES, undefined, node.metadata.name!, patch, 'merge', 'status').catch((e) => {
      // A node that changed meanwhile is probed again on the next pass.
      if (!(e instanceof StatusError && (e.code === 409 || e.code === 404))) this.#onError(e);
    });
  }

  // ---- Pods ---------------------------------------------------------------------------------------

  /** The real processPod: a pod bound (or first seen) on a node whose Ready, as last monitored, is not True. */
  #podBound(old: KObject | undefined, pod: KObject): void {
    const node = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
    if (!node || (old && (old.spec as { nodeName?: string } | undefined)?.nodeName === node)) return;
    const ready = this.#health.get(node)?.ready;
    if (ready && ready.status !== 'True') this.#markPodsNotReady(node, [pod], this.#clock.now());
  }

  /**
   * The real MarkPodsNotReady: each pod's Ready condition, where it has one and it is not False
   * already, set False (its transition time now), with the pod's resourceVersion as precondition.
   * A failure other than the pod being gone owes the node a retry on the next pass.
   */
  #markPodsNotReady(nodeName: string, pods: KObject[], now: number): void {
    const writes: Promise<boolean>[] = [];
    for (const pod of pods) {
      const conditions = (pod.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
      const ready = conditions.find((c) => c.type === 'Ready');
      if (!ready || ready.status === 'False' || (pod.spec as { nodeName?: string } | undefined)?.nodeName !== nodeName) continue;
      const marked = conditions.map((c) => (c === ready ? { ...c, status: 'False', lastTransitionTime: timestamp(now) } : c));
      const patch = { metadata: { resourceVersion: pod.metadata.resourceVersion }, status: { conditions: marked } };
      writes.push(this.#client.patch(PODS, pod.metadata.namespace, pod.metadata.name!, patch, 'merge', 'status').then(() => true, (e) => {
        if (e instanceof StatusError && e.code === 404) return true;
        if (!(e instanceof StatusError && e.code === 409)) this.#onError(e);
        return false;
      }));
    }
    if (writes.length === 0) return void this.#markRetries.delete(nodeName);
    void Promise.all(writes).then((done) => {
      if (done.every(Boolean)) this.#markRetries.delete(nodeName);
      else this.#markRetries.add(nodeName);
    });
  }

  // ---- Tainting -----------------------------------------------------------------------------------

  /** The real processTaintBaseEviction, on the Ready condition as observed. */
  #decideTaint(node: KObject, observed: Condition, now: number): void {
    if (observed.status === 'True') return this.#markReachable(node);
    if (this.#swapping.has(node.metadata.name!)) return;
    const [taint, opposite] = observed.status === 'False' ? [NOT_READY_TAINT, UNREACHABLE_TAINT] : [UNREACHABLE_TAINT, NOT_READY_TAINT];
    // A node tainted for the other reason is switched at once: it was already found unhealthy.
    if (hasTaint(node, opposite.key, 'NoExecute')) return this.#swap(node, taint, opposite, now);
    const queue = this.#zones.get(zoneOf(node))?.queue;
    if (!queue) return;
    // Not tainted yet: queued again from now (a node tainted already stays out of the queue).
    if (!hasTaint(node, taint.key, 'NoExecute')) queue.remove(node.metadata.name!);
    queue.add(node.metadata.name!, node.metadata.uid ?? '', now);
  }

  /** The real markNodeAsReachable: no NoExecute taint of ours, out of the tainting queue. */
  #markReachable(node: KObject): void {
    this.#zones.get(zoneOf(node))?.queue.remove(node.metadata.name!);
    if (!hasTaint(node, NOT_READY, 'NoExecute') && !hasTaint(node, UNREACHABLE, 'NoExecute')) return;
    updateTaints(this.#client, node, (taints) => swapTaints(taints, [], [NOT_READY_TAINT, UNREACHABLE_TAINT])).catch((e) => this.#onError(e));
  }

  /** Puts `taint` on the node in place of `opposite`; told (onTaint) when the write lands. */
  #swap(node: KObject, taint: Taint, opposite: Taint, now: number): void {
    const name = node.metadata.name!;
    const added = { ...taint, timeAdded: timestamp(now) };
    this.#swapping.add(name);
    updateTaints(this.#client, node, (taints) => swapTaints(taints, [added], [opposite]))
      .then((present) => { if (present) this.#onTaint?.(name, taint.key, this.#clock.now()); }, (e) => this.#onError(e))
      .finally(() => this.#swapping.delete(name));
  }

  /** Works the zones' queues every TAINTING_PASS_MS, on a grid from the controller's start, while any holds a node. */
  #armTainting(): void {
    if (this.#stopped || this.#taintingTimer !== undefined) return;
    if (![...this.#zones.values()].some((z) => z.queue.size > 0)) return;
    const now = this.#clock.now();
    let next = this.#startMs + Math.ceil((now - this.#startMs) / TAINTING_PASS_MS) * TAINTING_PASS_MS;
    if (next <= this.#lastPassMs) next = this.#lastPassMs + TAINTING_PASS_MS;
    this.#taintingTimer = this.#clock.setTimeout(() => {
      this.#taintingTimer = undefined;
      this.#lastPassMs = this.#clock.now();
      this.#taintingPass();
      this.#armTainting();
    }, next - now);
  }

  #taintingPass(): void {
    const now = this.#clock.now();
    for (const key of [...this.#zones.keys()].sort()) this.#zones.get(key)!.queue.try(now, (q) => this.#taintQueued(q, now));
  }

  #taintQueued(q: Queued, now: number): { done: boolean } {
    const node = this.#nodes.cache.get(undefined, q.name);
    if (!node) return { done: true };
    const status = readyOf(node)?.status;
    // Ready again meanwhile: nothing to taint.
    if (status !== 'False' && status !== 'Unknown') return { done: true };
    const [taint, opposite] = status === 'False' ? [NOT_READY_TAINT, UNREACHABLE_TAINT] : [UNREACHABLE_TAINT, NOT_READY_TAINT];
    this.#swap(node, taint, opposite, now);
    return { done: true };
  }

  // ---- Zones --------------------------------------------------------------------------------------

  #zone(key: string, now: number): Zone {
    let zone = this.#zones.get(key);
    if (!zone) {
      const actor = createActor(zoneMachine, { clock: this.#clock, input: { unhealthyZoneThreshold: this.#o.unhealthyZoneThreshold } }).start();
      zone = { actor, queue: new TaintingQueue(this.#o.nodeEvictionRate, now) };
      this.#zones.set(key, zone);
    }
    return zone;
  }

  #stateOf(zone: Zone): ZoneState {
    return zone.actor.getSnapshot().value as ZoneState;
  }

  /** The real handleDisruption: zone states, their queues' rates, and the all-zones-down stop. */
  #handleDisruption(readyByZone: Map<string, string[]>, nodes: KObject[], now: number): void {
    const counts = new Map([...readyByZone].map(([zone, statuses]) => {
      const ready = statuses.filter((s) => s === 'True').length;
      return [zone, { ready, notReady: statuses.length - ready }] as const;
    }));
    const next = new Map([...counts].map(([zone, c]) => [zone, zoneStateOf(c.ready, c.notReady, this.#o.unhealthyZoneThreshold)] as const));
    const allAreDown = next.size > 0 && [...next.values()].every((s) => s === 'FullDisruption');
    const allWereDown = this.#zones.size > 0 && [...this.#zones.values()].every((z) => this.#stateOf(z) === 'FullDisruption');
    if (allAreDown && allWereDown) return;
    const observe = (zone: string) => this.#zones.get(zone)!.actor.send({ type: 'OBSERVE', ...counts.get(zone)! });
    if (allAreDown) {
      // Every zone down at once: more likely the controller's own view is cut off. No evictions.
      for (const node of nodes) this.#markReachable(node);
      for (const zone of this.#zones.values()) zone.queue.swapLimiter(0, now);
      for (const zone of counts.keys()) observe(zone);
      return;
    }
    if (allWereDown) {
      // Back from a total outage: every node gets a fresh grace period, every zone its rate.
      for (const [name, h] of this.#health) this.#health.set(name, { ...h, probeMs: now, readyTransitionMs: now });
      for (const zone of counts.keys()) {
        observe(zone);
        this.#setRate(zone, now);
      }
      return;
    }
    for (const [zone, state] of next) {
      if (this.#stateOf(this.#zones.get(zone)!) === state) continue;
      observe(zone);
      this.#setRate(zone, now);
    }
  }

  /** The real setLimiterInZone. */
  #setRate(key: string, now: number): void {
    const zone = this.#zones.get(key)!;
    const size = [...this.#known.values()].filter((z) => z === key).length;
    const state = this.#stateOf(zone);
    const qps = state === 'PartialDisruption' ? (size <= this.#o.largeClusterSizeThreshold ? 0 : this.#o.secondaryNodeEvictionRate)
      : state === 'Normal' || state === 'FullDisruption' ? this.#o.nodeEvictionRate : zone.queue.qps;
    zone.queue.swapLimiter(qps, now);
  }
}
