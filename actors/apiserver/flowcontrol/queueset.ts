// One priority level's queues and seats, as the real server's queueset (apiserver
// pkg/util/flowcontrol/fairqueuing/queueset): fair queuing for server requests.
//
//   - A request arrives: its flow's hand of queues (shuffle-sharding.ts) is dealt and it joins the
//     hand's queue with the fewest waiting, or is refused ("queue-full") when that queue is at its
//     length limit while every seat is taken. A level without queues (limitResponse Reject) serves
//     at once or refuses ("concurrency-limit"); the exempt level always serves at once.
//   - While a seat is free and requests wait, the queue whose head would finish first in virtual
//     time is served (ties go round robin). Virtual time R advances at min(seats wanted, limit)
//     divided by the active queues, per second of the clock; serving a request adds its work (one
//     seat for 3 ms, the real estimate) to its queue's next dispatch R, and its end corrects that
//     by what it really took. A queue's next dispatch is never before its head's arrival.
//   - A request that waits past its limit leaves its queue, refused ("time-out"); one whose client
//     went away leaves it too ("cancelled").
//
// Simplified: every request takes one seat (the real work estimator gives lists and watches more,
// and mutating requests a time after they finish); when a level's queues shrink, idle queues
// beyond the new count are dropped from the end only, not from the middle with a renumbering; R
// is a plain number (no epochs).
import type { Clock } from '../../api/env.ts';
import { deal, flowHash } from './shuffle-sharding.ts';

export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** How a level queues: undefined queues for Reject, `exempt` for the exempt level. */
export interface QueuingConfig {
  exempt: boolean;
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** The requests of one flow schema at one level, waiting and executing: kept up to date here, read by the metrics. */
export interface FlowCounts {
  readonly flowSchema: string;
  waiting: number;
  executing: number;
}

/** What the level wants to know, for its metrics and its seat demand. */
export interface QueueSetObserver {
  rejected(flowSchema: string, reason: RejectReason): void;
  /** Seats in use plus seats wanted by waiting requests, after each change. */
  demand(seats: number): void;
}

/** The estimated service time of a request, in seconds (the real queueset's). */
const SERVICE_S = 0.003;
/** Hands remembered per level; beyond, the memory starts over. */
const MAX_HANDS = 10_000;

class Queue {
  head: Seat | undefined;
  tail: Seat | undefined;
  waiting = 0;
  executing = 0;
  nextDispatchR = 0;
  constructor(readonly index: number) {}
  get idle(): boolean {
    return this.waiting === 0 && this.executing === 0;
  }
}

/** Who waits for a queued request's fate. */
export interface SeatListener {
  /** Once: the request left its queue, served (true), or refused or gone (false). */
  leftQueue(served: boolean): void;
}

/** A request's place: waiting in a queue, then executing on a seat, then done. */
export class Seat {
  state: 'waiting' | 'executing' | 'done' = 'waiting';
  queue: Queue | undefined;
  arrivalR = 0;
  startedMs = 0;
  next: Seat | undefined;
  prev: Seat | undefined;
  listener: SeatListener | undefined;
  timer: unknown;
  constructor(readonly flow: FlowCounts) {}
}

export class QueueSet {
  #config: QueuingConfig;
  #limit: number;
  readonly #queues: Queue[] = [];
  /** Queues with requests waiting. */
  readonly #nonEmpty = new Set<Queue>();
  /** Dealt hands by flow schema, then distinguisher. */
  readonly #hands = new Map<string, Map<string, number[]>>();
  #handCount = 0;
  #r = 0;
  #lastMs: number;
  #robin = 0;
  #enqueues = 0;
  #active = 0;
  waiting = 0;
  executing = 0;

  constructor(readonly clock: Clock, config: QueuingConfig, limit: number, readonly observer: QueueSetObserver) {
    this.#config = config;
    this.#limit = limit;
    this.#lastMs = clock.now();
    this.#resize();
  }

  get limit(): number {
    return this.#limit;
  }

  get idle(): boolean {
    return this.waiting === 0 && this.executing === 0;
  }

