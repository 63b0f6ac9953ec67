// The node agent actor: registers its Node, keeps its Lease renewed and its status reported, and
// runs the pods bound to it. It watches only its own pods (fieldSelector spec.nodeName=<node>), so
// the server sends it nothing about other nodes' pods. Every informer event leads to
// `reconcile(key)`, which reads the cache and compares it with the pod runtimes it holds: level
// triggered, so a missed or repeated event changes nothing. All time is the injected clock's; all
// randomness is the injected stream's, forked by name (`pod/<uid>`, `pod-ips`, `lease-jitter`,
// `node-info`), so the same seed gives the same node, the same plans and the same pod IPs.
// Out of touch with the server (a request it never answered), the agent cannot know what the
// server made of its Node and pods meanwhile (the node lifecycle controller sets the Node's
// conditions Unknown and its pods not Ready): at the next status beat it writes its whole node
// status, and on every beat it writes again the status of each running pod the server holds not
// Ready, as the real agent's status loops compare what they report with the server's copy.
// Its metrics (metrics.ts) and its client's requests (rest_client_*) go to its registry.
import { NODE_LEASE_NAMESPACE } from '../api/namespaces.ts';
import { microTime, timestamp, uuid, type Clock, type Random } from '../api/env.ts';
import { newRegistry, type Registry } from '../api/metrics.ts';
import { isAlreadyExists, isConflict, isNotFound, StatusError } from '../api/status.ts';
import type { KObject } from '../api/types.ts';
import { WatchHub } from '../apiserver/watch/hub.ts';
import { cacheKey } from '../client/cache.ts';
import { ApiClient } from '../client/client.ts';
import { Informer } from '../client/informer.ts';
import { meteredBus } from '../client/request-metrics.ts';
import { RateLimiter } from '../client/rate-limiter.ts';
import { BusTimeoutError, NoRespondersError, type Bus } from '../../transport/bus.ts';
import { drawPodPlan } from '../../machines/stages.ts';
import { NodeAgentMetrics } from './metrics.ts';
import { nodeAgentOptions, podLimit, type NodeAgentOptions } from './options.ts';
import { evictionMessage, evictionVictim, memoryThreshold, type MemoryThreshold, type PodUsage } from './pressure-eviction.ts';
import { wholeUnits } from '../api/quantity.ts';
import { PodUse } from './pod-usage.ts';
import type { LoadShares } from './usage-spread.ts';
import { nodeSummary, summarySubject, type Summary } from './summary.ts';
import { payload, valueOf } from '../../transport/payload.ts';
import type { Subscription } from '../../transport/bus.ts';
import { isReady } from '../api/fields.ts';
import { podMachineFor, PodRuntime, type HostedPodMachine } from './pod-runtime.ts';
import { PodRuns } from './pod-run.ts';
import { AgentEvents } from './agent-events.ts';
import { CoreEventRecorder, NO_EVENTS, referenceTo, type ObjectReference } from '../client/events/index.ts';
import { assign, fromPromise, type Actor } from 'xstate';
import { nodeMachine, type Measurement, type Written } from '../../machines/node.ts';
import { ActorSystem } from '../system/actor-system.ts';
import { stateName } from '../system/records.ts';
import { actorIds } from '../system/ids.ts';
import { whenState } from '../system/when-state.ts';
import { LEASES, type Lease } from '../api/model/coordination.ts';
import { NODES, PODS, type Pod } from '../api/model/core.ts';

const RENEWED = { type: 'RENEWED' } as const;
const CHANGED = { type: 'CHANGED' } as const;

const AGENT_VERSION = 'v1.32.0-orchsim';

export interface NodeAgentInit {
  bus: Bus;
  clock: Clock;
  /** This agent's own stream (fork it from the run's seed by node name). */
  random: Random;
  nodeName: string;
  options?: Partial<NodeAgentOptions>;
  /** Told of failed API calls other than NotFound (a pod deleted meanwhile); by default they are rethrown into the log. */
  onError?: (error: unknown) => void;
  /** Where its metrics go (a new registry when absent). */
  registry?: Registry;
  /** The process's actor system: the node machine is hosted there as `node/<name>`, its pods as `pod/<ns>/<name>`. */
  system?: ActorSystem;
  /** Whether it records events, as the real agent does (default); false: none. */
  events?: boolean;
  /** Who shares the load of pods whose usage model spreads it (usage-spread.ts): the process's view of the load balancer. */
  loadShares?: LoadShares;
}

