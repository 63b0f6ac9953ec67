// The real EventCorrelator (client-go tools/record/events_cache.go), on the injected clock. Every
// event a core v1 recorder sends passes through it, in this order:
//
//   aggregator   events alike but for their message (same source, object, type, reason and
//                reporting component) seen maxEvents (10) times with different messages, none
//                more than maxInterval (10 minutes) after the one before, become one event
//                "(combined from similar events): <message>", counted from then on;
//   logger       an event seen before (the same in every field but its time) is not created
//                again: it is sent as a patch of its count, lastTimestamp and message;
//   spam filter  a token bucket per source and object (and type): 25 events at once, then one
//                every 5 minutes; the others are dropped (after the logger counted them, as
//                the real one does).
//
// Each keeps its records in a bounded LRU of cacheSize (4,096) entries, under the real keys
// (hashed, keys.ts).
// Where the real aggregator drops an arbitrary one of its ten messages, this one drops the oldest.
import { LRUCache } from 'lru-cache';
import { timestamp, type Clock, type Random } from '../../api/env.ts';
import { eventName, type CoreEvent } from './event.ts';
import { aggregateKey, eventKey, hashKey, spamKey } from './keys.ts';

export interface CorrelatorOptions {
  clock: Clock;
  /** Names of combined events draw their sub-millisecond digits from it. */
  random: Random;
  cacheSize?: number;
  /** The spam filter's bucket: this many events at once, refilled at `qps` per second. */
  burst?: number;
  qps?: number;
  /** Similar events with different messages before they are combined, and how far apart they may be. */
  maxEvents?: number;
  maxIntervalMs?: number;
}

/** What to send: the event to create, or (`patch` set) the counted event to patch. */
export interface Correlated {
  event: CoreEvent;
  patch?: { count: number; lastTimestamp: string | null; message?: string };
}

const DEFAULTS = { cacheSize: 4096, burst: 25, qps: 1 / 300, maxEvents: 10, maxIntervalMs: 600_000 };
export const COMBINED_PREFIX = '(combined from similar events): ';

const bounded = <V extends {}>(size: number) => new LRUCache<number, V>({ maxSize: size, sizeCalculation: () => 1 });

interface Bucket { tokens: number; atMs: number }
/** The messages seen (hashed; at most maxEvents, oldest first: an array, which costs a fraction of a Set's memory). */
interface Aggregate { messages: number[]; lastMs: number }
interface Observation { count: number; firstTimestamp: string | null; name: string; resourceVersion: string | undefined }

export class EventCorrelator {
  readonly #o: typeof DEFAULTS;
  readonly #clock: Clock;
  readonly #random: Random;
  // Made with maxSize rather than max: lru-cache allocates `max` slots up front (about 90 KB each).
  readonly #buckets: LRUCache<number, Bucket>;
  readonly #aggregates: LRUCache<number, Aggregate>;
  readonly #observations: LRUCache<number, Observation>;

  constructor(options: CorrelatorOptions) {
    const { cacheSize = DEFAULTS.cacheSize, burst = DEFAULTS.burst, qps = DEFAULTS.qps, maxEvents = DEFAULTS.maxEvents, maxIntervalMs = DEFAULTS.maxIntervalMs } = options;
    this.#o = { cacheSize, burst, qps, maxEvents, maxIntervalMs };
    this.#clock = options.clock;
    this.#random = options.random;
    this.#buckets = bounded(this.#o.cacheSize);
    this.#aggregates = bounded(this.#o.cacheSize);
    this.#observations = bounded(this.#o.cacheSize);
  }

  /** What to send for `event`, or undefined when the spam filter drops it. */
  correlate(event: CoreEvent): Correlated | undefined {
    const { event: aggregated, key } = this.#aggregate(event);
    const observed = this.#observe(aggregated, key);
    return this.#allowed(observed.event) ? observed : undefined;
  }

  /** The server's copy of an event written: its name and resourceVersion for the next occurrence. */
  updateState(event: CoreEvent): void {
    this.#observations.set(eventKey(event), {
      count: event.count ?? 0, firstTimestamp: event.firstTimestamp, name: event.metadata.name, resourceVersion: event.metadata.resourceVersion,
    });
  }

  #aggregate(event: CoreEvent): { event: CoreEvent; key: number } {
    const now = this.#clock.now();
    const key = aggregateKey(event);
    let record = this.#aggregates.get(key);
    if (!record || now - record.lastMs > this.#o.maxIntervalMs) record = { messages: [], lastMs: now };
    const message = hashKey([event.message]);
    if (!record.messages.includes(message)) record.messages.push(message);
    record.lastMs = now;
    this.#aggregates.set(key, record);
    if (record.messages.length < this.#o.maxEvents) return { event, key: eventKey(event) };
    record.messages.shift();
    const at = timestamp(now);
    const combined: CoreEvent = {
      metadata: { name: eventName(event.involvedObject.name ?? '', now, this.#random), namespace: event.metadata.namespace },
      involvedObject: event.involvedObject, reason: event.reason, message: COMBINED_PREFIX + event.message, source: event.source,
      firstTimestamp: at, lastTimestamp: at, count: 1, type: event.type, eventTime: null, reportingComponent: '', reportingInstance: '',
    };
    return { event: combined, key };
  }

  #observe(event: CoreEvent, key: number): Correlated {
    const last = this.#observations.get(key);
    let result: Correlated = { event };
    if (last && last.count > 0) {
      const count = last.count + 1;
      const metadata = { ...event.metadata, name: last.name, ...(last.resourceVersion ? { resourceVersion: last.resourceVersion } : {}) };
      const counted = { ...event, metadata, firstTimestamp: last.firstTimestamp, count };
      result = { event: counted, patch: { count, lastTimestamp: event.lastTimestamp, ...(event.message ? { message: event.message } : {}) } };
    }
    const e = result.event;
    this.#observations.set(key, { count: e.count ?? 0, firstTimestamp: e.firstTimestamp, name: e.metadata.name, resourceVersion: e.metadata.resourceVersion });
    return result;
  }

  /** The spam filter's token bucket for the event's source and object: full at first, one token a take. */
  #allowed(event: CoreEvent): boolean {
    const now = this.#clock.now();
    const key = spamKey(event);
    const bucket = this.#buckets.get(key) ?? { tokens: this.#o.burst, atMs: now };
    bucket.tokens = Math.min(this.#o.burst, bucket.tokens + ((now - bucket.atMs) / 1000) * this.#o.qps);
    bucket.atMs = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    return allowed;
  }
}
