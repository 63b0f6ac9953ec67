// The receiving side of watch in one process: one bus subscription per distinct subject,
// however many watchers share it; each message is decoded once and handed to every local
// watcher of that subject in memory (decoding, not NATS, is what limits fan-out).
import type { Bus, Subscription } from '../../../transport/bus.ts';
import { decodeEvent, decodeProgress, type BusEvent } from './events.ts';
import { PROGRESS_SUBJECT } from './subjects.ts';

export type EventListener = (e: BusEvent) => void;

interface Topic {
  sub: Subscription;
  listeners: Set<EventListener>;
}

export class WatchHub {
  readonly #topics = new Map<string, Topic>();
  /** The in-process bus hands every subscriber the same bytes: decode them once across topics. */
  readonly #decoded = new WeakMap<Uint8Array, BusEvent>();
  readonly #progress = new Set<(revision: number) => void>();
  #progressSub: Subscription | undefined;

  constructor(readonly bus: Bus) {}

  /** Calls `listener` with every event published on `subject` from now on; returns the way to stop. */
  listen(subject: string, listener: EventListener): () => void {
    let topic = this.#topics.get(subject);
    if (!topic) {
      const listeners = new Set<EventListener>();
      const sub = this.bus.subscribe(subject, (msg) => {
        let event = this.#decoded.get(msg.data);
        if (!event) {
          event = decodeEvent(msg.data);
          this.#decoded.set(msg.data, event);
        }
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

  /** Calls `listener` with the newest revision each time the server says everything up to it was published. */
  onProgress(listener: (revision: number) => void): () => void {
    if (!this.#progressSub)
      this.#progressSub = this.bus.subscribe(PROGRESS_SUBJECT, (msg) => {
        const { revision } = decodeProgress(msg.data);
        for (const l of this.#progress) l(revision);
      });
    this.#progress.add(listener);
    return () => {
      this.#progress.delete(listener);
      if (this.#progress.size === 0 && this.#progressSub) {
        this.#progressSub.unsubscribe();
        this.#progressSub = undefined;
      }
    };
  }

  /** Subjects with at least one watcher: what the fan-out benchmark and tests inspect. */
  get subjects(): string[] {
    return [...this.#topics.keys()];
  }
}
