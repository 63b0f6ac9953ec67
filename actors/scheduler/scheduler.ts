// The scheduler actor: informers for nodes and pods feed its cache and its queue; a loop pops the
// next pod, runs one cycle (cycle.ts), assumes the pod on the chosen node at once, and binds it
// through `pods/binding` in the background, through the client's QPS limit, as the real scheduler
// does. A pod that fits nowhere gets its PodScheduled condition set to the real FitError text and
// may preempt lower-priority pods (preemption.ts). Several schedulers can share a cluster: each
// takes only the pods whose `spec.schedulerName` names it. Time is the injected clock's; ties and
// preemption offsets draw from the injected stream. Its metrics (metrics.ts) and its clients'
// requests (rest_client_*) go to its registry.
import { timestamp, type Clock, type Random } from '../api/env.ts';
import { newRegistry, type Registry } from '../api/metrics.ts';
import { isConflict, isNotFound } from '../api/status.ts';
import { WatchHub } from '../apiserver/watch/hub.ts';
import { cacheKey } from '../client/cache.ts';
import { ApiClient } from '../client/client.ts';
import { Informer } from '../client/informer.ts';
import { RateLimiter } from '../client/rate-limiter.ts';
import { NO_EVENTS, referenceTo, SeriesEventRecorder, truncateMessage, type EventRecorder } from '../client/events/index.ts';
import { meteredBus } from '../client/request-metrics.ts';
import type { Bus } from '../../transport/bus.ts';
import { fromPromise, type Actor } from 'xstate';
import { podMachine } from '../../machines/pod.ts';
import { schedulerMachine } from '../../machines/scheduler.ts';
import { ActorSystem } from '../system/actor-system.ts';
import { stateName } from '../system/records.ts';
import { SchedulerCache } from './cache.ts';
import { fitErrorMessage, runCycle, type CycleResult, type ScoredNode } from './cycle.ts';
import type { FilterPlugin, PodInfo, ScorePlugin } from './framework.ts';
import { numFeasibleNodesToFind, schedulerOptions, type SchedulerOptions } from './options.ts';
import { podInfo } from './pod-info.ts';
import { defaultFilterPlugins, defaultScorePlugins } from './plugins/index.ts';
import { SchedulerMetrics } from './metrics.ts';
import { Nominator } from './nominator.ts';
import { findPreemption, PREEMPTED } from './preemption.ts';
import { SchedulingQueue, type QueuedPod } from './queue.ts';
import { actorIds } from '../system/ids.ts';
import { startRunning } from '../system/when-state.ts';
import { NODES, type Node, PODS, type Pod, type PodStatus } from '../api/model/core.ts';

/** What the scheduler watches, all namespaces: the watch subjects its NATS user may subscribe to follow from this. */
export const SCHEDULER_WATCHES = [NODES, PODS] as const;

/** Pods scheduled per timer step before the loop lets other work run. */
const BATCH = 64;
const FLUSH_PERIOD_MS = 1_000;

/** Why a pod went where it did, or why it went nowhere: one scheduling attempt. */
export interface Decision {
  pod: string;
  attempt: number;
  atMs: number;
  result: 'scheduled' | 'unschedulable';
  node?: string;
  nodes: number;
  evaluated: number;
  feasible: number;
  /** Per filter plugin, per reason, the nodes it ruled out. */
  filtered: Record<string, Record<string, number>>;
  /** The best-scored nodes, the chosen one first (when more than one was feasible). */
  scores: ScoredNode[];
  /** The FitError text (unschedulable), with the preemption outcome. */
  message?: string;
  preemption?: { node: string; victims: string[] };
}

