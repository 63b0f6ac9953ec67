// A component's event recorder, as client-go's core v1 broadcaster and recorder (tools/record)
// that the node agent and the controllers use. `event()` builds the Event at once (its name and
// times from the recorder's clock) and returns: the caller's work never waits for it. Events then
// go one at a time, in order, through the correlator (aggregation, counting, spam filter) to the
// sink; while a write waits for its retry, later events wait behind it, as they do behind the real
// broadcaster's single watcher. More than MAX_QUEUED waiting: the newest are dropped.
import { timestamp, type Clock, type Random } from '../../api/env.ts';
import type { ApiClient } from '../client.ts';
import { EventCorrelator, type CorrelatorOptions } from './correlator.ts';
import { eventName, eventNamespace, type CoreEvent, type EventSource, type EventType, type ObjectReference } from './event.ts';
import { EventSink, MAX_QUEUED, RETRY_MS } from './sink.ts';

/** What an event may carry beyond its object, type, reason and message. */
export interface EventExtras {
  /** A second object the event is about (the preemptor of a Preempted pod). */
  related?: ObjectReference;
  /** What was done (events API recorders only: `Binding`, `Scheduling`, `Preempting`). */
  action?: string;
  annotations?: Record<string, string>;
}

export interface EventRecorder {
  /** Records an event about `ref`; returns at once, the write going on behind. */
  event(ref: ObjectReference, type: EventType, reason: string, message: string, extras?: EventExtras): void;
  /** Stops writing: what waits is dropped. */
  stop(): void;
}

/** The recorder of a component that records nothing (events turned off). */
export const NO_EVENTS: EventRecorder = { event: () => {}, stop: () => {} };

/** Makes the recorder of one part of a component (a controller), on that part's own client. */
export type RecorderFactory = (client: ApiClient, source: EventSource) => EventRecorder;

/** Core v1 recorders on `clock`, each drawing from its own stream of `random`, named after its source. */
export const coreRecorders = (clock: Clock, random: Random): RecorderFactory => (client, source) =>
  new CoreEventRecorder({ client, clock, random: random.fork(source.component), source });

export interface RecorderInit {
  /** The component's client: its writes go through its rate limit. */
  client: ApiClient;
  clock: Clock;
  /** The recorder's own stream: names' sub-millisecond digits, the first retry's delay. */
  random: Random;
  source: EventSource;
  /** The correlator's limits (tests shrink them); its clock and stream are the recorder's. */
  correlator?: Omit<CorrelatorOptions, 'clock' | 'random'>;
}

export class CoreEventRecorder implements EventRecorder {
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #source: EventSource;
  readonly #correlator: EventCorrelator;
  readonly #sink: EventSink;
  readonly #queue: CoreEvent[] = [];
  #sending = false;

  constructor(init: RecorderInit) {
    this.#clock = init.clock;
    this.#random = init.random;
    this.#source = init.source.host ? init.source : { component: init.source.component };
    this.#correlator = new EventCorrelator({ ...init.correlator, clock: init.clock, random: init.random });
    this.#sink = new EventSink(init.client, init.clock);
  }

  event(ref: ObjectReference, type: EventType, reason: string, message: string, extras: EventExtras = {}): void {
    if (this.#sink.stopped || this.#queue.length >= MAX_QUEUED) return;
    this.#queue.push(this.#make(ref, type, reason, message, extras));
    if (!this.#sending) void this.#send();
  }

  stop(): void {
    this.#sink.stop();
    this.#queue.length = 0;
  }

  /** The real makeEvent: named after the object and the time, in its namespace (`default` for cluster-scoped ones). */
  #make(ref: ObjectReference, type: EventType, reason: string, message: string, { related, annotations }: EventExtras): CoreEvent {
    const now = this.#clock.now();
    const at = timestamp(now);
    const source = this.#source;
    return {
      metadata: { name: eventName(ref.name ?? '', now, this.#random), namespace: eventNamespace(ref), ...(annotations ? { annotations } : {}) },
      involvedObject: ref, reason, message, source, firstTimestamp: at, lastTimestamp: at, count: 1, type, eventTime: null,
      ...(related ? { related } : {}), reportingComponent: source.component, reportingInstance: source.host ?? '',
    };
  }

  async #send(): Promise<void> {
    this.#sending = true;
    try {
      for (let next = this.#queue.shift(); next && !this.#sink.stopped; next = this.#queue.shift()) {
        const c = this.#correlator.correlate(next);
        if (!c) continue;
        await this.#sink.retry(async () => {
          const a = await this.#sink.write(c.event, c.event.count! > 1 ? c.patch : undefined);
          if ('written' in a) this.#correlator.updateState(a.written);
          return !('unanswered' in a);
        }, (tries) => (tries === 1 ? this.#random.next() * RETRY_MS : RETRY_MS));
      }
    } finally {
      this.#sending = false;
    }
  }
}
