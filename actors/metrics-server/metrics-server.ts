// The metrics server: `metrics.k8s.io/v1beta1` NodeMetrics and PodMetrics, as the real
// metrics-server serves them through the API server's aggregation layer (aggregated.ts). Each read
// scrapes the node agents it needs (scraper.ts) at the current step of the resolution grid and
// answers their usage: the node's CPU (nanocores) and memory working set, each pod's containers'.
// Items carry their object's labels, the step's `timestamp` and the resolution as `window`; lists
// are filtered by `labelSelector` and hold only what has metrics, sorted by namespace and name; a
// get of what has none is a 404 in the real server's words (`nodemetrics.metrics.k8s.io "x" not found`).
// Deviations: metrics appear at a pod's first scrape (the real server needs two, to take a CPU
// rate), and `fieldSelector` is not read.
import { timestamp, type Clock } from '../api/env.ts';
import { formatDuration } from '../api/duration.ts';
import { formatQuantity } from '../api/quantity.ts';
import { parseLabelSelector } from '../api/selectors.ts';
import { notFound } from '../api/status.ts';
import type { KObject } from '../api/types.ts';
import { NODES, PODS, type Pod } from '../api/model/core.ts';
import type { Bus } from '../../transport/bus.ts';
import { aggregatedType, type AggregatedApi, type AggregatedRequest, type ObjectReader } from '../apiserver/aggregated.ts';
import type { CpuStats, MemoryStats } from '../nodeagent/summary.ts';
import { Scraper } from './scraper.ts';

export const METRICS_GROUP = 'metrics.k8s.io';
export const METRICS_VERSION = 'v1beta1';
const API_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;

export interface MetricsServerOptions {
  /** `--metric-resolution`: the grid scrapes are on, and every item's window. */
  metricResolutionMs: number;
  /** How long a node agent has to answer a scrape. */
  scrapeTimeoutMs: number;
}

const DEFAULTS: MetricsServerOptions = { metricResolutionMs: 15_000, scrapeTimeoutMs: 10_000 };

const usage = (cpu: CpuStats, memory: MemoryStats) => ({
  cpu: formatQuantity({ nanos: BigInt(cpu.usageNanoCores), format: 'DecimalSI' }),
  memory: formatQuantity({ nanos: BigInt(memory.workingSetBytes) * 1_000_000_000n, format: 'BinarySI' }),
});

const byName = (a: KObject, b: KObject) => {
  const ka = `${a.metadata.namespace ?? ''}/${a.metadata.name}`, kb = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

export class MetricsServer implements AggregatedApi {
  readonly group = METRICS_GROUP;
  readonly version = METRICS_VERSION;
  readonly types = [aggregatedType(METRICS_GROUP, METRICS_VERSION, 'nodes', 'NodeMetrics', 'Cluster'),
    aggregatedType(METRICS_GROUP, METRICS_VERSION, 'pods', 'PodMetrics', 'Namespaced')];
  readonly options: MetricsServerOptions;
  readonly #scraper: Scraper;
  readonly #clock: Clock;

  constructor(init: { bus: Bus; clock: Clock; options?: Partial<MetricsServerOptions> }) {
    this.options = { ...DEFAULTS, ...init.options };
    if (!(this.options.metricResolutionMs > 0)) throw new RangeError('metric resolution must be greater than 0');
    this.#clock = init.clock;
    this.#scraper = new Scraper(init.bus, init.clock, { resolutionMs: this.options.metricResolutionMs, timeoutMs: this.options.scrapeTimeoutMs });
  }

  serve(r: AggregatedRequest, read: ObjectReader): Promise<unknown> {
    return r.resource === 'nodes' ? this.#nodes(r, read) : this.#pods(r, read);
  }

  /** What every item shares: when it was made, the step's time, the window. */
  #meta(o: KObject) {
    return { metadata: { name: o.metadata.name!, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
      creationTimestamp: timestamp(this.#clock.now()), labels: o.metadata.labels ?? {} },
    timestamp: timestamp(this.#scraper.gridMs), window: formatDuration(this.options.metricResolutionMs) };
  }

  async #nodes(r: AggregatedRequest, read: ObjectReader): Promise<unknown> {
    const matches = parseLabelSelector(r.query.string('labelSelector'));
    const nodes = (await read.list(NODES, undefined)).filter((n) => (r.name === undefined ? !matches || matches(n) : n.metadata.name === r.name)).sort(byName);
    const summaries = await this.#scraper.summaries(nodes.map((n) => n.metadata.name!));
    const items = nodes.flatMap((n) => {
      const s = summaries.get(n.metadata.name!);
      return s ? [{ kind: 'NodeMetrics', apiVersion: API_VERSION, ...this.#meta(n), usage: usage(s.node.cpu, s.node.memory) }] : [];
    });
    if (r.name === undefined) return { kind: 'NodeMetricsList', apiVersion: API_VERSION, metadata: {}, items };
    if (!items[0]) throw notFound({ group: METRICS_GROUP, resource: 'nodemetrics', name: r.name });
    return items[0];
  }

  async #pods(r: AggregatedRequest, read: ObjectReader): Promise<unknown> {
    const matches = parseLabelSelector(r.query.string('labelSelector'));
    const pods = ((await read.list(PODS, r.namespace)) as Pod[])
      .filter((p) => p.spec?.nodeName && (r.name === undefined ? !matches || matches(p) : p.metadata.name === r.name)).sort(byName);
    const summaries = await this.#scraper.summaries([...new Set(pods.map((p) => p.spec!.nodeName!))]);
    const items = pods.flatMap((p) => {
      const stats = summaries.get(p.spec!.nodeName!)?.pods.find((s) => s.podRef.uid === p.metadata.uid);
      if (!stats) return [];
      return [{ kind: 'PodMetrics', apiVersion: API_VERSION, ...this.#meta(p),
        containers: stats.containers.map((c) => ({ name: c.name, usage: usage(c.cpu, c.memory) })) }];
    });
    if (r.name === undefined) return { kind: 'PodMetricsList', apiVersion: API_VERSION, metadata: {}, items };
    if (!items[0]) throw notFound({ group: METRICS_GROUP, resource: 'podmetrics', name: `${r.namespace}/${r.name}` });
    return items[0];
  }
}
