// A component's link to the bus, for faults: while paused, what the component sends (publishes and
// requests) is held and goes out, in order, when the pause ends, as from a process that froze;
// while cut, it is lost (a request times out unanswered), as from a partitioned node. What the
// component receives is not touched. Everything else passes straight through.
import type { Clock } from '../actors/api/env.ts';
import { BusTimeoutError, type Body, type Bus, type Message, type SubscribeOptions, type Subscription } from '../transport/bus.ts';

export class Link implements Bus {
  #pausedUntil = -Infinity;
  #held: (() => void)[] = [];
  #timer: unknown;

  constructor(readonly inner: Bus, readonly clock: Clock) {}

  /** Holds everything sent from now for `ms`; a longer pause extends a current one. */
  pause(ms: number): void {
    const until = this.clock.now() + ms;
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    this.clock.clearTimeout(this.#timer);
    this.#timer = this.clock.setTimeout(() => this.#resume(), ms);
  }

  /** Loses everything sent while `cut` holds. */
  cut = false;

  get paused(): boolean {
    return this.clock.now() < this.#pausedUntil;
  }

  publish(subject: string, data: Body, reply?: string): void {
    if (this.cut) return;
    if (this.paused) this.#held.push(() => this.inner.publish(subject, data, reply));
    else this.inner.publish(subject, data, reply);
  }

  subscribe(subject: string, handler: (msg: Message) => void, opts?: SubscribeOptions): Subscription {
    return this.inner.subscribe(subject, handler, opts);
  }

  request(subject: string, data: Body, timeoutMs: number): Promise<Message> {
    if (this.cut) return new Promise((_, reject) => this.clock.setTimeout(() => reject(new BusTimeoutError(subject, timeoutMs)), timeoutMs));
    if (!this.paused) return this.inner.request(subject, data, timeoutMs);
    return new Promise((resolve, reject) => this.#held.push(() => this.inner.request(subject, data, timeoutMs).then(resolve, reject)));
  }

  hasSubscribers(subject: string): boolean {
    return this.inner.hasSubscribers?.(subject) ?? true;
  }

  flush(): Promise<void> {
    return this.inner.flush();
  }

  drain(): Promise<void> {
    return this.inner.drain();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  #resume(): void {
    this.#timer = undefined;
    const held = this.#held;
    this.#held = [];
    for (const send of held) send();
  }
}