  /** A new configuration or concurrency limit: queues are added at once and removed as they go idle. */
  configure(config: QueuingConfig, limit: number): void {
    this.#sync();
    if (config.queues !== this.#config.queues || config.handSize !== this.#config.handSize) this.#forgetHands();
    this.#config = config;
    this.#limit = limit;
    this.#resize();
    this.#dispatchAll();
  }

  /**
   * A request of the flow (its schema's counts, distinguisher) arrives: served at once, waiting
   * (then `listener` is told), or refused with the reason.
   */
  start(flow: FlowCounts, distinguisher: string, listener: SeatListener): Seat | RejectReason {
    this.#sync();
    const c = this.#config;
    if (c.exempt || c.queues === 0) {
      if (!c.exempt && !this.#fits()) return this.#reject(flow.flowSchema, 'concurrency-limit');
      const seat = new Seat(flow);
      this.#execute(seat);
      return seat;
    }
    const hand = this.#hand(flow.flowSchema, distinguisher);
    const seat = new Seat(flow);
    if (this.waiting === 0 && this.executing < this.#limit) {
      // Nobody waits and a seat is free: what joining the hand's shortest queue and being
      // dispatched from it at once would do, without the queue.
      this.#serveAtOnce(seat, this.#queues[hand[this.#enqueues++ % hand.length]!]!);
      return seat;
    }
    const queue = this.#queues[this.#shortestInHand(hand)]!;
    if (this.executing >= this.#limit && queue.waiting >= c.queueLengthLimit) return this.#reject(flow.flowSchema, 'queue-full');
    this.#enqueue(seat, queue);
    this.#dispatchAll();
    // Served at once, it is returned executing; the listener hears of a request still waiting.
    if (seat.state === 'waiting') seat.listener = listener;
    return seat;
  }

  /** An executing request is done; a waiting one leaves its queue ("cancelled", or `reason`). */
  finish(seat: Seat, reason: RejectReason = 'cancelled'): void {
    if (seat.state === 'done') return;
    this.#sync();
    if (seat.state === 'waiting') {
      this.#dequeue(seat);
      seat.state = 'done';
      this.observer.rejected(seat.flow.flowSchema, reason);
      this.#demand();
      this.#settle(seat, false);
      this.#trim();
      return;
    }
    seat.state = 'done';
    this.executing--;
    seat.flow.executing--;
    const q = seat.queue;
    if (q) {
      q.executing--;
      // Corrects the estimate the dispatch charged by what the request really took.
      q.nextDispatchR -= SERVICE_S - (this.clock.now() - seat.startedMs) / 1000;
      this.#bound(q);
      if (q.idle) this.#active--;
    }
    this.#demand();
    this.#trim();
    this.#dispatchAll();
  }

  #resize(): void {
    const want = this.#config.exempt ? 0 : this.#config.queues;
    for (let i = this.#queues.length; i < want; i++) this.#queues.push(new Queue(i));
    this.#trim();
  }

  /** Drops idle queues beyond the configured count, from the end. */
  #trim(): void {
    const want = this.#config.exempt ? 0 : this.#config.queues;
    while (this.#queues.length > want && this.#queues[this.#queues.length - 1]!.idle) this.#queues.pop();
  }

  /** Advances virtual time to now: the active queues share min(seats wanted, limit) equally. */
  #sync(): void {
    const now = this.clock.now();
    if (this.#active > 0) this.#r += (Math.min(this.executing + this.waiting, this.#limit) / this.#active) * ((now - this.#lastMs) / 1000);
    this.#lastMs = now;
  }

  #fits(): boolean {
    if (this.#config.exempt) return true;
    // A level that cannot hold even one request still serves one at a time.
    if (this.#limit < 1) return this.executing === 0;
    return this.executing + 1 <= this.#limit;
  }

  /** The hand's queue with the fewest waiting; ties go to the first from a rotating start. */
  #shortestInHand(hand: readonly number[]): number {
    const offset = this.#enqueues++ % hand.length;
    let best = hand[offset]!;
    for (let i = 1; i < hand.length; i++) {
      const q = hand[(offset + i) % hand.length]!;
      if (this.#queues[q]!.waiting < this.#queues[best]!.waiting) best = q;
    }
    return best;
  }

  /** The flow's hand, dealt once (hashing is the costly part) and remembered. */
  #hand(flowSchema: string, distinguisher: string): number[] {
    let bySchema = this.#hands.get(flowSchema);
    if (!bySchema) this.#hands.set(flowSchema, (bySchema = new Map()));
    let hand = bySchema.get(distinguisher);
    if (hand) return hand;
    const c = this.#config;
    hand = c.queues === 1 ? [0] : deal(flowHash(flowSchema, distinguisher), c.queues, c.handSize);
    if (++this.#handCount > MAX_HANDS) {
      this.#forgetHands();
      this.#hands.set(flowSchema, (bySchema = new Map()));
      this.#handCount = 1;
    }
    bySchema.set(distinguisher, hand);
    return hand;
  }

  #forgetHands(): void {
    this.#hands.clear();
    this.#handCount = 0;
  }

  /** A request arrives at `q` now; a queue that was idle starts from the current virtual time. */
  #arrive(seat: Seat, q: Queue): void {
    if (q.idle) {
      q.nextDispatchR = this.#r;
      this.#active++;
    }
    seat.queue = q;
    seat.arrivalR = this.#r;
  }

  #enqueue(seat: Seat, q: Queue): void {
    this.#arrive(seat, q);
    seat.prev = q.tail;
    if (q.tail) q.tail.next = seat;
    else q.head = seat;
    q.tail = seat;
    q.waiting++;
    this.#nonEmpty.add(q);
    this.waiting++;
    seat.flow.waiting++;
    this.#demand();
  }

