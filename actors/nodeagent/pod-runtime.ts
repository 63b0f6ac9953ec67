// One pod on the node: the pod machine that decides its lifecycle, and the I/O the machine asks
// for. The runtime decides nothing: the machine's `report` and `remove` actions (supplied once
// per agent, see `podMachineFor`) land here, and it writes the status of each state in order, one
// write at a time (a chained promise), so the server sees the pod's statuses in the order the
// machine produced them and the final delete after all of them.
//
//   machine state      what the API sees
//   Scheduled          nothing yet: the agent has not noticed the binding
//   ContainerCreating  Pending, startTime, hostIP, containers waiting (ContainerCreating)
//   Running            Running, podIP, every condition True, containers running (restartCount
//                      the restarts so far, lastState the failed run before)
//   Running.BackOff    Running, not Ready, containers waiting (CrashLoopBackOff) after a failed
//                      run under restartPolicy OnFailure
//   Succeeded/Failed   the phase, containers terminated (Completed / Error; Evicted with its message)
//   Terminating        nothing: containers are stopping for the grace period
//   Removed            the pod is deleted with gracePeriodSeconds 0
//
// Like the real agent's status manager, a running pod whose status on the server says it is not
// Ready (the node lifecycle controller marked it so while the node was out of touch) gets its
// running status written again (`resync`), once no write of its own is still under way.
//
// A pod waiting for nothing but events (running until deleted, or finished) hibernates: its
// machine's state and context stay in the actor system, not a live actor (see `#sleep`).
import type { Actor, StateValue } from 'xstate';
import { timestamp, type Clock, type Random } from '../api/env.ts';
import { isReady } from '../api/fields.ts';
import type { KObject } from '../api/types.ts';
import { podInput, podMachine, podPhase, restartBackOffMs, type PodContext, type PodExit, type PodInput, type PodPhase, type ReportedPodState } from '../../machines/pod.ts';
import type { PodPlan } from '../../machines/stages.ts';
import type { ActorSystem } from '../system/actor-system.ts';
import type { ObjectReference } from '../client/events/index.ts';
import type { AgentEvents, ContainerSpec } from './agent-events.ts';
import { actorIds } from '../system/ids.ts';
import { BusTimeoutError, NoRespondersError } from '../../transport/bus.ts';
import type { Pod, PodCondition } from '../api/model/core.ts';

/** How long a write the API server never answered waits before it is sent again. */
const WRITE_RETRY_MS = 10_000;

/** The pod machine with its I/O supplied: `runtimeOf(actorId)` finds the runtime an action is for. */
export function podMachineFor(runtimeOf: (actorId: string) => PodRuntime | undefined) {
  return podMachine.provide({
    actions: {
      report: ({ self }, { state }) => runtimeOf(self.id)?.report(state),
      remove: ({ self }) => runtimeOf(self.id)?.remove(),
      stopContainers: ({ self }) => runtimeOf(self.id)?.stopContainers(),
    },
  });
}

export type HostedPodMachine = ReturnType<typeof podMachineFor>;

export interface PodRuntimeDeps {
  clock: Clock;
  /** Where the pod's machine is hosted, as `pod/<namespace>/<name>`. */
  system: ActorSystem;
  /** The agent's pod machine (podMachineFor). */
  machine: HostedPodMachine;
  /** The pod's own stream: container ids are drawn from it. */
  random: Random;
  hostIP: string;
  podIP: string;
  write(status: Record<string, unknown>): Promise<void>;
  remove(): Promise<void>;
  /** Told of a failed write or delete (the pod may be gone already). */
  onError(error: unknown): void;
  /**
   * Set when a restarted agent takes over a pod that was already running here: its containers are
   * started again (restartCount 1) but the pod never goes back to Pending, as with a real agent.
   */
  resumed?: { startTime: string };
  /** Told when the containers start running (metrics: how long the pod took to start). */
  onRunning?: (atMs: number) => void;
  /** How a batch pod's run ends (its exit code, whether a failure restarts it); absent for pods that run until deleted. */
  exit?: PodExit;
  /** Where the pod's container events go, and the reference to the pod (a container's, with its field path). */
  events?: { agent: AgentEvents; pod: (fieldPath: string) => ObjectReference };
}

