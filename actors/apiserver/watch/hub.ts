// The receiving side of watch in one process: one bus subscription per distinct subject,
// however many watchers share it; each message is decoded once and handed to every local
// watcher of that subject in memory (decoding, not NATS, is what limits fan-out). Messages of
// the in-process bus are neither encoded nor decoded: they carry the event itself (events.ts).
import type { Bus, Subscription } from '../../../transport/bus.ts';
import { eventOf, progressOf, type BusEvent } from './events.ts';
import { isPrivateSubject, PROGRESS_SUBJECT } from './subjects.ts';

export type EventListener = (e: BusEvent) => void;

interface Topic {
  sub: Subscription;
  listeners: Set<EventListener>;
}

export class WatchHub {
  readonly #topics = new Map<string, Topic>();
  #progressFollowers = 0;
  #progressRevision = 0;
  #progressSub: Subscription | undefined;

  /** `local`: the API server's bus for private kinds' subjects (subjects.ts); elsewhere there is none, and they carry nothing. */
  constructor(readonly bus: Bus, readonly local?: Bus) {}

  /** Calls `listener` with every event published on `subject` from now on; returns the way to stop. */
  listen(subject: string, listener: EventListener): () => void {
    let topic = this.#topics.get(subject);
    if (!topic) {
      const listeners = new Set<EventListener>();
      // No cache of decoded messages here: over NATS every message is a new buffer, and an entry
      // per message in a WeakMap cost about 15% of the throughput of one watcher.
      const on = this.local && isPrivateSubject(subject) ? this.local : this.bus;
      const sub = on.subscribe(subject, (msg) => {
        const event = eventOf(msg);
        for (const l of listeners) l(event);
      });
      this.#topics.set(subject, (topic = { sub, listeners }));
    }
    topic.listeners.add(listener);
    const t = topic;
    return () => {
      t.listeners.delete(listener);
      if (t.listeners.size === 0 && this.#topics.get(subject) === t) {
        t.sub.unsubscribe();
        this.#topics.delete(subject);
      }
    };
  }

  /**
   * Keeps `progressRevision` current while at least one watcher wants bookmarks; returns the way
   * to stop. Watchers read the revision when a bookmark is due rather than being called with each
   * progress message: a message per burst of commits then costs the same with 5,000 watchers as
   * with one.
   */
  followProgress(): () => void {
    if (this.#progressFollowers++ === 0)
      this.#progressSub = this.bus.subscribe(PROGRESS_SUBJECT, (msg) => {
        this.#progressRevision = Math.max(this.#progressRevision, progressOf(msg).revision);
      });
    let following = true;
    return () => {
      if (!following) return;
      following = false;
      if (--this.#progressFollowers === 0) {
        this.#progressSub?.unsubscribe();
        this.#progressSub = undefined;
      }
    };
  }

  /**
   * The newest revision the server said every event up to was published at, as heard while some
   * watcher followed progress (0 before that). It may predate a watcher's start: a started watcher
   * has seen everything up to the store's revision at its start, which is at least this.
   */
  get progressRevision(): number {
    return this.#progressRevision;
  }

  /** Subjects with at least one watcher: what the fan-out benchmark and tests inspect. */
  get subjects(): string[] {
    return [...this.#topics.keys()];
  }
}
