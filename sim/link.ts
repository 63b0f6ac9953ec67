// A component's link to the bus, for faults: while paused, what the component sends (publishes and
// requests) is held and goes out, in order, when the pause ends, as from a process that froze;
// while cut, it is lost (a request times out unanswered), as from a partitioned node; with a loss
// probability, each message is lost with it (drawn from the link's seeded stream); with extra
// latency, each goes out that much later. What the component receives is not touched, unless the
// link is deaf (the bus itself is down): then what is published to it is lost too.
import type { Clock, Random } from '../actors/api/env.ts';
import { BusTimeoutError, type Body, type Bus, type Message, type SubscribeOptions, type Subscription } from '../transport/bus.ts';
import { ForwardingBus } from '../transport/forwarding-bus.ts';

/** A request the link lost: it times out like any unanswered one, and says the fault caused it. */
export class LostRequestError extends BusTimeoutError {}

export class Link extends ForwardingBus {
  #pausedUntil = -Infinity;
  #held: (() => void)[] = [];
  #timer: unknown;

  /** Each message sent is lost with this probability (0..1). */
  loss = 0;
  /** Extra delay of each message sent, in ms. */
  latencyMs = 0;

  constructor(inner: Bus, readonly clock: Clock, readonly random: Random) {
    super(inner);
  }

  #lost(): boolean {
    return this.cut || (this.loss > 0 && this.random.next() < this.loss);
  }

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
  /** Loses everything delivered to the component while `deaf` holds. */
  deaf = false;

  get paused(): boolean {
    return this.clock.now() < this.#pausedUntil;
  }

  override publish(subject: string, data: Body, reply?: string): void {
    if (this.#lost()) return;
    const send = () => this.inner.publish(subject, data, reply);
    if (this.paused) this.#held.push(send);
    else if (this.latencyMs > 0) this.clock.setTimeout(send, this.latencyMs);
    else send();
  }

  override subscribe(subject: string, handler: (msg: Message) => void, opts?: SubscribeOptions): Subscription {
    return this.inner.subscribe(subject, (msg) => {
      if (!this.deaf) handler(msg);
    }, opts);
  }

  override request(subject: string, data: Body, timeoutMs: number): Promise<Message> {
    if (this.#lost()) return new Promise((_, reject) => this.clock.setTimeout(() => reject(new LostRequestError(subject, timeoutMs)), timeoutMs));
    if (!this.paused && this.latencyMs === 0) return this.inner.request(subject, data, timeoutMs);
    return new Promise((resolve, reject) => {
      const send = () => void this.inner.request(subject, data, timeoutMs).then(resolve, reject);
      if (this.paused) this.#held.push(send);
      else this.clock.setTimeout(send, this.latencyMs);
    });
  }

  #resume(): void {
    this.#timer = undefined;
    const held = this.#held;
    this.#held = [];
    for (const send of held) send();
  }
}
