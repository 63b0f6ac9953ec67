// How a metric of an autoscaler fails (horizontal.go getUnableComputeReplicaCountCondition and the
// errors computeReplicasForMetric returns, 1.32).

/**
 * A metric's failure: the reason of its Event and of ScalingActive, the detail they both tell
 * (`failed to get cpu utilization: ...`), and as its message the detail behind what the metric
 * adds in front (`failed to get cpu resource metric value: ...`), or the detail alone.
 */
export class MetricError extends Error {
  constructor(readonly reason: string, readonly detail: string, prefix?: string) {
    super(prefix === undefined ? detail : `${prefix}: ${detail}`);
  }
}
