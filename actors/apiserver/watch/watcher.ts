// One watch: the initial state (synthetic ADDED, or the history after a version), then live
// events from the hub, filtered by selectors (an object that starts matching arrives as ADDED,
// one that stops matching as DELETED), in revision order, each once. A watcher that falls
// behind its sink by more than `capacity` events is cut off with an ERROR 410, never waited on.
import type { Clock } from '../../api/env.ts';
import type { Matcher } from '../../api/selectors.ts';
import { StatusError, type Status } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { StorageError } from '../storage/errors.ts';
import type { Store } from '../storage/store.ts';
import { prevForFilter, prevState, type BusEvent } from './events.ts';
import type { WatchHub } from './hub.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: KObject | Status;
}

export interface WatchSpec {
  subject: string;
  /** Keys of the watched collection: history and the initial list read under it. */
  keyPrefix: string;
  /** Set when one object is watched: its exact key. */
  key?: string;
  filter?: Matcher;
  /** `state`: synthetic ADDED for the current objects first; `after`: changes after this revision only. */
  start: { from: 'state' } | { from: 'after'; revision: number };
  bookmarks: boolean;
  bookmarkIntervalMs: number;
  /** Events queued for a slow sink before the watcher is cut off. */
  capacity: number;
}

/** Where events go. `send` answers false when the sink cannot take more for now; `resume` is called when it can. */
export interface WatchSink {
  send(e: WatchEvent): boolean;
  onResume(fn: () => void): void;
  /** The watch ended (an error was sent, or it was stopped); the sink should close. */
  end(): void;
}

export class Watcher {
  #queue: WatchEvent[] = [];
  /** Initial and history events still queued: they do not count against the capacity, as in real servers. */
  #initialQueued = 0;
  #starting = true;
  #buffer: BusEvent[] = [];
  #ready = false;
  #paused = false;
  #stopped = false;
  #lastRevision = 0;
  #sinceBookmark = false;
  #cleanups: (() => void)[] = [];
  #bookmarkTimer: unknown;

  constructor(
    readonly spec: WatchSpec,
    readonly deps: { hub: WatchHub; store: Store; clock: Clock },
    readonly sink: WatchSink,
  ) {}

  get revision(): number {
    return this.#lastRevision;
  }