/** An admitted pod's use over time (pod-usage.ts) and what eviction ranks it by. */
interface AdmittedUse {
  use: PodUse;
  priority: number;
  /** When its containers started, for the summary: when the agent admitted it. */
  startMs: number;
}

export class NodeAgent {
  readonly nodeName: string;
  readonly options: NodeAgentOptions;
  /** The registry its /metrics shows. */
  readonly metrics: Registry;
  readonly #metrics: NodeAgentMetrics;
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #client: ApiClient;
  readonly #bus: Bus;
  /**
   * Lease renewals and status updates go through their own client, whose requests give up after
   * the shorter of the status update frequency and the lease duration, as the real agent's
   * heartbeat client does: a beat lost to an outage does not hold up the next one.
   */
  readonly #heartbeat: ApiClient;
  readonly #informer: Informer<Pod>;
  readonly #events: AgentEvents;
  readonly #onError: (error: unknown) => void;
  readonly #pods = new Map<string, PodRuntime>();
  /** The same runtimes by their pod actor's id: where the pod machine's actions land. */
  readonly #runtimes = new Map<string, PodRuntime>();
  readonly #podMachine: HostedPodMachine;
  readonly #ipStream: Random;
  readonly #usedIPs = new Set<number>();
  /** How each pod runs and ends (its annotations, its owner). */
  readonly #runs: PodRuns;
  #info: Record<string, string> | undefined;
  readonly #system: ActorSystem;
  readonly #actor: Actor<typeof nodeMachine>;
  readonly #threshold: MemoryThreshold | undefined;
  /** Each admitted pod's use over time and its priority (what eviction ranks by). */
  readonly #usage = new Map<string, AdmittedUse>();
  /** The sum of every admitted pod's most memory use, active or not (negative uses as 0): a bound on memoryUsage. */
  #usageBound = 0;
  /** Pods whose cached copy is not Ready: the status beat looks at these for a resync. */
  readonly #unready = new Set<string>();
  #extraMemory = 0;
  readonly #loadShares: LoadShares | undefined;
  /** Where the metrics server asks for this node's summary (summary.ts). */
  #summaries: Subscription | undefined;
  #lease: Lease | undefined;
  #startedMs: number | undefined;

