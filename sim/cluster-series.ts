// The report's series of a cluster that breathes: usage beside requests by zone and pool
// (usage-series.ts), autoscaled Deployments' replicas (replica-series.ts) and the node groups'
// nodes and cost (group-series.ts). Made only for a scenario that asks for usage or autoscaling;
// any other run makes none, so it neither computes nor writes anything more than before.
import type { SimCluster } from './cluster.ts';
import type { GroupHistory } from './cloud-provider.ts';
import { groupSeries } from './group-series.ts';
import type { RunMetrics } from './metrics.ts';
import { ReplicaSeriesRecorder } from './replica-series.ts';
import type { Series } from './report/types.ts';
import type { Scenario } from './scenario/types.ts';
import { UsageSeries } from './usage-series.ts';
import { PodUseTracker } from './pod-use-tracker.ts';

/** Pods with a usage model, a Deployment with `autoscale:`, or a cluster autoscaler. */
export const breathes = (s: Scenario): boolean =>
  s.clusterAutoscaler !== undefined || s.workloads.some((w) => w.usage !== undefined || w.autoscale !== undefined);

export class ClusterSeries {
  readonly #usage: UsageSeries;
  readonly #replicas: ReplicaSeriesRecorder;
  readonly #unobserve: () => void;

  private constructor(scenario: Scenario, cluster: SimCluster, metrics: RunMetrics) {
    const pods = new PodUseTracker(metrics.keyPrefix, cluster.traffic);
    this.#usage = new UsageSeries(metrics, pods, metrics.zones, scenario.nodePools.map((p) => p.name));
    this.#replicas = new ReplicaSeriesRecorder(metrics.keyPrefix);
    this.#unobserve = cluster.server.store.onChange((c) => {
      pods.observe(c);
      this.#replicas.observe(c);
    });
  }

  /** The series of `scenario`'s run, or none when it does not breathe. */
  static for(scenario: Scenario, cluster: SimCluster, metrics: RunMetrics): ClusterSeries | undefined {
    return breathes(scenario) ? new ClusterSeries(scenario, cluster, metrics) : undefined;
  }

  /** Appends one sample of each series (right after the run's other series sampled). */
  sample(): void {
    this.#usage.sample();
    this.#replicas.sample();
  }

  /** The report's new series, the node groups' on the sample times `tMs`. */
  report(tMs: readonly number[], groups: readonly GroupHistory[] | undefined): Pick<Series, 'usage' | 'deployments' | 'nodeGroups'> {
    return {
      usage: { perZone: this.#usage.perZone, perPool: this.#usage.perPool },
      deployments: this.#replicas.series,
      ...(groups ? { nodeGroups: groupSeries(groups, tMs) } : {}),
    };
  }

  stop(): void {
    this.#unobserve();
  }
}
