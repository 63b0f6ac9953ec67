// The events API recorder (client-go tools/events), which the scheduler uses. It writes core v1
// Events of the new kind: `eventTime` (microseconds), `action`, `reportingComponent` and
// `reportingInstance`, no `source`, `count` or first and last timestamps (the shape a real server
// stores for an events.k8s.io/v1 Event). In place of the core recorder's correlator it keeps
// series:
//
// - An event isomorphic to one recorded before (the same type, action, reason, reporter, object
//   and related object; the message may differ) is not created again: the first repeat gives the
//   first event a series (count 2), written at once as a patch; later repeats only count, and are
//   written when the series is refreshed (every 30 minutes) or finished.
// - Every 6 minutes, series not observed for 6 minutes are written one last time and forgotten,
//   as are single events older than that.
//
// Writes go out WORKERS at a time from a queue of MAX_QUEUED, each tried again on no answer after
// 10 s plus up to a quarter more (drawn from the recorder's stream).
import { microTime, type Clock, type Random } from '../../api/env.ts';
import { isAlreadyExists, isConflict } from '../../api/status.ts';
import type { ApiClient } from '../client.ts';
import { eventName, eventNamespace, type CoreEvent, type EventType, type ObjectReference } from './event.ts';
import { seriesKey } from './keys.ts';
import type { EventExtras, EventRecorder } from './recorder.ts';
import { EventSink, MAX_QUEUED, RETRY_MS } from './sink.ts';

const WORKERS = 8;
const FINISH_MS = 6 * 60_000;
const REFRESH_MS = 30 * 60_000;

export interface SeriesRecorderInit {
  client: ApiClient;
  clock: Clock;
  /** Names' sub-millisecond digits and the retries' jitter. */
  random: Random;
  /** `reportingComponent`, and `reportingInstance` (the real one: the component's name and its host's). */
  reportingController: string;
  reportingInstance: string;
}

export class SeriesEventRecorder implements EventRecorder {
  readonly #init: SeriesRecorderInit;
  readonly #sink: EventSink;
  /** The first event of each isomorphic group recorded in the last 6 minutes, its series counting on. */
  readonly #cache = new Map<number, CoreEvent>();
  readonly #queue: CoreEvent[] = [];
  #working = 0;
  readonly #timers = new Map<string, unknown>();

  constructor(init: SeriesRecorderInit) {
    this.#init = init;
    this.#sink = new EventSink(init.client, init.clock);
    this.#every('finish', FINISH_MS, () => this.#finishSeries());
    this.#every('refresh', REFRESH_MS, () => this.#refreshSeries());
  }

  event(ref: ObjectReference, type: EventType, reason: string, message: string, { related, action = '', annotations }: EventExtras = {}): void {
    if (this.#sink.stopped) return;
    const { clock, random, reportingController, reportingInstance } = this.#init;
    const now = clock.now();
    const event: CoreEvent = {
      metadata: { name: eventName(ref.name ?? '', now, random), namespace: eventNamespace(ref), ...(annotations ? { annotations } : {}) },
      involvedObject: ref, reason, message, source: {}, firstTimestamp: null, lastTimestamp: null, type, eventTime: microTime(now),
      action, ...(related ? { related } : {}), reportingComponent: reportingController, reportingInstance,
    };
    const key = seriesKey(event);
    const first = this.#cache.get(key);
    if (!first) {
      this.#cache.set(key, event);
      return this.#enqueue(event);
    }
    if (first.series) {
      first.series = { count: first.series.count + 1, lastObservedTime: microTime(now) };
      return;
    }
    first.series = { count: 2, lastObservedTime: microTime(now) };
    this.#enqueue({ ...first });
  }

  stop(): void {
    for (const t of this.#timers.values()) this.#init.clock.clearTimeout(t);
    this.#sink.stop();
    this.#queue.length = 0;
    this.#cache.clear();
  }

  #enqueue(event: CoreEvent): void {
    if (this.#queue.length >= MAX_QUEUED) return;
    this.#queue.push(event);
    if (this.#working < WORKERS) void this.#work();
  }

  async #work(): Promise<void> {
    this.#working++;
    try {
      for (let next = this.#queue.shift(); next && !this.#sink.stopped; next = this.#queue.shift()) {
        const event = next;
        await this.#sink.retry(async () => (await this.#record(event)) !== 'retry', () => RETRY_MS * (1 + 0.25 * this.#init.random.next()));
      }
    } finally {
      this.#working--;
    }
  }

  /** The real recordEvent: a series is patched (created if gone); an AlreadyExists of one is tried again. */
  async #record(event: CoreEvent): Promise<'done' | 'retry'> {
    const series = event.series;
    const a = await this.#sink.write(event, series ? { series } : undefined);
    if ('unanswered' in a) return 'retry';
    return 'refused' in a && (isAlreadyExists(a.refused) || isConflict(a.refused)) && series ? 'retry' : 'done';
  }

  /** Series unobserved for FINISH_MS are written a last time, then forgotten with old single events. */
  async #finishSeries(): Promise<void> {
    const cutoff = this.#init.clock.now() - FINISH_MS;
    for (const [key, event] of [...this.#cache]) {
      const { series } = event;
      if (Date.parse(series ? series.lastObservedTime : event.eventTime!) >= cutoff) continue;
      if (series && (await this.#record({ ...event })) === 'retry') continue;
      if (this.#cache.get(key) === event && event.series === series) this.#cache.delete(key);
    }
  }

  async #refreshSeries(): Promise<void> {
    for (const event of [...this.#cache.values()]) if (event.series) await this.#record({ ...event });
  }

  /** wait.Until: `fn` every `periodMs`, counted from the end of the run before, until stopped (a first run now would find nothing). */
  #every(name: string, periodMs: number, fn: () => Promise<void>): void {
    const arm = () => void this.#timers.set(name, this.#init.clock.setTimeout(run, periodMs));
    const run = (): void => void fn().finally(() => this.#sink.stopped || arm());
    arm();
  }
}