/** How long containers take to exit after SIGTERM, when the grace period allows it. */
const STOP_MS = { min: 200, max: 2_000 };

const CONDITION_TYPES = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'] as const;
const FINISHED: ReadonlySet<PodPhase> = new Set(['Succeeded', 'Failed', 'Removed']);
/** The states a pod sleeps in: nothing but an event can move it on. */
const RESTING = (s: { matches(v: StateValue): boolean }) => s.matches({ Running: 'UntilDeleted' }) || s.matches('Succeeded') || s.matches('Failed');

/** 64 hex digits, a pure function of `text` (an image's digest stands still across runs). */
export function digest(text: string): string {
  let out = '';
  for (let round = 0; round < 8; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

function randomHex(random: Random, digits: number): string {
  let s = '';
  for (let i = 0; i < digits; i++) s += Math.floor(random.next() * 16).toString(16);
  return s;
}

export class PodRuntime {
  readonly uid: string;
  readonly podIP: string;
  /** The pod's actor in the system (`pod/<namespace>/<name>`, unique while it lives). */
  readonly actorId: string;
  readonly #deps: Omit<PodRuntimeDeps, 'random'>;
  readonly #containers: (ContainerSpec & { id: string })[];
  /** The live machine; undefined while the pod sleeps and once it stopped. */
  #actor: Actor<HostedPodMachine> | undefined;
  /** The machine's input (its plan; the context is this very object until an eviction). */
  readonly #input: PodInput;
  /** The machine's state value and context while it sleeps: all a waiting pod needs to wake. */
  #asleep: { value: StateValue; context: PodContext } | undefined;
  /** The conditions last written, in CONDITION_TYPES order (an array: a Map costs ~0.9 KB a pod). */
  #conditions: PodCondition[] = [];
  #startMs = 0;
  #runningMs = 0;
  /** When the last failed run began and ended, while the container restarts (lastState). */
  #lastRun: { startedMs: number; finishedMs: number } | undefined;
  #queue: Promise<void> = Promise.resolve();
  /** Writes enqueued and not yet landed or given up. */
  #inFlight = 0;
  /** While the containers are created (with events): since when, and which images are being pulled. */
  #creating: { atMs: number; pulls: boolean[] } | undefined;

  constructor(pod: Pod, plan: PodPlan, deps: PodRuntimeDeps) {
    this.uid = pod.metadata.uid!;
    this.podIP = deps.podIP;
    const { random, ...rest } = deps;
    this.#deps = rest;
    const spec = pod.spec!;
    this.#containers = ((spec.containers ?? []) as ContainerSpec[]).map((c) => ({ name: c.name, image: c.image, ...(c.imagePullPolicy ? { imagePullPolicy: c.imagePullPolicy } : {}),
      id: `containerd://${randomHex(random, 64)}` }));
    // Drawn up front, after the container ids: a pod keeps no random stream.
    const stopMs = STOP_MS.min + Math.floor(random.next() * (STOP_MS.max - STOP_MS.min));
    const grace = spec.terminationGracePeriodSeconds ?? 30;
    this.#input = podInput(plan, grace < 0 ? 1 : grace, stopMs, deps.exit);
    // A pod the scheduler queued is its actor already, Pending: this machine takes its record over.
    const node = spec.nodeName;
    this.#actor = deps.system.host(deps.machine, { id: actorIds.pod(pod.metadata.namespace!, pod.metadata.name!), input: this.#input, adopt: true,
      ...(node !== undefined ? { node } : {}) });
    this.actorId = this.#actor.id;
  }

  /** The machine's phase, awake or asleep ('Removed' once stopped). */
  get phase(): PodPhase {
    if (this.#actor) return podPhase(this.#actor.getSnapshot().value as StateValue);
    return this.#asleep ? podPhase(this.#asleep.value) : 'Removed';
  }

  /** How many containers the pod runs. */
  get containerCount(): number {
    return this.#containers.length;
  }

  /** Counts against maxPods: admitted and not finished. */
  get active(): boolean {
    return !FINISHED.has(this.phase);
  }

  /**
   * Writes the running status again when `server` (the pod as the API has it) is not Ready while
   * the containers run (not terminating, not evicted: the machine is in Running) and nothing of
   * its own is in flight. The conditions keep their transition times (the agent never saw its pod
   * stop being Ready). True if it wrote.
   */
  resync(server: KObject): boolean {
    // The server's copy first: most pods the agent looks at here are finished, and say so.
    if (this.#inFlight > 0 || server.metadata.deletionTimestamp || isReady(server)) return false;
    // Waiting out a restart's back-off, the containers are not Ready, and the server rightly says so.
    if (this.phase !== 'Running' || this.#actor?.getSnapshot().matches({ Running: 'BackOff' })) return false;
    this.#enqueue(() => this.#deps.write(this.#runningStatus(this.#runningMs)));
    return true;
  }

  /** Starts the machine already bound: the pod came to this agent with `spec.nodeName` set. */
  start(): void {
    const actor = this.#actor!;
    actor.start();
    actor.send({ type: 'BIND' });
  }

  /** The live machine, woken from the state it sleeps in; undefined once the runtime stopped. */
  #awake(): Actor<HostedPodMachine> | undefined {
    if (!this.#actor && this.#asleep) {
      const { value, context } = this.#asleep;
      this.#asleep = undefined;
      this.#actor = this.#deps.system.wake(this.#deps.machine, this.actorId, { input: this.#input, snapshot: this.#deps.machine.resolveState({ value, context }) }).start();
    }
    return this.#actor;
  }

  /**
   * A pod that waits for nothing but a deletion or an eviction keeps only its machine's state
   * value and context: a live actor costs about 4.9 KB, even its persisted snapshot 0.7 KB, and
   * a node holds up to maxPods of them. The next event wakes it (`#awake`) from that state.
   */
  #sleep(): void {
    const actor = this.#actor;
    if (!actor) return;
    const s = actor.getSnapshot();
    if (s.status !== 'active' || !RESTING(s)) return;
    this.#asleep = { value: s.value, context: s.context };
    this.#deps.system.hibernate(actor);
    this.#actor = undefined;
  }

  /** The pod got a deletionTimestamp: the machine stops its containers within `gracePeriodSeconds`. */
  terminate(gracePeriodSeconds: number | undefined): void {
    const actor = this.#awake();
    if (actor?.getSnapshot().status === 'active') actor.send({ type: 'DELETE', ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}) });
  }

  /** Node-pressure eviction: the containers are killed and the pod ends Failed with reason Evicted (if it still runs). */
  evict(message: string): void {
    if (!this.active) return;
    const actor = this.#awake();
    if (actor?.getSnapshot().status === 'active') actor.send({ type: 'EVICTED', message });
  }

  /** The agent stops or drops the pod: its machine ends wherever it is, with nothing more written. */
  stop(): void {
    if (this.#asleep) {
      this.#asleep = undefined;
      this.#deps.system.end(this.actorId);
    }
    this.#actor?.stop();
    this.#actor = undefined;
  }

  /** The machine asks for the status of `state` to be written (ContainerCreating, Running, Succeeded, Failed). */
  report(state: ReportedPodState): void {
    // Once this transition has settled, a pod with nothing to wait for but events goes to sleep.
    if (state !== 'ContainerCreating') queueMicrotask(() => this.#sleep());
    const now = this.#deps.clock.now();
    const events = this.#deps.events;
    switch (state) {
      case 'ContainerCreating':
        if (events) this.#creating = { atMs: now, pulls: events.agent.creating(events.pod, this.#containers) };
        if (this.#deps.resumed) {
          this.#startMs = Date.parse(this.#deps.resumed.startTime);
          return;
        }
        this.#startMs = now;
        return this.#enqueue(() => this.#deps.write(this.#pendingStatus(now)));
      case 'Running':
        if (this.#lastRun === undefined) this.#deps.onRunning?.(now); // a restart is not a start
        this.#runningMs = now;
        if (events) events.agent.running(events.pod, this.#containers, now - (this.#creating?.atMs ?? now), this.#creating?.pulls);
        this.#creating = undefined;
        return this.#enqueue(() => this.#deps.write(this.#runningStatus(now)));
      case 'BackOff':
        this.#lastRun = { startedMs: this.#runningMs, finishedMs: now };
        if (events) events.agent.backOff(events.pod, this.#containers);
        return this.#enqueue(() => this.#deps.write(this.#backOffStatus(now)));
      case 'Succeeded':
      case 'Failed':
        return this.#enqueue(() => this.#deps.write(this.#finishedStatus(state, now)));
    }
  }

  /** The machine stops the running containers (the pod deleted or evicted). */
  stopContainers(): void {
    const events = this.#deps.events;
    if (events) events.agent.stopping(events.pod, this.#containers);
  }

  /** The machine reached Removed: the pod is deleted once the writes before it landed. */
  remove(): void {
    this.#enqueue(() => this.#deps.remove());
  }

  /** Stopped: no machine, awake or asleep. */
  get #stopped(): boolean {
    return this.#actor === undefined && this.#asleep === undefined;
  }

  /**
   * Writes go one after another. One the API server never answered (a timeout: the node was cut
   * off; or no server at all: it is restarting) is tried again after WRITE_RETRY_MS, as the real agent's status manager syncs again, until
   * it lands or the runtime stops; the writes after it wait for it, so their order holds.
   */
  #enqueue(work: () => Promise<void>): void {
    const attempt = (): Promise<void> => work().catch((e) => {
      if (!(e instanceof BusTimeoutError || e instanceof NoRespondersError) || this.#stopped) return this.#deps.onError(e);
      return new Promise<void>((resolve) => this.#deps.clock.setTimeout(resolve, WRITE_RETRY_MS)).then(() => (this.#stopped ? undefined : attempt()));
    });
    this.#inFlight++;
    this.#queue = this.#queue.then(attempt).finally(() => void this.#inFlight--);
  }

  /** The conditions, with each one's lastTransitionTime kept until its status changes. */
  #setConditions(now: number, statuses: Record<(typeof CONDITION_TYPES)[number], ['True' | 'False', string?, string?]>): PodCondition[] {
    const old = this.#conditions;
    return (this.#conditions = CONDITION_TYPES.map((type, i) => {
      const [status, reason, message] = statuses[type];
      const was = old[i];
      return { type, status, lastTransitionTime: was && was.status === status ? was.lastTransitionTime : timestamp(now),
        ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
    }));
  }

  #base(now: number) {
    const { hostIP } = this.#deps;
    return { hostIP, hostIPs: [{ ip: hostIP }], startTime: timestamp(this.#startMs || now), qosClass: 'BestEffort' };
  }

  #pendingStatus(now: number) {
    const names = this.#containers.map((c) => c.name).join(' ');
    const notReady = `containers with unready status: [${names}]`;
    return {
      phase: 'Pending', ...this.#base(now),
      conditions: this.#setConditions(now, {
        PodReadyToStartContainers: ['False'], Initialized: ['True'], Ready: ['False', 'ContainersNotReady', notReady],
        ContainersReady: ['False', 'ContainersNotReady', notReady], PodScheduled: ['True'],
      }),
      containerStatuses: this.#containers.map((c) => ({
        name: c.name, image: c.image, imageID: '', ready: false, restartCount: 0, started: false,
        state: { waiting: { reason: 'ContainerCreating' } },
      })),
    };
  }

  /** The machine's context, awake or asleep. */
  get #context(): PodContext | undefined {
    return this.#actor?.getSnapshot().context ?? this.#asleep?.context;
  }

  get #restartCount(): number {
    return this.#context?.restarts ?? (this.#deps.resumed ? 1 : 0);
  }

  /** The failed run before a restart, as containerStatuses[].lastState shows it. */
  #lastState(c: ContainerSpec & { id: string }) {
    const run = this.#lastRun;
    if (!run) return {};
    return { lastState: { terminated: { exitCode: this.#context?.exitCode ?? 1, reason: 'Error', containerID: c.id,
      startedAt: timestamp(run.startedMs), finishedAt: timestamp(run.finishedMs) } } };
  }

  #runningStatus(now: number) {
    return {
      phase: 'Running', ...this.#base(now), podIP: this.podIP, podIPs: [{ ip: this.podIP }],
      conditions: this.#setConditions(now, {
        PodReadyToStartContainers: ['True'], Initialized: ['True'], Ready: ['True'], ContainersReady: ['True'], PodScheduled: ['True'],
      }),
      containerStatuses: this.#containers.map((c) => ({
        name: c.name, image: c.image, imageID: `${c.image.split(':')[0]}@sha256:${digest(c.image)}`, containerID: c.id,
        ready: true, restartCount: this.#restartCount, started: true, state: { running: { startedAt: timestamp(now) } }, ...this.#lastState(c),
      })),
    };
  }

  /** A failed run under restartPolicy OnFailure: the containers wait out their back-off before they run again. */
  #backOffStatus(now: number) {
    const names = this.#containers.map((c) => c.name).join(' ');
    const notReady = `containers with unready status: [${names}]`;
    const restarts = this.#restartCount;
    // The kubelet names the pod <name>_<namespace>(<uid>): read back from the actor id, pod/<ns>/<name>.
    const [, namespace, name] = this.actorId.split('/');
    const pod = `${name}_${namespace}(${this.uid})`;
    return {
      phase: 'Running', ...this.#base(now), podIP: this.podIP, podIPs: [{ ip: this.podIP }],
      conditions: this.#setConditions(now, {
        PodReadyToStartContainers: ['True'], Initialized: ['True'], Ready: ['False', 'ContainersNotReady', notReady],
        ContainersReady: ['False', 'ContainersNotReady', notReady], PodScheduled: ['True'],
      }),
      containerStatuses: this.#containers.map((c) => ({
        name: c.name, image: c.image, imageID: `${c.image.split(':')[0]}@sha256:${digest(c.image)}`, containerID: c.id,
        ready: false, restartCount: restarts, started: false, ...this.#lastState(c),
        state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${restartBackOffMs(restarts) / 1000}s restarting failed container=${c.name} pod=${pod}` } },
      })),
    };
  }

  #finishedStatus(phase: 'Succeeded' | 'Failed', now: number) {
    const ok = phase === 'Succeeded';
    const context = this.#context;
    const evicted = context?.evictionMessage;
    const reason = ok ? 'PodCompleted' : 'PodFailed';
    const ran = this.#runningMs > 0;
    return {
      phase, ...this.#base(now), ...(ran ? { podIP: this.podIP, podIPs: [{ ip: this.podIP }] } : {}),
      ...(evicted !== undefined ? { reason: 'Evicted', message: evicted } : {}),
      conditions: this.#setConditions(now, {
        PodReadyToStartContainers: ['False'], Initialized: ['True'], Ready: ['False', reason], ContainersReady: ['False', reason], PodScheduled: ['True'],
      }),
      containerStatuses: this.#containers.map((c) => ({
        name: c.name, image: c.image, imageID: ran ? `${c.image.split(':')[0]}@sha256:${digest(c.image)}` : '', containerID: c.id,
        ready: false, restartCount: context?.restarts ?? 0, started: false,
        state: { terminated: { exitCode: ok ? 0 : evicted !== undefined ? 137 : context?.exitCode ?? 1, reason: ok ? 'Completed' : 'Error', containerID: c.id,
          startedAt: timestamp(this.#runningMs || now), finishedAt: timestamp(now) } },
      })),
    };
  }
}
