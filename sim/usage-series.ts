// CPU and memory used beside requested and allocatable, by zone and by pool, at each sample of a
// run whose scenario asks for usage (sim/cluster-series.ts decides). Over the Ready nodes, as the
// report's utilisation series count: requests and allocatable from the run's node records
// (sim/metrics.ts), use from the pods Running on them, their usage models evaluated at the
// sample's instant (pod-use-tracker.ts): the pods' figures the node agents' summaries give and the
// metrics server serves. A node's memory used beside its pods (a memory-pressure fault) is not
// counted: this is what the pods use against what they request.
import type { RunMetrics } from './metrics.ts';
import type { PodUseTracker } from './pod-use-tracker.ts';
import type { ResourceSeries } from './report/types.ts';

interface Totals {
  cpuUsed: number;
  cpuRequested: number;
  cpuAllocatable: number;
  memoryUsed: number;
  memoryRequested: number;
  memoryAllocatable: number;
}

const zero = (): Totals => ({ cpuUsed: 0, cpuRequested: 0, cpuAllocatable: 0, memoryUsed: 0, memoryRequested: 0, memoryAllocatable: 0 });
const emptySeries = (): ResourceSeries => ({ cpuUsed: [], cpuRequested: [], cpuAllocatable: [], memoryUsed: [], memoryRequested: [], memoryAllocatable: [] });
/** Cores to the millicore, as quantities count them. */
const cores = (milli: number) => Math.round(milli) / 1000;

export class UsageSeries {
  readonly perZone: Record<string, ResourceSeries>;
  readonly perPool: Record<string, ResourceSeries>;

  /** `zones` and `pools` as the report lists them; a node of another zone or pool counts in neither. */
  constructor(readonly metrics: RunMetrics, readonly pods: PodUseTracker, zones: readonly string[], pools: readonly string[]) {
    this.perZone = Object.fromEntries(zones.map((z) => [z, emptySeries()]));
    this.perPool = Object.fromEntries(pools.map((p) => [p, emptySeries()]));
  }

  /** Appends one sample at the clock's time. */
  sample(): void {
    const now = this.metrics.clock.now();
    const zones = new Map(Object.keys(this.perZone).map((z) => [z, zero()]));
    const pools = new Map(Object.keys(this.perPool).map((p) => [p, zero()]));
    for (const [name, n] of this.metrics.nodes) {
      if (!this.metrics.isReady(n, now)) continue;
      const z = zones.get(n.zone);
      const p = pools.get(n.pool);
      if (!z && !p) continue;
      const used = this.pods.usedOn(name, now);
      for (const t of [z, p]) {
        if (!t) continue;
        t.cpuUsed += used.cpu * 1000;
        t.cpuRequested += n.requested.milliCPU;
        t.cpuAllocatable += n.allocatable.milliCPU;
        t.memoryUsed += used.memory;
        t.memoryRequested += n.requested.memory;
        t.memoryAllocatable += n.allocatable.memory;
      }
    }
    for (const [z, t] of zones) append(this.perZone[z]!, t);
    for (const [p, t] of pools) append(this.perPool[p]!, t);
  }
}

function append(s: ResourceSeries, t: Totals): void {
  s.cpuUsed.push(cores(t.cpuUsed));
  s.cpuRequested.push(cores(t.cpuRequested));
  s.cpuAllocatable.push(cores(t.cpuAllocatable));
  s.memoryUsed.push(Math.round(t.memoryUsed));
  s.memoryRequested.push(Math.round(t.memoryRequested));
  s.memoryAllocatable.push(Math.round(t.memoryAllocatable));
}