  #dequeue(seat: Seat): void {
    const q = seat.queue!;
    if (seat.prev) seat.prev.next = seat.next;
    else q.head = seat.next;
    if (seat.next) seat.next.prev = seat.prev;
    else q.tail = seat.prev;
    seat.next = seat.prev = undefined;
    q.waiting--;
    if (q.waiting === 0) this.#nonEmpty.delete(q);
    else this.#bound(q);
    if (q.idle) this.#active--;
    this.waiting--;
    seat.flow.waiting--;
  }

  #dispatchAll(): void {
    while (this.waiting > 0 && this.executing < this.#limit && this.#dispatchOne());
  }

  /** Serves the head of the queue whose head finishes first in virtual time, if a seat is free. */
  #dispatchOne(): boolean {
    const n = this.#queues.length;
    let best: Queue | undefined;
    let bestFinish = Infinity;
    let bestDistance = Infinity;
    for (const q of this.#nonEmpty) {
      const finish = q.nextDispatchR + SERVICE_S;
      const distance = (q.index - this.#robin - 1 + n) % n;
      if (finish < bestFinish || (finish === bestFinish && distance < bestDistance)) {
        best = q;
        bestFinish = finish;
        bestDistance = distance;
      }
    }
    if (!best || !this.#fits()) return false;
    const seat = best.head!;
    best.executing++; // first, so that the queue stays active as its head leaves
    this.#dequeue(seat);
    this.#robin = best.index;
    best.nextDispatchR += SERVICE_S;
    this.#bound(best);
    this.#execute(seat);
    this.#settle(seat, true);
    return true;
  }

  #execute(seat: Seat): void {
    seat.state = 'executing';
    seat.startedMs = this.clock.now();
    this.executing++;
    seat.flow.executing++;
    this.#demand();
  }

  /** Enqueued and dispatched at once from `q`: its virtual time kept as that would keep it. */
  #serveAtOnce(seat: Seat, q: Queue): void {
    this.#arrive(seat, q);
    q.executing++;
    q.nextDispatchR += SERVICE_S;
    this.#robin = q.index;
    this.#execute(seat);
  }

  /** The anti-windup rule: a queue's next dispatch is not before its head's arrival. */
  #bound(q: Queue): void {
    if (q.head && q.nextDispatchR < q.head.arrivalR) q.nextDispatchR = q.head.arrivalR;
  }

  #reject(flowSchema: string, reason: RejectReason): RejectReason {
    this.observer.rejected(flowSchema, reason);
    return reason;
  }

  #settle(seat: Seat, served: boolean): void {
    if (seat.timer !== undefined) this.clock.clearTimeout(seat.timer);
    seat.timer = undefined;
    const listener = seat.listener;
    seat.listener = undefined;
    listener?.leftQueue(served);
  }

  #demand(): void {
    this.observer.demand(this.executing + this.waiting);
  }
}