export interface SchedulerInit {
  bus: Bus;
  clock: Clock;
  random: Random;
  options?: Partial<SchedulerOptions>;
  filters?: FilterPlugin[];
  scores?: ScorePlugin[];
  /** Told of every attempt's decision (metrics, reports). */
  onDecision?: (d: Decision) => void;
  /** Told of a binding that reached the server. */
  onBound?: (pod: string, node: string) => void;
  onError?: (error: unknown) => void;
  /** Where its metrics go (a new registry when absent); a replica's terms share the replica's. */
  registry?: Registry;
  /** The process's actor system: the scheduler's machine is hosted there as `scheduler/<schedulerName>`. */
  system?: ActorSystem;
  /** Whether it records events, as the real scheduler does (default); false: none. */
  events?: boolean;
  /** The replica's identity: its events' reporting instance is `<schedulerName>-<identity>` (the real one's host name). */
  identity?: string;
}

export class Scheduler {
  readonly options: SchedulerOptions;
  readonly cache = new SchedulerCache();
  /** Pending pods nominated to nodes by a preemption: the room kept for them there. */
  readonly nominator = new Nominator();
  readonly queue: SchedulingQueue;
  readonly counts = { attempts: 0, scheduled: 0, unschedulable: 0, preemptions: 0, bindFailures: 0 };
  /** The registry its /metrics shows. */
  readonly metrics: Registry;
  readonly #metrics: SchedulerMetrics;
  readonly #clock: Clock;
  readonly #tieBreaks: Random;
  readonly #preemptionOffsets: Random;
  readonly #client: ApiClient;
  readonly #events: EventRecorder;
  readonly #nodes: Informer<Node>;
  readonly #pods: Informer<Pod>;
  readonly #filters: FilterPlugin[];
  readonly #scores: ScorePlugin[];
  readonly #decisions = new Map<string, Decision>();
  /** The newest `explanationsKept` decisions, oldest at `#nextDecision` (a ring: a Map's oldest key is slow to find after many deletes). */
  readonly #kept: (Decision | undefined)[] = [];
  #nextDecision = 0;
  readonly #init: SchedulerInit;
  readonly #lifecycle: Actor<typeof schedulerMachine>;
  readonly #system: ActorSystem;
  #nextStart = 0;