  async start(): Promise<void> {
    const { hub, store } = this.deps;
    this.#cleanups.push(hub.listen(this.spec.subject, (e) => (this.#ready ? this.#live(e) : this.#buffer.push(e))));
    if (this.spec.bookmarks) {
      this.#cleanups.push(hub.followProgress());
      this.#scheduleBookmark();
    }
    this.sink.onResume(() => {
      this.#paused = false;
      this.#pump();
    });
    // The subscription is live at the server before the initial state is read: anything
    // committed later arrives on it, anything earlier is in the state or the history.
    await hub.bus.flush();
    if (this.#stopped) return;
    try {
      await this.#initial(store);
    } catch (e) {
      if (!(e instanceof StorageError && e.code === 'Compacted')) throw e;
      return this.#fail(new StatusError(410, 'Expired', `too old resource version: ${e.revision} (${store.compactedRevision})`));
    }
    this.#starting = false;
    this.#ready = true;
    for (const e of this.#buffer) this.#live(e);
    this.#buffer = [];
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const c of this.#cleanups) c();
    this.#cleanups = [];
    this.#queue = [];
  }

  async #initial(store: Store): Promise<void> {
    const start = this.spec.start;
    if (start.from === 'state') {
      const list = await store.list(this.spec.keyPrefix, { filter: (o) => this.#inScope(o) && (!this.spec.filter || this.spec.filter(o)) });
      this.#lastRevision = list.revision;
      for (const object of list.items) this.#enqueue({ type: 'ADDED', object });
      return;
    }
    const current = store.revision;
    this.#lastRevision = start.revision;
    // A version newer than the newest: wait for it on the live stream (seed 000 lets a watch wait).
    if (start.revision >= current) return;
    for (const change of store.changesSince(start.revision)) {
      if (!change.key.startsWith(this.spec.keyPrefix) || (this.spec.key !== undefined && change.key !== this.spec.key)) continue;
      this.#live(change);
    }
    this.#lastRevision = Math.max(this.#lastRevision, current);
  }

  #inScope(o: KObject): boolean {
    return this.spec.key === undefined || this.spec.key.endsWith(`/${o.metadata.name}`);
  }

  #live(e: BusEvent): void {
    if (this.#stopped || e.revision <= this.#lastRevision) return;
    this.#lastRevision = e.revision;
    const out = transform(e, this.spec.filter);
    if (out) this.#enqueue(out);
  }

  #enqueue(e: WatchEvent): void {
    if (this.#stopped) return;
    this.#sinceBookmark = true;
    // Nothing waiting ahead of it: straight to the sink (the common case, one event at a time).
    if (!this.#paused && this.#queue.length === 0) {
      if (!this.sink.send(e)) this.#paused = true;
      return;
    }
    this.#queue.push(e);
    if (this.#starting) this.#initialQueued++;
    if (this.#queue.length - this.#initialQueued > this.spec.capacity) {
      return this.#fail(new StatusError(410, 'Expired', `the watcher fell more than ${this.spec.capacity} events behind; relist and watch again`));
    }
    this.#pump();
  }

  #pump(): void {
    while (!this.#paused && this.#queue.length > 0 && !this.#stopped) {
      const e = this.#queue.shift()!;
      if (this.#initialQueued > 0) this.#initialQueued--;
      if (!this.sink.send(e)) this.#paused = true;
    }
  }

  #scheduleBookmark(): void {
    if (this.#bookmarkTimer === undefined) this.#cleanups.push(() => this.deps.clock.clearTimeout(this.#bookmarkTimer));
    this.#bookmarkTimer = this.deps.clock.setTimeout(() => {
      if (this.#stopped) return;
      // A bookmark on an idle watch, at the newest revision this watcher is known to have seen all events for.
      if (!this.#sinceBookmark && this.#ready && this.#queue.length === 0) {
        const revision = Math.max(this.#lastRevision, this.deps.hub.progressRevision);
        this.#lastRevision = revision;
        this.sink.send({ type: 'BOOKMARK', object: { metadata: { resourceVersion: String(revision) } } as KObject });
      }
      this.#sinceBookmark = false;
      this.#scheduleBookmark();
    }, this.spec.bookmarkIntervalMs);
  }

  /** Sends one ERROR event carrying the Status, then ends the watch (clients recover on stream end). */
  #fail(e: StatusError): void {
    const status = e.status;
    this.stop();
    this.sink.send({ type: 'ERROR', object: status });
    this.sink.end();
  }
}

// The state an object had when it stopped matching, stamped with the event's version, made
// once per event so every watcher that sees it shares (and encodes) one object.
const leftStates = new WeakMap<BusEvent, KObject>();

function leftState(e: BusEvent): KObject {
  let obj = leftStates.get(e);
  if (!obj) {
    const prev = prevState(e)!;
    obj = { ...prev, metadata: { ...prev.metadata, resourceVersion: String(e.revision) } };
    leftStates.set(e, obj);
  }
  return obj;
}

/**
 * A change as a watcher with this filter sees it. An object that stops matching is DELETED,
 * carrying its previous state with the new version (as real servers' cache watchers send it).
 */
export function transform(e: BusEvent, filter: Matcher | undefined): WatchEvent | undefined {
  if (!filter) return { type: e.type, object: e.object };
  if (e.type === 'DELETED') return filter(e.object) ? { type: 'DELETED', object: e.object } : undefined;
  const now = filter(e.object);
  const before = prevForFilter(e);
  const was = e.type === 'MODIFIED' && before !== undefined && filter(before);
  if (now && was) return { type: 'MODIFIED', object: e.object };
  if (now) return { type: 'ADDED', object: e.object };
  if (was) return { type: 'DELETED', object: leftState(e) };
  return undefined;
}