  constructor(init: NodeAgentInit) {
    this.nodeName = init.nodeName;
    this.options = nodeAgentOptions(init.options);
    this.#clock = init.clock;
    this.#random = init.random;
    this.#ipStream = init.random.fork('pod-ips');
    this.#threshold = memoryThreshold(this.options.evictionHard);
    this.#loadShares = init.loadShares;
    this.#system = init.system ?? new ActorSystem(init.clock);
    this.#podMachine = podMachineFor((id) => this.#runtimes.get(id));
    this.metrics = init.registry ?? newRegistry();
    this.#metrics = new NodeAgentMetrics(this.metrics, init.nodeName, () => this.#census());
    this.#bus = init.bus;
    const bus = meteredBus(init.bus, init.clock, this.metrics);
    const o = this.options;
    this.#client = new ApiClient(bus, `nodeagent/${init.nodeName}`, undefined, o.orchApiQps > 0 ? new RateLimiter(init.clock, o.orchApiQps, o.orchApiBurst) : undefined);
    // Not rate limited, as the real agent's heartbeat client is not.
    const heartbeatTimeoutMs = Math.min(o.nodeStatusUpdateFrequencyMs, o.nodeLeaseDurationSeconds * 1000);
    this.#heartbeat = new ApiClient(bus, `nodeagent/${init.nodeName}`, heartbeatTimeoutMs, undefined, { clock: init.clock });
    // Events go through a client of their own, limited to eventRecordQPS, as the real agent's.
    this.#events = new AgentEvents(init.events === false ? NO_EVENTS : new CoreEventRecorder({
      client: new ApiClient(bus, `nodeagent/${init.nodeName}`, undefined, o.eventRecordQps > 0 ? new RateLimiter(init.clock, o.eventRecordQps, o.eventBurst) : undefined),
      clock: init.clock, random: init.random.fork('events'), source: { component: 'kubelet', host: init.nodeName },
    }), init.nodeName);
    this.#onError = init.onError ?? ((e) => console.error(`nodeagent ${init.nodeName}:`, e));
    this.#runs = new PodRuns(this.options.podStages, (problem) => this.#report(new Error(problem)));
    this.#informer = new Informer({ client: this.#client, hub: new WatchHub(bus), clock: init.clock, type: PODS,
      fieldSelector: `spec.nodeName=${init.nodeName}`, indexed: false });
    const reconcile = (o: KObject) => this.#reconcile(cacheKey(o));
    this.#informer.on({ add: reconcile, update: (_old, o) => reconcile(o), delete: reconcile });
    const machine = nodeMachine.provide({
      actors: {
        register: fromPromise<Written>(() => this.#register()),
        renewLease: fromPromise<void>(() => this.#renewLease()),
        syncPods: fromPromise<void>(() => this.#informer.start()),
      },
      actions: {
        renewLease: ({ self }) => {
          const startMs = this.#clock.now();
          void this.#renewLease().then(() => this.#clock.now() > startMs && self.send(RENEWED), (error: unknown) => self.send({ type: 'RENEW_FAILED', error }));
        },
        writeStatus: ({ self }, { pressure }) => void this.#writeStatus(pressure).then(({ atMs }) => self.send({ type: 'REPORTED', atMs }),
          (error: unknown) => self.send({ type: 'REPORT_FAILED', error })),
        registerNode: ({ self }) => void this.#register().then(({ atMs }) => self.send({ type: 'REPORTED', atMs }),
          (error: unknown) => self.send({ type: 'REPORT_FAILED', error })),
        measure: assign({ measurement: () => this.#measure() }),
        pressureChanged: (_, { pressure }) => this.#events.pressure(pressure),
        evictOne: (_, { availableBytes }) => this.#evictOne(availableBytes),
        resyncPods: () => this.#resyncPods(),
        reportError: (_, { error }) => this.#report(error),
        halt: () => this.#halt(),
      },
      guards: {
        // Unanswered, or refused: either way the server may not hold what the agent believes it does
        // (a refused renewal is most often of a Lease the server no longer has).
        unanswered: ({ event }) => {
          const e = (event as { error?: unknown }).error;
          return e instanceof BusTimeoutError || e instanceof NoRespondersError || e instanceof StatusError;
        },
        nodeMissing: ({ event }) => { const e = (event as { error?: unknown }).error; return isNotFound(e); },
      },
    });
    this.#actor = this.#system.host(machine, { id: actorIds.node(init.nodeName), node: init.nodeName, input: {
      leaseRenewMs: (o.nodeLeaseDurationSeconds * 1000) / 4, leaseJitterFactor: o.leaseRenewJitterFactor,
      statusUpdateMs: o.nodeStatusUpdateFrequencyMs, statusReportMs: o.nodeStatusReportFrequencyMs,
      pressureTransitionMs: o.evictionPressureTransitionPeriodMs, random: init.random.fork('lease-jitter'), now: () => init.clock.now(),
    } });
  }

  /**
   * Starts the node machine: registers the Node, creates the Lease, starts watching pods, then
   * the lease and status loops. Resolves once they run; rejects if the agent could not start.
   */
  start(): Promise<void> {
    const started = whenState(this.#actor, (s) => (s.matches('Running') ? 'settled'
      : s.matches('Failed') ? new Error(`node agent ${this.nodeName} failed to start: ${s.context.error}`) : undefined));
    this.#actor.start();
    this.#answerSummaries();
    return started;
  }

  /** Memory used on top of the pods' own (a scenario's memory-pressure fault); 0 removes it. */
  setExtraMemoryUsage(bytes: number): void {
    this.#extraMemory = Math.max(0, bytes);
    this.#changed();
  }

  /** Tells the node machine that what a status check looks at changed. */
  #changed(): void {
    if (this.#actor.getSnapshot().status === 'active') this.#actor.send(CHANGED);
  }

  /** Bytes of memory in use now: every active pod's use plus the extra load. */
  get memoryUsage(): number {
    const atMs = this.#clock.now();
    let used = this.#extraMemory;
    for (const [key, runtime] of this.#pods) if (runtime.active) used += this.#usage.get(key)?.use.podMemoryAt(atMs) ?? 0;
    return used;
  }

  /**
   * The node's and its running pods' use at `atMs`, as the real agent's /stats/summary gives it:
   * evaluated when asked, never kept.
   */
  summary(atMs: number): Summary {
    const running = [];
    for (const [key, runtime] of this.#pods) {
      const u = this.#usage.get(key);
      if (!u || runtime.phase !== 'Running') continue;
      const [namespace, name] = key.split('/') as [string, string];
      running.push({ ref: { namespace, name, uid: runtime.uid }, startMs: u.startMs, use: u.use });
    }
    return nodeSummary({ nodeName: this.nodeName, startMs: this.#startedMs ?? atMs, memoryBytes: wholeUnits(this.options.memory),
      extraMemoryBytes: this.#extraMemory }, running, atMs);
  }

  /** Answers the metrics server's scrapes (summary.ts): one subscription, no work until asked. */
  #answerSummaries(): void {
    this.#summaries = this.#bus.subscribe(summarySubject(this.nodeName), (msg) => {
      if (!msg.reply || !this.#live) return;
      const now = this.#clock.now();
      let atMs = now;
      try {
        const asked = valueOf<{ atMs?: unknown }>(msg).atMs;
        if (typeof asked === 'number' && asked <= now) atMs = asked; // the metrics server's grid instant
      } catch { /* an undecodable request: the summary as it is now */ }
      this.#bus.publish(msg.reply, payload(this.summary(atMs)));
    });
  }

  /** The status beat's measurement of memory available against evictionHard's memory.available (the node machine decides what follows). */
  #measure(): Measurement {
    const atMs = this.#clock.now();
    const threshold = this.#threshold;
    let availableBytes = Infinity;
    let memoryLow = false;
    if (threshold) {
      const capacity = wholeUnits(this.options.memory);
      const needed = threshold.bytes(capacity);
      // When every admitted pod together leaves the threshold free (a byte to spare for rounding),
      // the active ones do: no need to add them up.
      const surely = capacity - this.#extraMemory - this.#usageBound - 1;
      availableBytes = surely >= needed ? surely : capacity - this.memoryUsage;
      memoryLow = availableBytes < needed;
    }
    let unreadyPods = 0;
    for (const key of this.#unready) if (this.#pods.get(key)?.active) unreadyPods++;
    return { atMs, memoryLow, availableBytes, unreadyPods };
  }

  /** Evicts the pod the real agent would evict first under memory pressure, if any runs. */
  #evictOne(availableBytes: number): void {
    const threshold = this.#threshold;
    if (!threshold) return;
    const atMs = this.#clock.now();
    const candidates: PodUsage[] = [];
    for (const [key, runtime] of this.#pods) {
      const u = this.#usage.get(key);
      if (runtime.active && u) candidates.push({ key, priority: u.priority, usage: u.use.podMemoryAt(atMs), request: u.use.memoryRequest });
    }
    const victim = evictionVictim(candidates);
    if (!victim) return;
    this.#metrics.evicted('memory.available');
    const container = this.#usage.get(victim.key)!.use.containers[0] ?? '';
    const message = evictionMessage(threshold, availableBytes, victim, container);
    this.#events.evicting(this.#podRef(victim.key), message, container, victim.usage);
    this.#pods.get(victim.key)!.evict(message);
  }

  /** The informer of this node's pods (the checkers compare its cache with the store). */
  get podInformer(): Informer {
    return this.#informer;
  }

  /** The agent shuts down: its machine stops, and with it the loops, the watch and the pods. */
  stop(): void {
    this.#actor.send({ type: 'STOP' });
  }

  /** The node crashes: the same as a stop to everything outside, recorded as a crash. */
  crash(): void {
    this.#actor.send({ type: 'CRASH' });
  }

  /** Whether the node machine still runs (or starts). */
  get #live(): boolean {
    return this.#actor.getSnapshot().status === 'active';
  }

  #halt(): void {
    this.#summaries?.unsubscribe();
    this.#summaries = undefined;
    this.#informer.stop();
    this.#events.stop();
    for (const p of this.#pods.values()) p.stop();
    this.#pods.clear();
    this.#runtimes.clear();
    this.#unready.clear();
    this.#metrics.close();
  }

  /** Each pod's phase and containers, for the gauges. */
  *#census(): Iterable<{ phase: PodRuntime['phase']; containers: number }> {
    for (const p of this.#pods.values()) yield { phase: p.phase, containers: p.containerCount };
  }

  /** The node machine's state, as a dotted path (`Starting.Registering`, `Running.Normal`, `Running.Pressure`, `Stopped`). */
  get state(): string {
    return stateName(this.#actor.getSnapshot().value);
  }

  #report(e: unknown): void {
    if (isNotFound(e)) return;
    this.#onError(e);
  }

  // ---- Node and Lease ---------------------------------------------------------------------------

  /**
   * The status reported at `nowMs`. Everything but the heartbeat times and `memoryPressure` is
   * fixed once registered: #updateStatus writes early only when the pressure changes.
   */
  #nodeStatus(nowMs: number, memoryPressure: boolean) {
    const o = this.options;
    const resources = { cpu: o.cpu, memory: o.memory, 'ephemeral-storage': o.ephemeralStorage, pods: String(podLimit(o)) };
    const condition = (type: string, status: string, reason: string, message: string) =>
      ({ type, status, lastHeartbeatTime: timestamp(nowMs), lastTransitionTime: timestamp(this.#startedMs ?? nowMs), reason, message });
    return {
      capacity: resources,
      allocatable: this.#allocatable(resources),
      conditions: [
        memoryPressure
          ? condition('MemoryPressure', 'True', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available')
          : condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [{ type: 'InternalIP', address: o.internalIP }, { type: 'Hostname', address: this.nodeName }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: this.#nodeInfo(),
    };
  }

  /**
   * Allocatable as the real agent computes it with nothing reserved: capacity less the hard
   * eviction threshold for memory, so pods filling the node never by themselves push it under.
   */
  #allocatable(capacity: Record<string, string>): Record<string, string> {
    if (!this.#threshold) return capacity;
    const bytes = wholeUnits(this.options.memory);
    const allocatable = Math.max(0, bytes - Math.ceil(this.#threshold.bytes(bytes)));
    return { ...capacity, memory: `${Math.floor(allocatable / 1024)}Ki` };
  }

  /** The node's system info: drawn once from the agent's `node-info` stream, the same in every report. */
  #nodeInfo() {
    if (!this.#info) {
      const info = this.#random.fork('node-info');
      this.#info = {
        machineID: uuid(info).replace(/-/g, ''), systemUUID: uuid(info), bootID: uuid(info),
        kernelVersion: '6.1.0-orchsim', osImage: 'orchsim simulated node', containerRuntimeVersion: 'containerd://1.7.0',
        kubeletVersion: AGENT_VERSION, kubeProxyVersion: AGENT_VERSION, operatingSystem: 'linux', architecture: 'amd64',
      };
    }
    return this.#info;
  }

  /** Creates the Node, or, registered before (an agent restart), reports its status. No memory pressure yet. */
  async #register(): Promise<Written> {
    const o = this.options;
    const now = this.#clock.now();
    this.#startedMs = now;
    const labels: Record<string, string> = {
      'kubernetes.io/hostname': this.nodeName, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64',
      ...(o.region ? { 'topology.kubernetes.io/region': o.region } : {}),
      ...(o.zone ? { 'topology.kubernetes.io/zone': o.zone } : {}),
      ...o.nodeLabels,
    };
    const status = this.#nodeStatus(now, false);
    const node = { metadata: { name: this.nodeName, labels },
      spec: { podCIDR: o.podCIDR, podCIDRs: [o.podCIDR], ...(o.registerWithTaints.length ? { taints: o.registerWithTaints } : {}) }, status } as KObject;
    try {
      await this.#client.create(NODES, node);
    } catch (e) {
      // Registered before (an agent restart): report the current status instead.
      if (!(isAlreadyExists(e) || isConflict(e))) throw e;
      await this.#heartbeat.patch(NODES, undefined, this.nodeName, { status }, 'merge', 'status');
    }
    this.#events.registered();
    return { atMs: now };
  }

  /** Writes the node's status with this memory pressure (the node machine decides when). */
  async #writeStatus(pressure: boolean): Promise<Written> {
    const now = this.#clock.now();
    await this.#heartbeat.patch(NODES, undefined, this.nodeName, { status: this.#nodeStatus(now, pressure) }, 'merge', 'status');
    this.#metrics.statusUpdated();
    return { atMs: now };
  }

  async #renewLease(): Promise<void> {
    const now = microTime(this.#clock.now());
    const spec = { holderIdentity: this.nodeName, leaseDurationSeconds: this.options.nodeLeaseDurationSeconds, renewTime: now };
    if (!this.#lease) {
      try {
        this.#lease = await this.#heartbeat.create(LEASES, { metadata: { name: this.nodeName, namespace: NODE_LEASE_NAMESPACE }, spec } as KObject);
        return;
      } catch (e) {
        if (!(isAlreadyExists(e) || isConflict(e))) throw e;
        this.#lease = await this.#heartbeat.get(LEASES, NODE_LEASE_NAMESPACE, this.nodeName);
      }
    }
    try {
      this.#lease = await this.#heartbeat.update(LEASES, { ...this.#lease, spec: { ...this.#lease.spec, ...spec } });
    } catch (e) {
      this.#lease = undefined; // a conflict or a deleted Lease: start from the server's copy next time
      throw e;
    }
  }

  // ---- Pods ---------------------------------------------------------------------------------------

  /**
   * As the real agent's status manager does, each running pod the server holds not Ready gets its
   * running status written again. Only pods whose cached copy is not Ready can need it: the
   * informer's events keep that set.
   */
  #resyncPods(): void {
    for (const key of this.#unready) {
      const runtime = this.#pods.get(key);
      const pod = this.#informer.cache.byKey(key);
      if (runtime && pod && pod.metadata.uid === runtime.uid) runtime.resync(pod);
    }
  }

  #reconcile(key: string): void {
    if (!this.#live) return;
    const pod = this.#informer.cache.byKey(key);
    const phase = pod?.status?.phase;
    // A finished pod is never written again: only running ones can need a resync.
    if (pod && !isReady(pod) && phase !== 'Succeeded' && phase !== 'Failed') {
      if (!this.#unready.has(key)) {
        this.#unready.add(key);
        this.#changed();
      }
    } else this.#unready.delete(key);
    let runtime = this.#pods.get(key);
    if (runtime && (!pod || pod.metadata.uid !== runtime.uid)) {
      this.#drop(key, runtime);
      runtime = undefined;
    }
    if (!pod) return;
    if (!runtime) {
      if (phase === 'Succeeded' || phase === 'Failed') return;
      if (pod.metadata.deletionTimestamp) return void this.#remove(pod.metadata.namespace!, pod.metadata.name!, pod.metadata.uid!).catch((e) => this.#report(e));
      runtime = this.#admit(key, pod);
      if (!runtime) return;
    } else this.#recompileUse(key, pod);
    if (pod.metadata.deletionTimestamp) runtime.terminate(pod.metadata.deletionGracePeriodSeconds);
  }

  /** Starts a runtime for `pod`, or rejects it with OutOfpods when maxPods are already active. */
  #admit(key: string, pod: Pod): PodRuntime | undefined {
    let used = 0;
    for (const p of this.#pods.values()) if (p.active) used++;
    const limit = podLimit(this.options);
    if (used >= limit) {
      const message = `Node didn't have enough resource: pods, requested: 1, used: ${used}, capacity: ${limit}`;
      this.#events.rejected(referenceTo(PODS, pod), 'OutOfpods', message);
      void this.#client.patch(PODS, pod.metadata.namespace, pod.metadata.name!, { status: { phase: 'Failed', reason: 'OutOfpods', message: `Pod was rejected: ${message}` } },
        'merge', 'status').catch((e) => this.#report(e));
      return undefined;
    }
    const random = this.#random.fork(`pod/${pod.metadata.uid}`);
    const run = this.#runs.of(pod);
    const plan = drawPodPlan(run.table, random);
    const ns = pod.metadata.namespace!, name = pod.metadata.name!, uid = pod.metadata.uid!;
    const status = pod.status;
    const resumed = status?.phase === 'Running' && status.startTime;
    const seenMs = this.#clock.now();
    const runtime = new PodRuntime(pod, plan, {
      clock: this.#clock, system: this.#system, machine: this.#podMachine, random: random.fork('containers'), hostIP: this.options.internalIP, podIP: this.#allocateIP(),
      write: async (status) => void (await this.#client.patch(PODS, ns, name, { status }, 'merge', 'status')),
      remove: () => this.#remove(ns, name, uid),
      onError: (e) => this.#report(e),
      ...(resumed ? { resumed: { startTime: status.startTime! } } : { onRunning: (atMs: number) => this.#metrics.podRunning(atMs - seenMs) }),
      ...(run.exit ? { exit: run.exit } : {}),
      ...(this.#events.recording ? { events: { agent: this.#events, pod: (fieldPath: string) => this.#podRef(key, fieldPath) } } : {}),
    });
    this.#pods.set(key, runtime);
    this.#runtimes.set(runtime.actorId, runtime);
    const use = new PodUse(pod, this.#loadShares);
    this.#usage.set(key, { use, priority: pod.spec!.priority ?? 0, startMs: seenMs });
    this.#usageBound += Math.max(0, use.memoryMax);
    this.#metrics.podStarted();
    runtime.start();
    this.#changed();
    return runtime;
  }

  /**
   * A running pod whose usage annotations changed uses what they say from now on: its use is
   * compiled anew (its start and priority kept), and the status check looks again, since its
   * memory may now press. An update that leaves them is three look-ups.
   */
  #recompileUse(key: string, pod: Pod): void {
    const admitted = this.#usage.get(key);
    if (!admitted || admitted.use.compiledFrom(pod)) return;
    const use = new PodUse(pod, this.#loadShares);
    this.#usageBound += Math.max(0, use.memoryMax) - Math.max(0, admitted.use.memoryMax);
    admitted.use = use;
    this.#changed();
  }

  /** The pod of `key` as this agent holds it (its newest version), or as it was when it went; a container's with `fieldPath`. */
  #podRef(key: string, fieldPath?: string): ObjectReference {
    const pod = this.#informer.cache.byKey(key);
    if (pod) return referenceTo(PODS, pod, fieldPath);
    const [namespace, name] = key.split('/') as [string, string];
    return { kind: 'Pod', namespace, name, uid: this.#pods.get(key)?.uid ?? '', apiVersion: 'v1', ...(fieldPath ? { fieldPath } : {}) };
  }

  /**
   * Deletes a pod whose containers are gone: grace 0, and only the pod this agent ran (uid
   * precondition); by name and uid, so a runtime's closure keeps no old version alive.
   */
  async #remove(namespace: string, name: string, uid: string): Promise<void> {
    await this.#client.delete(PODS, namespace, name, { gracePeriodSeconds: 0, preconditions: { uid } });
  }

  #drop(key: string, runtime: PodRuntime): void {
    runtime.stop();
    this.#pods.delete(key);
    this.#runtimes.delete(runtime.actorId);
    this.#usageBound -= Math.max(0, this.#usage.get(key)?.use.memoryMax ?? 0);
    this.#usage.delete(key);
    this.#usedIPs.delete(Number(runtime.podIP.split('.')[3]));
  }

  /** A free address in the node's /24 (hosts .2 to .254), from a seeded start, probing upward. */
  #allocateIP(): string {
    const prefix = this.options.podCIDR.split('.').slice(0, 3).join('.');
    const start = 2 + Math.floor(this.#ipStream.next() * 253);
    for (let i = 0; i < 253; i++) {
      const host = 2 + ((start - 2 + i) % 253);
      if (!this.#usedIPs.has(host)) {
        this.#usedIPs.add(host);
        return `${prefix}.${host}`;
      }
    }
    throw new RangeError(`node ${this.nodeName} has no free pod address left in ${this.options.podCIDR}; lower maxPods or free addresses by deleting pods`);
  }
}
