// The in-process bus: the embedded default. Messages are delivered in publish order from a
// queue drained on the microtask queue (or after `latencyMs` on the given clock), so under the
// simulator's virtual clock a run is deterministic. Every subscriber receives the same bytes:
// encode once, never copy; subscribers must not modify what they receive. A Deferred body reaches
// subscribers as its value, encoded only if one of them reads `data`.
import type { Clock } from '../actors/api/env.ts';
import { BusClosedError, BusTimeoutError, Deferred, checkSubject, NoRespondersError, type Body, type Bus, type Message, type SubscribeOptions, type Subscription } from './bus.ts';
import { SubjectIndex } from './subject-index.ts';

export interface MemoryBusOptions {
  clock: Clock;
  /** Told of handlers that throw; by default they are written to stderr. */
  onError?: (error: unknown, subject: string) => void;
  /** Delay of every delivery on the clock; 0 delivers on the microtask queue. */
  latencyMs?: number;
}

/** Where replies to this bus's requests go: `_INBOX.mux.<n>`. */
const REPLY_PREFIX = '_INBOX.mux.';

interface Sub {
  subject: string;
  handler: (msg: Message) => void;
  queue?: string;
  closed: boolean;
}

export class MemoryBus implements Bus {
  readonly #clock: Clock;
  readonly #latencyMs: number;
  readonly #onError: (error: unknown, subject: string) => void;
  readonly #index = new SubjectIndex<Sub>();
  #pending: Message[] = [];
  #scheduled = false;
  #state: 'open' | 'draining' | 'closed' = 'open';
  #inbox = 0;
  readonly #replies = new Map<string, (msg: Message) => void>();
  #replySub: Subscription | undefined;
  /** Round-robin position per queue group, so a group's members share the load evenly and deterministically. */
  readonly #turns = new Map<string, number>();
  readonly #inFlight = new Set<{ reject(e: Error): void }>();
  #idle: (() => void)[] = [];

  constructor(o: MemoryBusOptions) {
    this.#clock = o.clock;
    this.#latencyMs = o.latencyMs ?? 0;
    this.#onError = o.onError ?? ((e, subject) => console.error(`bus handler for ${subject} failed:`, e));
  }

  publish(subject: string, data: Body, reply?: string): void {
    if (this.#state !== 'open') throw new BusClosedError();
    checkSubject(subject, false);
    const msg: Message = data instanceof Deferred ? new DeferredMessage(subject, data, reply) : reply === undefined ? { subject, data } : { subject, data, reply };
    if (this.#latencyMs > 0) {
      this.#clock.setTimeout(() => this.#deliver(msg), this.#latencyMs);
      return;
    }
    this.#pending.push(msg);
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.#run());
    }
  }

  hasSubscribers(subject: string): boolean {
    return this.#index.has(subject);
  }

  subscribe(subject: string, handler: (msg: Message) => void, opts: SubscribeOptions = {}): Subscription {
    if (this.#state === 'closed') throw new BusClosedError();
    checkSubject(subject, true);
    const sub: Sub = { subject, handler, closed: false, ...(opts.queue ? { queue: opts.queue } : {}) };
    this.#index.add(subject, sub);
    return {
      subject,
      unsubscribe: () => {
        sub.closed = true;
        this.#index.remove(subject, sub);
      },
    };
  }

  request(subject: string, data: Body, timeoutMs: number): Promise<Message> {
    if (this.#state !== 'open') return Promise.reject(new BusClosedError());
    checkSubject(subject, false);
    if (!this.#index.has(subject)) return Promise.reject(new NoRespondersError(subject));
    // One wildcard subscription receives every reply (as the NATS client multiplexes its inboxes):
    // a subscription per request cost more than the rest of an in-process request's routing.
    this.#replySub ??= this.subscribe(`${REPLY_PREFIX}*`, (msg) => this.#replies.get(msg.subject)?.(msg));
    const inbox = `${REPLY_PREFIX}${++this.#inbox}`;
    return new Promise((resolve, reject) => {
      const entry = { reject: (e: Error) => finish(() => reject(e)) };
      const finish = (then: () => void) => {
        this.#replies.delete(inbox);
        this.#clock.clearTimeout(timer);
        this.#inFlight.delete(entry);
        then();
      };
      this.#replies.set(inbox, (msg) => finish(() => resolve(msg)));
      const timer = this.#clock.setTimeout(() => finish(() => reject(new BusTimeoutError(subject, timeoutMs))), timeoutMs);
      this.#inFlight.add(entry);
      this.publish(subject, data, inbox);
    });
  }

  flush(): Promise<void> {
    if (!this.#scheduled) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async drain(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'draining';
    await this.flush();
    await this.close();
  }

  async close(): Promise<void> {
    this.#state = 'closed';
    this.#pending = [];
    for (const r of [...this.#inFlight]) r.reject(new BusClosedError());
  }

  #run(): void {
    // Messages published by handlers during this run join the end of the same run.
    for (let i = 0; i < this.#pending.length; i++) this.#deliver(this.#pending[i]);
    this.#pending = [];
    this.#scheduled = false;
    const idle = this.#idle;
    this.#idle = [];
    for (const resolve of idle) resolve();
  }

  /** A failing handler does not stop delivery to the others. */
  #call(sub: Sub, msg: Message): void {
    try {
      sub.handler(msg);
    } catch (e) {
      this.#onError(e, msg.subject);
    }
  }

  #deliver(msg: Message): void {
    if (this.#state === 'closed') return;
    // Queue groups in the order first met, each with its members. Almost every message meets one
    // group at most (an API request's servers): that one is kept without a map.
    let firstQueue: string | undefined;
    let firstMembers: Sub[] | undefined;
    let others: Map<string, Sub[]> | undefined;
    for (const sub of this.#index.match(msg.subject)) {
      if (sub.closed) continue;
      if (!sub.queue) {
        this.#call(sub, msg);
        continue;
      }
      if (firstQueue === undefined || firstQueue === sub.queue) {
        firstQueue = sub.queue;
        (firstMembers ??= []).push(sub);
        continue;
      }
      others ??= new Map();
      const members = others.get(sub.queue);
      if (members) members.push(sub);
      else others.set(sub.queue, [sub]);
    }
    if (firstQueue === undefined) return;
    this.#callOne(firstQueue, firstMembers!, msg);
    if (others) for (const [queue, members] of others) this.#callOne(queue, members, msg);
  }

  /** One member of a queue group, in turn. */
  #callOne(queue: string, members: Sub[], msg: Message): void {
    const turn = this.#turns.get(queue) ?? 0;
    this.#turns.set(queue, turn + 1);
    this.#call(members[turn % members.length]!, msg);
  }
}

/** A message with a Deferred body: its value for whoever reads it, its bytes made on demand. */
class DeferredMessage implements Message {
  constructor(
    readonly subject: string,
    readonly body: Deferred,
    readonly reply: string | undefined,
  ) {}

  get data(): Uint8Array {
    return this.body.bytes;
  }

  get value(): unknown {
    return this.body.value;
  }
}
