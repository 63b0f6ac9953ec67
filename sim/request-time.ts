// The time API requests take, when a scenario asks for it (`requestTime:`): each request over the
// bus reaches the API server a network delay after it is sent, waits for one of the server's
// `inflight` slots, is served for a time drawn from the run's seeded stream (exponential about the
// read or write mean), and its reply travels the network delay back. Without it every request is
// answered at the instant it is sent. The client side's own queue (each component's QPS limit)
// is the client's, as before. The server sees this as its bus: the model wraps the server's
// subscriptions to the request subjects and delays the replies it publishes; watch events go out
// at once. The model starts with the run (`start`): the cluster comes up and the workloads are set
// up at its first instant, as a cluster already running when the scenario begins.
import type { Clock, Random } from '../actors/api/env.ts';
import { CHANGES_SUBJECT, REQUEST_SUBJECT } from '../actors/apiserver/bus-endpoint.ts';
import type { Body, Bus, Message, SubscribeOptions, Subscription } from '../transport/bus.ts';
import { ForwardingBus } from '../transport/forwarding-bus.ts';

export interface RequestTimeModel {
  /** One way, between a component and the API server. */
  networkMs: number;
  /** Mean service time of a read (GET, LIST, a watch's backlog) and of a write. */
  readMs: number;
  writeMs: number;
  /** Requests the server serves at once; more wait their turn. */
  inflight: number;
}

/** Where the time of the run's requests went. */
export interface RequestTimes {
  requests: number;
  networkMs: number;
  /** Per request: waiting for a server slot, and being served. */
  queueMs: number[];
  serviceMs: number[];
}

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Whole milliseconds: the virtual clock's unit, which object timestamps (MicroTime included) are written from. */
const round = (ms: number) => Math.round(ms);

export class ServedBus extends ForwardingBus {
  readonly times: RequestTimes;
  /** When each busy slot frees (virtual ms): a binary min-heap, at most `inflight` long. */
  readonly #busy: number[] = [];
  /** Reply subjects of requests in service: their replies travel back over the network. */
  readonly #replies = new Set<string>();
  #on = false;

  constructor(inner: Bus, readonly clock: Clock, readonly random: Random, readonly model: RequestTimeModel) {
    super(inner);
    this.times = { requests: 0, networkMs: model.networkMs, queueMs: [], serviceMs: [] };
  }

  /** Requests take time from now on. */
  start(): void {
    this.#on = true;
  }

  override publish(subject: string, data: Body, reply?: string): void {
    if (this.#replies.size === 0 || !this.#replies.delete(subject)) return this.inner.publish(subject, data, reply);
    this.clock.setTimeout(() => this.inner.publish(subject, data, reply), this.model.networkMs);
  }

  override subscribe(subject: string, handler: (msg: Message) => void, opts?: SubscribeOptions): Subscription {
    if (subject !== REQUEST_SUBJECT && subject !== CHANGES_SUBJECT) return this.inner.subscribe(subject, handler, opts);
    return this.inner.subscribe(subject, (msg) => {
      if (!msg.reply || !this.#on) return handler(msg);
      this.#replies.add(msg.reply);
      this.clock.setTimeout(() => handler(msg), this.#schedule(msg));
    }, opts);
  }

  /**
   * When the request reaches its handler, from now: it arrives a network delay on, takes the slot
   * free first (FIFO: requests arrive in the order they were sent) and is served for its draw.
   */
  #schedule(msg: Message): number {
    const now = this.clock.now();
    const arrives = now + this.model.networkMs;
    const method = msg.subject === REQUEST_SUBJECT ? (msg.value as { method?: string } | undefined)?.method : 'GET';
    const mean = method !== undefined && WRITE.has(method) ? this.model.writeMs : this.model.readMs;
    const service = round(-mean * Math.log(1 - this.random.next()));
    // Requests arrive in the order they were sent (the delay is the same for all): slots freed by
    // then are free; with every slot busy, the request takes the one that frees first.
    const busy = this.#busy;
    while (busy.length > 0 && busy[0]! <= arrives) popMin(busy);
    const start = busy.length < this.model.inflight ? arrives : popMin(busy);
    const done = start + service;
    pushHeap(busy, done);
    this.times.requests++;
    this.times.queueMs.push(round(start - arrives));
    this.times.serviceMs.push(service);
    return done - now;
  }
}

function pushHeap(h: number[], v: number): void {
  let i = h.push(v) - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (h[parent]! <= v) break;
    h[i] = h[parent]!;
    i = parent;
  }
  h[i] = v;
}

function popMin(h: number[]): number {
  const top = h[0]!;
  const last = h.pop()!;
  if (h.length === 0) return top;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= h.length) break;
    const c = l + 1 < h.length && h[l + 1]! < h[l]! ? l + 1 : l;
    if (h[c]! >= last) break;
    h[i] = h[c]!;
    i = c;
  }
  h[i] = last;
  return top;
}
