// The work queue's metrics, as client-go's workqueue reports them, labelled by the queue's name:
// adds and retries counted as they happen, the time a key waited and the time its sync took
// observed on the queue's clock, and the depth and the work in progress read when scraped.
import type { Clock } from '../api/env.ts';
import { Counter, Gauge, Histogram, type Registry } from '../api/metrics.ts';
import { perRegistry } from './per-registry.ts';

/** client-go's buckets: 1 µs to 1000 s, ten times apart. */
const DURATION_BUCKETS = [1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10, 100, 1000];

/** What a live queue shows when scraped. */
export interface QueueProbe {
  readonly name: string;
  readonly clock: Clock;
  /** Keys waiting, whether queued or added again while being synced. */
  depth(): number;
  /** When each sync under way began. */
  syncStarts(): Iterable<number>;
}

const families = perRegistry((registry: Registry) => {
  const live = new Set<QueueProbe>();
  /** Every name seen, so a queue gone (its term over) still shows depth 0. */
  const names = new Set<string>();
  const byName = (gauge: Gauge<'name'>, value: (p: QueueProbe) => number, combine: (a: number, b: number) => number) => {
    const totals = new Map<string, number>();
    for (const n of names) totals.set(n, 0);
    for (const p of live) totals.set(p.name, combine(totals.get(p.name)!, value(p)));
    for (const [name, v] of totals) gauge.set({ name }, v);
  };
  const inProgress = (p: QueueProbe, combine: (a: number, b: number) => number) => {
    const now = p.clock.now();
    let v = 0;
    for (const start of p.syncStarts()) v = combine(v, (now - start) / 1000);
    return v;
  };
  const sum = (a: number, b: number) => a + b;
  return {
    live, names,
    adds: new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name'] as const, registers: [registry] }),
    retries: new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name'] as const, registers: [registry] }),
    queueDuration: new Histogram({ name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested.',
      labelNames: ['name'] as const, buckets: DURATION_BUCKETS, registers: [registry] }),
    workDuration: new Histogram({ name: 'workqueue_work_duration_seconds', help: 'How long in seconds processing an item from workqueue takes.',
      labelNames: ['name'] as const, buckets: DURATION_BUCKETS, registers: [registry] }),
    depth: new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: ['name'] as const, registers: [registry],
      collect() { byName(this, (p) => p.depth(), sum); } }),
    unfinished: new Gauge({ name: 'workqueue_unfinished_work_seconds', labelNames: ['name'] as const, registers: [registry],
      help: "How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      collect() { byName(this, (p) => inProgress(p, sum), sum); } }),
    longest: new Gauge({ name: 'workqueue_longest_running_processor_seconds', labelNames: ['name'] as const, registers: [registry],
      help: 'How many seconds has the longest running processor for workqueue been running.',
      collect() { byName(this, (p) => inProgress(p, Math.max), Math.max); } }),
  };
});

/** One queue's metrics: what it tells as keys come and go. */
export class WorkQueueMetrics {
  readonly #f: ReturnType<typeof families>;
  readonly #labels: { name: string };
  /** When each waiting key was first added (its wait ends when a worker takes it). */
  readonly #addedMs = new Map<string, number>();

  constructor(registry: Registry, readonly probe: QueueProbe) {
    this.#f = families(registry);
    this.#labels = { name: probe.name };
    this.#f.names.add(probe.name);
    this.#f.live.add(probe);
    // Every series of the queue exists from its start, at 0, as client-go's do.
    this.#f.adds.inc(this.#labels, 0);
    this.#f.retries.inc(this.#labels, 0);
    this.#f.queueDuration.zero(this.#labels);
    this.#f.workDuration.zero(this.#labels);
  }

  added(key: string, nowMs: number): void {
    this.#f.adds.inc(this.#labels);
    if (!this.#addedMs.has(key)) this.#addedMs.set(key, nowMs);
  }

  started(key: string, nowMs: number): void {
    const added = this.#addedMs.get(key);
    if (added === undefined) return;
    this.#addedMs.delete(key);
    this.#f.queueDuration.observe(this.#labels, (nowMs - added) / 1000);
  }

  finished(startMs: number, nowMs: number): void {
    this.#f.workDuration.observe(this.#labels, (nowMs - startMs) / 1000);
  }

  retried(): void {
    this.#f.retries.inc(this.#labels);
  }

  /** The queue stopped: it no longer counts in the depth or the work in progress. */
  close(): void {
    this.#f.live.delete(this.probe);
    this.#addedMs.clear();
  }
}
