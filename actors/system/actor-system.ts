// One actor system per process: every machine the process hosts runs under a stable id
// (`node/<name>`, `pod/<ns>/<name>`, `zone/<key>`, ...), and every start, transition and stop is
// recorded on the process's clock (records.ts). The system keeps the current state of each actor,
// the count of actors per machine and state, and a ring of the newest records; listeners (the
// JSON-lines log, an inspector) get every record as it happens.
//
// Three ways in:
// - `host(machine, { id })` creates an XState actor on the system's clock whose transitions are
//   recorded: the actor runs the machine through a thin wrapper of its `start` and `transition`,
//   and each event that leaves the actor in another state is a transition record (one record per
//   event, however many microsteps it took; an event that only runs actions, or leaves and enters
//   the same states, is none). XState's inspection events are not used: they cost an object per
//   event, action and microstep of every actor;
// - `hibernate(actor)` stops a live actor that keeps its place (a pod waiting only for its
//   deletion keeps its state and context, not a live actor): nothing is recorded, and
//   `wake(machine, id, snapshot)` brings it back; `end(id)` records its stop;
// - `track`, `move`, `untrack` record an object driven through a machine's pure transition
//   functions (the registry's objects while they terminate), with no live actor at all;
// - `host(machine, { id, adopt: true })` lets a live actor take over the record of a tracked one
//   of the same machine (a pod the scheduler queued, Pending, then run by its node agent);
//   `handOver(id)` ends a tracked record unless a live actor adopts it within the clock's current
//   instant (the hosts that would adopt it hear of the change in the same instant, in no set order);
//   `release(id)` ends it now unless adopted.
// Ids are unique while their actor lives: a second actor asking for a live id gets `id#2`.
//
// Who sent an event (senders.ts): a hosted actor's `send` notes the sender running at the time, and
// its transition record carries it; a tracked object's move, the sender running at the move.
// While one of its actors takes an event, and while an actor it invoked starts, the system runs
// that actor's frame, so what it sends, and the requests it makes (`sent`), are its own.
import { createActor, type InspectionEvent, type Observer, type Actor, type ActorOptions, type AnyActorRef, type AnyActorScope, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import type { Clock } from '../api/env.ts';
import { stateName, type InspectionRecord, type SendRecord } from './records.ts';
import { currentSender, enter, leave } from './senders.ts';

export interface ActorSystemOptions {
  /** Records kept in memory, newest last (the inspector's recent history). */
  recentRecords?: number;
  /** Records kept for each actor while it lives (an inspector's page of one actor); 0: none. */
  recordsPerActor?: number;
  /** XState's inspection observer for the actors with these ids (the Stately inspector's few chosen actors). */
  inspect?: (id: string) => Inspect | undefined;
}

/** XState's inspection observer, as `createActor` takes it. */
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/** An actor as the system lists it. */
export interface ActorInfo {
  readonly id: string;
  readonly machine: string;
  readonly state: string;
  /** Numbers the actors of one system in the order they were added (a stable place to page from). */
  readonly serial: number;
  /** The node it belongs to, when its host said (a node's own machines, the pods it runs). */
  readonly node?: string;
}

interface Entry {
  readonly id: string;
  readonly machine: string;
  readonly serial: number;
  state: string;
  /** The live XState actor; undefined while it hibernates, and for tracked objects. */
  actor: AnyActorRef | undefined;
  /** Its start is recorded. */
  started: boolean;
  /** Stopped to save memory, not ended: its stop is not a record. */
  hibernating: boolean;
  /** A hand-over is under way (see handOver). */
  handingOver: boolean;
  /** Its newest records, when the system keeps them per actor. */
  history: InspectionRecord[] | undefined;
  /** The node it belongs to (HostOptions.node). */
  node: string | undefined;
}

export type HostOptions<T extends AnyStateMachine> = Omit<ActorOptions<T>, 'clock' | 'inspect' | 'id' | 'systemId' | 'parent'> & {
  id: string;
  /** Take over the record of a tracked actor of this id and machine, if there is one. */
  adopt?: boolean;
  /** The node the actor belongs to (a node's own machines, the pods it runs), for an inspector to filter by. */
  node?: string;
};

const defaults: Required<ActorSystemOptions> = { recentRecords: 4_096, recordsPerActor: 0, inspect: () => undefined };

/** What an actor calls on its machine, as XState calls it. */
interface Lifecycle {
  start(snapshot: AnyMachineSnapshot, scope: AnyActorScope): void;
  transition(snapshot: AnyMachineSnapshot, event: EventObject, scope: AnyActorScope): AnyMachineSnapshot;
  implementations: { actors: Record<string, unknown> };
}

/** An invoked actor's logic, as far as its start goes. */
interface ChildLogic {
  start?(snapshot: unknown, scope: AnyActorScope): void;
}

/** The system hosting each live actor. */
const hostOf = new WeakMap<AnyActorRef, ActorSystem>();
const inFrame = Symbol('starts in its invoker\'s frame');

/** `logic` (an actor a machine invokes), starting in the frame of the hosted actor that invoked it. */
function startingInFrame(logic: ChildLogic): ChildLogic {
  const start = logic.start;
  if (!start || (logic as { [inFrame]?: true })[inFrame]) return logic;
  const wrapper = Object.create(logic) as ChildLogic & { [inFrame]?: true };
  wrapper[inFrame] = true;
  wrapper.start = (snapshot, scope) => {
    const parent = (scope.self as { _parent?: AnyActorRef })._parent;
    const system = parent && hostOf.get(parent);
    if (!system) return void start.call(logic, snapshot, scope);
    const frame = enter(parent.id, system);
    try {
      start.call(logic, snapshot, scope);
    } finally {
      leave(frame);
    }
  };
  return wrapper;
}

function info(e: Entry): ActorInfo {
  return e.node === undefined ? { id: e.id, machine: e.machine, state: e.state, serial: e.serial } : { id: e.id, machine: e.machine, state: e.state, serial: e.serial, node: e.node };
}

export class ActorSystem {
  readonly clock: Clock;
  /** The clock's time when the system began: records count from it. */
  readonly originMs: number;
  readonly #ring: (InspectionRecord | undefined)[];
  #ringNext = 0;
  #seq = 0;
  #serial = 0;
  readonly #perActor: number;
  readonly #inspect: (id: string) => Inspect | undefined;
  readonly #entries = new Map<string, Entry>();
  readonly #counts = new Map<string, Map<string, number>>();
  readonly #listeners = new Set<(record: InspectionRecord) => void>();
  readonly #sendListeners = new Set<(record: SendRecord) => void>();
  /** The sender each event was sent by, noted at the send (an event object sent again is noted again). */
  readonly #senderOf = new WeakMap<EventObject, string | undefined>();
  /** Each hosted machine's recording wrapper. */
  readonly #logic = new WeakMap<AnyStateMachine, AnyStateMachine>();

  constructor(clock: Clock, options: ActorSystemOptions = {}) {
    const o = { ...defaults, ...options };
    if (!(Number.isInteger(o.recentRecords) && o.recentRecords > 0)) throw new RangeError(`recentRecords must be a positive integer, got ${o.recentRecords}`);
    if (!(Number.isInteger(o.recordsPerActor) && o.recordsPerActor >= 0)) throw new RangeError(`recordsPerActor must be a whole number, got ${o.recordsPerActor}`);
    this.#perActor = o.recordsPerActor;
    this.#inspect = o.inspect;
    this.clock = clock;
    this.originMs = clock.now();
    this.#ring = new Array(o.recentRecords);
  }

  /** Creates (not starts) an actor of `machine` under `options.id`, on this system's clock. */
  host<T extends AnyStateMachine>(machine: T, options: HostOptions<T>): Actor<T> {
    const { adopt, node, ...actorOptions } = options;
    const tracked = adopt ? this.#entries.get(options.id) : undefined;
    const entry = tracked && tracked.started && !tracked.actor && !tracked.hibernating && tracked.machine === machine.id
      ? tracked : this.#add(this.#unique(options.id), machine.id);
    if (node !== undefined) entry.node = node;
    const actor = this.#noting(createActor(this.#recording(machine), { ...actorOptions, ...this.#inspected(entry.id), id: entry.id, clock: this.clock } as ActorOptions<T>) as Actor<T>);
    entry.actor = actor;
    return actor;
  }

  #inspected(id: string): { inspect?: Inspect } {
    const inspect = this.#inspect(id);
    return inspect ? { inspect } : {};
  }

  /** Stops `actor` without ending it: no stop is recorded, and `wake` brings it back. */
  hibernate(actor: AnyActorRef): void {
    const entry = this.#entries.get(actor.id);
    if (!entry || entry.actor !== actor) return void actor.stop();
    entry.hibernating = true;
    actor.stop();
    entry.actor = undefined;
  }

  /** Brings back the hibernating actor `id` from its snapshot (created, not started). */
  wake<T extends AnyStateMachine>(machine: T, id: string, options: Omit<HostOptions<T>, 'id'>): Actor<T> {
    const entry = this.#entries.get(id);
    if (!entry || !entry.hibernating) throw new Error(`no hibernating actor ${id} to wake`);
    const actor = this.#noting(createActor(this.#recording(machine), { ...options, ...this.#inspected(id), id, clock: this.clock } as ActorOptions<T>) as Actor<T>);
    entry.actor = actor;
    return actor;
  }

  /** Ends the hibernating actor `id`: its stop is recorded. */
  end(id: string): void {
    const entry = this.#entries.get(id);
    if (entry?.hibernating) this.#stop(entry);
  }

  /** Records an object driven by pure transitions starting in `state`; returns its id (unique while it lives). */
  track(id: string, machine: string, state: string): string {
    const entry = this.#add(this.#unique(id), machine);
    this.#start(entry, state);
    return entry.id;
  }

  /** Records a transition of the tracked object `id`, sent by the sender running now. */
  move(id: string, event: string, to: string): void {
    const entry = this.#entries.get(id);
    const sender = currentSender()?.id;
    if (entry) this.#transition(entry, event, to, sender === id ? undefined : sender);
  }

  /** Records the stop of the tracked object `id`. */
  untrack(id: string): void {
    const entry = this.#entries.get(id);
    if (entry) this.#stop(entry);
  }

  /** Ends the tracked record `id` unless a live actor took it over (or it hibernates). */
  release(id: string): void {
    const entry = this.#entries.get(id);
    if (entry && !entry.actor && !entry.hibernating) this.#stop(entry);
  }

  /** The tracked record `id` is another host's now: it ends unless a live actor adopts it before this instant is over. */
  handOver(id: string): void {
    const entry = this.#entries.get(id);
    if (entry && !entry.actor && !entry.hibernating && !entry.handingOver) {
      entry.handingOver = true;
      this.clock.setTimeout(() => {
        entry.handingOver = false;
        if (this.#entries.get(id) === entry) this.release(id);
      }, 0);
    }
  }

  /** The actor `id`: its machine and current state; undefined once stopped. */
  get(id: string): ActorInfo | undefined {
    const e = this.#entries.get(id);
    return e && e.started ? info(e) : undefined;
  }

  /** Every started actor, hibernating ones included, in the order they were added; only those after `afterSerial` when given (a page's start). */
  *actors(afterSerial = -1): IterableIterator<ActorInfo> {
    for (const e of this.#entries.values()) if (e.started && e.serial > afterSerial) yield info(e);
  }

  /** The live actor `id`'s snapshot (its context); undefined while it hibernates, for tracked objects, and once stopped. */
  snapshot(id: string): AnyMachineSnapshot | undefined {
    return this.#entries.get(id)?.actor?.getSnapshot() as AnyMachineSnapshot | undefined;
  }

  /** The newest records of the actor `id`, oldest first (kept when `recordsPerActor` is set); undefined once stopped. */
  history(id: string): readonly InspectionRecord[] | undefined {
    const e = this.#entries.get(id);
    return e?.started ? (e.history ?? []) : undefined;
  }

  /** Actors per machine and state. */
  counts(): ReadonlyMap<string, ReadonlyMap<string, number>> {
    return this.#counts;
  }

  /** The newest records, oldest first. */
  recent(): InspectionRecord[] {
    const n = this.#ring.length;
    const out: InspectionRecord[] = [];
    for (let i = 0; i < n; i++) {
      const r = this.#ring[(this.#ringNext + i) % n];
      if (r) out.push(r);
    }
    return out;
  }

  /** Calls `listener` with every record from now on; returns the way to stop. */
  onRecord(listener: (record: InspectionRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Calls `listener` with every request an actor of this system sends from now on; returns the way to stop. */
  onSend(listener: (record: SendRecord) => void): () => void {
    this.#sendListeners.add(listener);
    return () => this.#sendListeners.delete(listener);
  }

  /** Whether anyone listens for sends (a request's description is built only then). */
  get recordsSends(): boolean {
    return this.#sendListeners.size > 0;
  }

  /** The actor `id` sent `event` to `target` (a request to the API server). */
  sent(id: string, target: string, event: string): void {
    const entry = this.#entries.get(id);
    if (!entry?.started) return;
    const record: SendRecord = { t: this.#t(), kind: 'send', id, machine: entry.machine, target, event };
    for (const l of this.#sendListeners) l(record);
  }

  /**
   * Runs `fn` as the hosted actor `id`: what it sends is id's. For work an actor goes on with after
   * a wait (a pass that waited for a write), whose continuation runs in no frame of its own.
   */
  as<T>(id: string, fn: () => T): T {
    const frame = enter(id, this);
    try {
      return fn();
    } finally {
      leave(frame);
    }
  }

  /** Milliseconds of the system's clock since it began (what records' `t` count). */
  elapsedMs(): number {
    return this.#t();
  }

  /** Records so far. */
  get records(): number {
    return this.#seq;
  }

  // ---- Recording ----------------------------------------------------------------------------------

  /**
   * `machine` as its actors run it here: the same machine (an object whose prototype it is), with
   * `start` and `transition` telling the system what each did. Snapshots stay the machine's own.
   */
  #recording<T extends AnyStateMachine>(machine: T): T {
    let logic = this.#logic.get(machine);
    if (!logic) {
      // XState calls `start(snapshot, actorScope)`; its declaration names only the snapshot.
      const inner = machine as unknown as Lifecycle;
      const wrapper = Object.create(machine) as Lifecycle;
      wrapper.start = (snapshot, scope) => {
        // Recorded first: the requests its start makes (an invoked actor's first) are an actor's.
        this.#started(scope.self, snapshot);
        const frame = enter(scope.self.id, this);
        try {
          inner.start(snapshot, scope);
        } finally {
          leave(frame);
        }
      };
      wrapper.transition = (snapshot, event, scope) => {
        const frame = enter(scope.self.id, this);
        let next: AnyMachineSnapshot;
        try {
          next = inner.transition(snapshot, event, scope);
        } finally {
          leave(frame);
        }
        this.#transitioned(scope.self, snapshot, next, event);
        return next;
      };
      // The actors it invokes start in their invoker's frame: their first requests are its own.
      // (XState binds a machine's methods to it, so they find its implementations, not a wrapper's.)
      const actors = inner.implementations.actors;
      for (const name of Object.keys(actors)) actors[name] = startingInFrame(actors[name] as ChildLogic);
      this.#logic.set(machine, (logic = wrapper as unknown as AnyStateMachine));
    }
    return logic as T;
  }

  /** `actor`, its `send` noting who sent each event. */
  #noting<T extends AnyActorRef>(actor: T): T {
    hostOf.set(actor, this);
    const send = actor.send;
    const id = actor.id;
    actor.send = (event: EventObject) => {
      const sender = currentSender()?.id;
      this.#senderOf.set(event, sender === id ? undefined : sender);
      send(event);
    };
    return actor;
  }

  #started(actor: AnyActorRef, snapshot: AnyMachineSnapshot): void {
    const entry = this.#entries.get(actor.id);
    if (!entry || entry.actor !== actor) return;
    const state = stateName(snapshot.value);
    if (entry.hibernating) entry.hibernating = false; // woken: it never stopped
    else if (!entry.started) this.#start(entry, state);
    else if (entry.state !== state) this.#transition(entry, 'xstate.init', state, undefined); // adopted where the record was not
  }

  #transitioned(actor: AnyActorRef, before: AnyMachineSnapshot, after: AnyMachineSnapshot, event: EventObject): void {
    const entry = this.#entries.get(actor.id);
    if (!entry || entry.actor !== actor || !entry.started) return;
    // The same state nodes (an action-only event, most often): nothing to compare.
    if (after._nodes !== before._nodes && after.status !== 'stopped') {
      const to = stateName(after.value);
      if (to !== entry.state) this.#transition(entry, event.type, to, this.#senderOf.get(event));
    }
    if (after.status !== 'active' && !entry.hibernating) this.#stop(entry);
  }

  #unique(id: string): string {
    if (!this.#entries.has(id)) return id;
    for (let n = 2; ; n++) if (!this.#entries.has(`${id}#${n}`)) return `${id}#${n}`;
  }

  #add(id: string, machine: string): Entry {
    const entry: Entry = { id, machine, serial: this.#serial++, state: '', actor: undefined, started: false, hibernating: false, handingOver: false,
      history: this.#perActor > 0 ? [] : undefined, node: undefined };
    this.#entries.set(id, entry);
    return entry;
  }

  #start(entry: Entry, state: string): void {
    entry.started = true;
    entry.state = state;
    this.#count(entry.machine, state, 1);
    this.#emit({ t: this.#t(), seq: this.#seq++, kind: 'actor', id: entry.id, machine: entry.machine, to: state }, entry);
  }

  #transition(entry: Entry, event: string, to: string, sender: string | undefined): void {
    const from = entry.state;
    if (from !== to) {
      this.#count(entry.machine, from, -1);
      this.#count(entry.machine, to, 1);
      entry.state = to;
    }
    const t = this.#t();
    const seq = this.#seq++;
    this.#emit(sender === undefined ? { t, seq, kind: 'transition', id: entry.id, machine: entry.machine, event, from, to }
      : { t, seq, kind: 'transition', id: entry.id, machine: entry.machine, event, sender, from, to }, entry);
  }

  #stop(entry: Entry): void {
    this.#entries.delete(entry.id);
    entry.actor = undefined;
    if (!entry.started) return;
    this.#count(entry.machine, entry.state, -1);
    this.#emit({ t: this.#t(), seq: this.#seq++, kind: 'stop', id: entry.id, machine: entry.machine });
  }

  #count(machine: string, state: string, delta: number): void {
    let states = this.#counts.get(machine);
    if (!states) this.#counts.set(machine, (states = new Map()));
    const n = (states.get(state) ?? 0) + delta;
    if (n === 0) states.delete(state);
    else states.set(state, n);
  }

  #t(): number {
    return this.clock.now() - this.originMs;
  }

  #emit(record: InspectionRecord, entry?: Entry): void {
    const history = entry?.history;
    if (history) {
      if (history.length === this.#perActor) history.shift();
      history.push(record);
    }
    this.#ring[this.#ringNext] = record;
    this.#ringNext = (this.#ringNext + 1) % this.#ring.length;
    for (const l of this.#listeners) l(record);
  }
}