  constructor(init: SchedulerInit) {
    this.#init = init;
    this.options = schedulerOptions(init.options);
    const o = this.options;
    this.#clock = init.clock;
    this.#tieBreaks = init.random.fork('ties');
    this.#preemptionOffsets = init.random.fork('preemption');
    this.queue = new SchedulingQueue({
      initialBackoffMs: o.podInitialBackoffSeconds * 1000, maxBackoffMs: o.podMaxBackoffSeconds * 1000, maxInUnschedulableMs: o.podMaxInUnschedulablePodsDurationMs,
    });
    this.metrics = init.registry ?? newRegistry();
    this.#metrics = new SchedulerMetrics(this.metrics, o.schedulerName, () => this.queue.counts());
    const bus = meteredBus(init.bus, init.clock, this.metrics);
    this.#client = new ApiClient(bus, o.schedulerName, 30_000, new RateLimiter(init.clock, o.orchApiQps, o.orchApiBurst));
    // Events go through a client of their own with the same limits, as the real scheduler's event client.
    this.#events = init.events === false ? NO_EVENTS : new SeriesEventRecorder({
      client: new ApiClient(bus, o.schedulerName, 30_000, new RateLimiter(init.clock, o.orchApiQps, o.orchApiBurst)), clock: init.clock,
      random: init.random.fork('events'), reportingController: o.schedulerName, reportingInstance: `${o.schedulerName}-${init.identity ?? o.schedulerName}`,
    });
    // Informers read through their own unlimited client: list and watch are not what the QPS limit paces here.
    const reader = new ApiClient(bus, o.schedulerName, undefined, undefined, { clock: init.clock });
    const hub = new WatchHub(bus);
    this.#nodes = new Informer({ client: reader, hub, clock: init.clock, type: NODES, indexed: false });
    this.#pods = new Informer({ client: reader, hub, clock: init.clock, type: PODS, indexed: false });
    this.#filters = init.filters ?? defaultFilterPlugins();
    this.#scores = init.scores ?? defaultScorePlugins();
    this.#nodes.on({ add: (n) => this.#nodeChanged(undefined, n), update: (old, n) => this.#nodeChanged(old, n), delete: (n) => this.#nodeDeleted(n) });
    this.#pods.on({ add: (p) => this.#podChanged(undefined, p), update: (old, p) => this.#podChanged(old, p), delete: (p) => this.#podDeleted(p) });
    const machine = schedulerMachine.provide({
      actors: {
        syncCaches: fromPromise(async () => {
          await this.#nodes.start();
          await this.#pods.start();
        }),
      },
      actions: {
        schedule: ({ self }) => self.send({ type: 'BATCHED', more: this.#scheduleBatch() }),
        flush: () => {
          this.queue.flush(this.#clock.now());
          this.#kick();
        },
        halt: () => {
          this.#nodes.stop();
          this.#pods.stop();
          this.#events.stop();
          this.#metrics.close();
        },
      },
    });
    this.#system = init.system ?? new ActorSystem(init.clock);
    this.#lifecycle = this.#system.host(machine, { id: actorIds.scheduler(o.schedulerName), input: { flushPeriodMs: FLUSH_PERIOD_MS } });
  }

  /** Lists and watches nodes and pods, then runs its loop; rejects if it could not start. */
  start(): Promise<void> {
    return startRunning(this.#lifecycle);
  }

  stop(): void {
    this.#lifecycle.send({ type: 'STOP' });
  }

  /** The scheduler's machine (an inspector subscribes to it). */
  get lifecycle(): Actor<typeof schedulerMachine> {
    return this.#lifecycle;
  }

  /** The machine's state: `Starting`, `Running.Idle`, `Running.Busy` (a batch due), `Stopped`. */
  get state(): string {
    return stateName(this.#lifecycle.getSnapshot().value);
  }

  get #running(): boolean {
    return this.#lifecycle.getSnapshot().status === 'active';
  }

  /** The node and pod informers (the checkers compare their caches with the store). */
  get informers(): Informer[] {
    return [this.#nodes, this.#pods];
  }

  /** The last decision about a pod (`namespace/name`), while it is among the newest `explanationsKept` decisions. */
  explain(key: string): Decision | undefined {
    return this.#decisions.get(key);
  }

  // ---- Informer events ---------------------------------------------------------------------------

  #nodeChanged(old: Node | undefined, node: Node): void {
    if (old && !schedulingRelevantChange(old, node)) return;
    this.cache.setNode(node);
    this.queue.moveAllToActiveOrBackoff(this.#clock.now());
    this.#kick();
  }

  #nodeDeleted(node: Node): void {
    this.cache.removeNode(node.metadata.name!);
  }

  #podChanged(old: Pod | undefined, pod: Pod): void {
    const key = cacheKey(pod);
    const spec = pod.spec!;
    const nodeName = spec.nodeName;
    if (nodeName) {
      this.queue.delete(key);
      this.nominator.remove(key);
      // Just bound: its record is its node agent's from here (taken over, or ended if none is in this process).
      if (!old || !old.spec!.nodeName) this.#system.handOver(actorIds.pod(pod.metadata.namespace!, pod.metadata.name!));
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') {
        if (this.cache.unplace(key)) this.#podFreedResources();
        return;
      }
      const placed = this.cache.placement(key);
      // Requests of a bound pod never change; labels may (affinity reads them). A pod bound where
      // it was assumed keeps its info, now confirmed.
      if (!placed || placed.node !== nodeName || placed.info.uid !== pod.metadata.uid || labelsChanged(placed.info.pod, pod)) this.cache.place(podInfo(pod), nodeName, false);
      else {
        placed.info.pod = pod;
        placed.assumed = false;
      }
      return;
    }
    if (spec.schedulerName !== this.options.schedulerName && !(spec.schedulerName === undefined && this.options.schedulerName === 'default-scheduler')) return;
    if (pod.metadata.deletionTimestamp) return;
    this.#nominated(old, pod);
    // Status-only updates (our own condition writes among them) do not requeue a parked pod.
    if (old && this.queue.has(key) && !specOrLabelsChanged(old, pod)) return;
    if (this.cache.placement(key)?.assumed) return; // assumed and binding: the informer has not caught up
    // A pod waiting for this scheduler is a pod actor in Pending (machines/pod.ts); its node agent's machine takes the record over.
    const id = actorIds.pod(pod.metadata.namespace!, pod.metadata.name!);
    if (!this.#system.get(id)) this.#system.track(id, podMachine.id, 'Pending');
    this.queue.add(key, spec.priority ?? 0, this.#clock.now());
    this.#kick();
  }

  /**
   * The real nominator's update: a pod whose status names a node is nominated there, one whose
   * status dropped it is not any more; one that never had it in its status keeps the nomination
   * this scheduler gave it (its status may not have caught up).
   */
  #nominated(old: Pod | undefined, pod: Pod): void {
    const was = old?.status?.nominatedNodeName;
    const now = pod.status?.nominatedNodeName;
    if (now) {
      if (this.nominator.nodeOf(cacheKey(pod)) !== now) this.nominator.nominate(podInfo(pod), now);
    } else if (was) this.nominator.remove(cacheKey(pod));
  }

  #podDeleted(pod: Pod): void {
    const key = cacheKey(pod);
    this.queue.delete(key);
    this.nominator.remove(key);
    this.#system.release(actorIds.pod(pod.metadata.namespace!, pod.metadata.name!));
    if (this.cache.unplace(key)) this.#podFreedResources();
  }

  /** An assigned pod left: unschedulable pods may fit now. */
  #podFreedResources(): void {
    this.queue.moveAllToActiveOrBackoff(this.#clock.now());
    this.#kick();
  }

  // ---- The loop ----------------------------------------------------------------------------------

  /** Something to schedule may be queued: the machine runs a batch soon. (A batch due already takes it: no event needed.) */
  #kick(): void {
    const s = this.#lifecycle.getSnapshot();
    if (s.status === 'active' && s.matches({ Running: 'Idle' })) this.#lifecycle.send({ type: 'WORK' });
  }

  /** Schedules up to BATCH pods; true when it stopped at BATCH (more may be queued), false when the queue ran dry. */
  #scheduleBatch(): boolean {
    for (let i = 0; i < BATCH; i++) {
      const next = this.queue.pop();
      if (!next) return false;
      this.#scheduleOne(next);
    }
    return true;
  }

  #scheduleOne(queued: QueuedPod): void {
    const { key, attempts: attempt } = queued;
    const pod = this.#pods.cache.byKey(key);
    if (!pod || pod.spec!.nodeName || pod.metadata.deletionTimestamp) {
      this.queue.done(key);
      return;
    }
    this.counts.attempts++;
    const startMs = this.#clock.now();
    const info = podInfo(pod);
    const snapshot = this.cache.snapshot();
    const nominated = pod.status?.nominatedNodeName;
    const r = runCycle({
      pod: info, snapshot, filters: this.#filters, scores: this.#scores, start: this.#nextStart,
      numToFind: numFeasibleNodesToFind(this.options.percentageOfNodesToScore, snapshot.nodes.length), random: this.#tieBreaks,
      nominator: this.nominator, ...(nominated ? { nominated } : {}),
    });
    this.#nextStart = r.nextStart;
    const now = this.#clock.now();
    const decision: Decision = {
      pod: key, attempt, atMs: now, result: r.node ? 'scheduled' : 'unschedulable', nodes: snapshot.nodes.length,
      evaluated: r.evaluated, feasible: r.feasible, filtered: r.filtered, scores: r.top, ...(r.node ? { node: r.node.name } : {}),
    };
    if (r.node) {
      this.counts.scheduled++;
      this.nominator.remove(key);
      this.cache.place(info, r.node.name, true);
      this.queue.done(key);
      this.#record(decision);
      void this.#bind(pod, info, r.node.name, { startMs, attempts: attempt, queuedMs: queued.initialMs });
      return;
    }
    this.counts.unschedulable++;
    this.#failed(pod, info, r, decision, startMs);
  }

  #failed(pod: Pod, info: PodInfo, r: CycleResult, decision: Decision, startMs: number): void {
    const snapshot = this.cache.snapshot();
    let message = fitErrorMessage(r, snapshot.nodes.length);
    let nominate: string | undefined;
    if (snapshot.nodes.length > 0) {
      const p = findPreemption(info, r, snapshot, this.#filters, this.#preemptionOffsets, this.nominator);
      this.#metrics.preemption(p.ok ? p.preemption.victims.length : undefined);
      if (p.ok) {
        this.counts.preemptions++;
        nominate = p.preemption.node;
        decision.preemption = { node: nominate, victims: p.preemption.victims.map((v) => v.key) };
        // Room is kept for it at once, before its status says so; lower-priority pods nominated there lose theirs.
        this.nominator.nominate(info, nominate);
        for (const v of p.preemption.victims) void this.#evict(v, pod, nominate);
        for (const u of p.preemption.unnominated) void this.#unnominate(u);
      } else message += ` ${p.message}`;
    }
    decision.message = message;
    this.#record(decision);
    this.#metrics.attempt('unschedulable', startMs, this.#clock.now());
    this.queue.failed(info.key, this.#clock.now(), true);
    this.#events.event(referenceTo(PODS, pod), 'Warning', 'FailedScheduling', truncateMessage(message), { action: 'Scheduling' });
    void this.#markUnschedulable(pod, message, nominate);
  }

  #record(d: Decision): void {
    this.#init.onDecision?.(d);
    if (this.options.explanationsKept === 0) return;
    const oldest = this.#kept[this.#nextDecision];
    if (oldest && this.#decisions.get(oldest.pod) === oldest) this.#decisions.delete(oldest.pod);
    this.#kept[this.#nextDecision] = d;
    this.#nextDecision = (this.#nextDecision + 1) % this.options.explanationsKept;
    this.#decisions.set(d.pod, d);
  }

  // ---- Writes ------------------------------------------------------------------------------------

  /** Binds the pod; `attempt` is the attempt that chose the node (its start, its number, when the pod was first queued). */
  async #bind(pod: Pod, info: PodInfo, node: string, attempt: { startMs: number; attempts: number; queuedMs: number }): Promise<void> {
    const { namespace, name, uid } = pod.metadata;
    const url = `/api/v1/namespaces/${encodeURIComponent(namespace!)}/pods/${encodeURIComponent(name!)}/binding`;
    try {
      await this.#client.request('POST', url, { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace, uid }, target: { kind: 'Node', name: node } });
      const now = this.#clock.now();
      this.#metrics.attempt('scheduled', attempt.startMs, now);
      this.#metrics.podScheduled(attempt.attempts, now - attempt.queuedMs);
      this.#events.event(referenceTo(PODS, pod), 'Normal', 'Scheduled', `Successfully assigned ${namespace}/${name} to ${node}`, { action: 'Binding' });
      this.#init.onBound?.(info.key, node);
    } catch (e) {
      this.counts.bindFailures++;
      this.#events.event(referenceTo(PODS, pod), 'Warning', 'FailedScheduling', truncateMessage(`running Bind plugin "DefaultBinder": ${(e as Error).message}`),
        { action: 'Scheduling' });
      this.#metrics.attempt('error', attempt.startMs, this.#clock.now());
      // Forget the assumption; a pod that still exists unbound is tried again after a backoff.
      const placed = this.cache.placement(info.key);
      if (placed?.assumed) this.cache.unplace(info.key);
      if (isNotFound(e) || isConflict(e)) {
        const current = this.#pods.cache.get(namespace, name!);
        if (!current || current.spec!.nodeName) return;
      } else this.#report(e);
      if (!this.#running) return;
      this.queue.retry(info.key, info.priority, this.#clock.now());
    }
  }

  async #markUnschedulable(pod: Pod, message: string, nominate: string | undefined): Promise<void> {
    const status: PodStatus = pod.status ?? {};
    const current = (status.conditions ?? []).find((c) => c.type === 'PodScheduled');
    if (current?.status === 'False' && current.message === message && (nominate === undefined || status.nominatedNodeName === nominate)) return;
    const condition = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastProbeTime: null,
      lastTransitionTime: current?.status === 'False' ? current.lastTransitionTime : timestamp(this.#clock.now()) };
    const patch = { status: { conditions: [condition], ...(nominate ? { nominatedNodeName: nominate } : {}) } };
    try {
      await this.#client.patch(PODS, pod.metadata.namespace, pod.metadata.name!, patch, 'strategic', 'status');
    } catch (e) {
      if (!(isNotFound(e) || isConflict(e))) this.#report(e);
    }
  }

  /**
   * Marks a preemption victim (its DisruptionTarget condition: what tells a preemptor waiting on
   * it that it goes) and deletes it with its own grace period, as the real scheduler does; then
   * records that it was preempted, by whom and where.
   */
  async #evict(victim: PodInfo, preemptor: Pod, node: string): Promise<void> {
    const { namespace, name, uid } = victim.pod.metadata;
    const condition = { ...PREEMPTED, status: 'True', message: `${this.options.schedulerName}: preempting to accommodate a higher priority pod`,
      lastTransitionTime: timestamp(this.#clock.now()) };
    try {
      await this.#client.patch(PODS, namespace, name!, { status: { conditions: [condition] } }, 'strategic', 'status');
      await this.#client.delete(PODS, namespace, name!, { preconditions: { uid } });
      this.#events.event(referenceTo(PODS, victim.pod), 'Normal', 'Preempted', `Preempted by pod ${preemptor.metadata.uid} on node ${node}`,
        { related: referenceTo(PODS, preemptor), action: 'Preempting' });
    } catch (e) {
      if (!(isNotFound(e) || isConflict(e))) this.#report(new Error(`preempting ${victim.key} for ${cacheKey(preemptor)}: ${(e as Error).message}`));
    }
  }

  /** Clears a pod's nomination: a preemption for a more important pod took its node. */
  async #unnominate(pod: PodInfo): Promise<void> {
    this.nominator.remove(pod.key);
    try {
      await this.#client.patch(PODS, pod.namespace, pod.name, { status: { nominatedNodeName: null } }, 'strategic', 'status');
    } catch (e) {
      if (!(isNotFound(e) || isConflict(e))) this.#report(e);
    }
  }

  #report(e: unknown): void {
    (this.#init.onError ?? ((x) => console.error(`scheduler ${this.options.schedulerName}:`, x)))(e);
  }
}

const labelsChanged = (old: Pod | undefined, pod: Pod) =>
  !old || (old.metadata.labels !== pod.metadata.labels && JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {}));

const specOrLabelsChanged = (old: Pod, pod: Pod) => labelsChanged(old, pod) || JSON.stringify(old.spec) !== JSON.stringify(pod.spec);

/** What the filters read of a node: a change elsewhere (heartbeats, images) does not move parked pods. */
export function schedulingRelevantChange(old: Node, node: Node): boolean {
  const view = (n: Node) => JSON.stringify([n.metadata.labels, n.spec?.taints, n.spec?.unschedulable, n.status?.allocatable]);
  return view(old) !== view(node);
}
