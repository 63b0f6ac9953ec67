// The series of a prom-client counter or histogram, each found once by its label values. prom-client
// checks the labels and builds a hash string of every pair on each inc and observe; on the API
// server and its clients that is every request. A series found here adds to prom-client's own
// entry for those labels (the library's pinned version keeps its series in `hashMap`, mutated in
// place), so /metrics shows exactly what inc and observe would have shown: a test holds this. A
// reset of the metric (a new `hashMap`) drops the series found so far.
import type { Counter, Histogram } from './metrics.ts';

interface Entry {
  labels: Record<string, string | number>;
}
interface CounterEntry extends Entry {
  value: number;
}
interface HistogramEntry extends Entry {
  sum: number;
  count: number;
  bucketValues: Record<number, number>;
}
interface Internals<E> {
  hashMap: Record<string, E>;
  upperBounds?: number[];
}

/** Series by label values, one Map level per label: the values are few and their hashes cached, so no string is built. */
class SeriesTree<E> {
  #root = new Map<string, unknown>();
  #hashMap: object | undefined;

  constructor(private readonly metric: Internals<E>, private readonly labelNames: readonly string[], private readonly create: (labels: Record<string, string>) => void) {}

  find(values: readonly string[]): E {
    if (this.metric.hashMap !== this.#hashMap) {
      this.#root = new Map();
      this.#hashMap = this.metric.hashMap;
    }
    let level = this.#root;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      let next = level.get(values[i]!) as Map<string, unknown> | undefined;
      if (!next) level.set(values[i]!, (next = new Map()));
      level = next;
    }
    const key = last < 0 ? '' : values[last]!; // a metric without labels has one series
    let entry = level.get(key) as E | undefined;
    if (!entry) level.set(key, (entry = this.#entry(values)));
    return entry;
  }

  /** prom-client's entry for these values, made (empty) when it has none yet. */
  #entry(values: readonly string[]): E {
    const labels: Record<string, string> = {};
    this.labelNames.forEach((name, i) => (labels[name] = values[i]!));
    const matches = (e: E) => this.labelNames.every((name) => String((e as Entry).labels[name]) === labels[name]);
    let entry = Object.values(this.metric.hashMap).find(matches);
    if (!entry) {
      this.create(labels);
      entry = Object.values(this.metric.hashMap).find(matches);
    }
    if (!entry) throw new Error(`no series for ${JSON.stringify(labels)}: prom-client no longer keeps series in hashMap`);
    return entry;
  }
}

/** A counter's series by label values, given in `labelNames` order. */
export class CounterSeries<L extends string> {
  readonly #tree: SeriesTree<CounterEntry>;

  constructor(counter: Counter<L>, labelNames: readonly L[]) {
    this.#tree = new SeriesTree(counter as unknown as Internals<CounterEntry>, labelNames, (labels) => counter.inc(labels as never, 0));
  }

  inc(values: readonly string[], by = 1): void {
    this.#tree.find(values).value += by;
  }
}

/** A histogram's series by label values, given in `labelNames` order. */
export class HistogramSeries<L extends string> {
  readonly #tree: SeriesTree<HistogramEntry>;
  readonly #bounds: number[];

  constructor(histogram: Histogram<L>, labelNames: readonly L[]) {
    const internals = histogram as unknown as Internals<HistogramEntry>;
    this.#tree = new SeriesTree(internals, labelNames, (labels) => histogram.zero(labels as never));
    if (!internals.upperBounds) throw new Error('prom-client no longer keeps a histogram\'s upperBounds');
    this.#bounds = internals.upperBounds;
  }

  observe(values: readonly string[], value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const e = this.#tree.find(values);
    e.sum += value;
    e.count += 1;
    // The first bucket whose upper bound holds the value; above them all, only the count (+Inf).
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        e.bucketValues[bounds[i]!]! += 1;
        return;
      }
    }
  }
}
