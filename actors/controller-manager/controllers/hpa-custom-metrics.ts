// The metrics an autoscaler reads from APIs no component here serves, failing as the real
// controller's do in a cluster without them (horizontal.go computeReplicasForMetric and
// computeStatusFor{Pods,Object,External}Metric, replica_calculator.go, metrics/client.go, 1.32):
//
// - Pods and Object metrics go through the custom metrics client, which finds its version by
//   discovery; with no custom.metrics.k8s.io group it answers `no custom metrics API
//   (custom.metrics.k8s.io) registered` without a request.
// - External metrics are listed from external.metrics.k8s.io/v1beta1 directly; the API server
//   answers a group nobody serves with a bare 404, which client-go words as
//   `the server could not find the requested resource (get <metric>.external.metrics.k8s.io)`.
//
// Each error nests as the real one does, and the reason (FailedGetPodsMetric,
// FailedGetObjectMetric, FailedGetExternalMetric) is the Event's and ScalingActive's. Nothing is
// sent: the answer is known, and syncs stay free of requests that cannot succeed.
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { MetricSpec } from 'kubernetes-types/autoscaling/v2.js';
import { MetricError } from './hpa-metric-error.ts';

const NO_CUSTOM_API = 'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered';

const noExternalApi = (metric: string) =>
  `unable to fetch metrics from external metrics API: the server could not find the requested resource (get ${metric.toLowerCase()}.external.metrics.k8s.io)`;

/** A *metav1.LabelSelector as Go's %+v prints it (the generated String method); `nil` when absent. */
export function goSelector(s: LabelSelector | undefined): string {
  if (!s) return 'nil';
  const labels = Object.keys(s.matchLabels ?? {}).sort().map((k) => `${k}: ${s.matchLabels![k]},`).join('');
  const expressions = (s.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}

/** Throws the failure of a Pods, Object or External metric, or of a metric type the controller does not know. */
export function unservedMetric(spec: MetricSpec, namespace: string): never {
  if (spec.type === 'Pods' && spec.pods) {
    throw new MetricError('FailedGetPodsMetric', `unable to get metric ${spec.pods.metric.name}: ${NO_CUSTOM_API}`, 'failed to get pods metric value');
  }
  if (spec.type === 'Object' && spec.object) {
    const { metric, describedObject: o, target } = spec.object;
    const prefix = 'failed to get object metric value';
    // The real message puts the object before the cause, in this order.
    const detail = `unable to get metric ${metric.name}: ${o.kind} on ${namespace} ${o.name}/${NO_CUSTOM_API}`;
    if (target.type === 'Value' && target.value !== undefined) throw new MetricError('FailedGetObjectMetric', detail, prefix);
    if (target.type === 'AverageValue' && target.averageValue !== undefined)
      throw new MetricError('FailedGetObjectMetric', detail, `${prefix}: failed to get ${metric.name} object metric`);
    throw new MetricError('FailedGetObjectMetric', 'invalid object metric source: neither a value target nor an average value target was set', prefix);
  }
  if (spec.type === 'External' && spec.external) {
    const { metric, target } = spec.external;
    const prefix = `failed to get ${metric.name} external metric value`;
    const detail = `unable to get external metric ${namespace}/${metric.name}/${goSelector(metric.selector)}: ${noExternalApi(metric.name)}`;
    if (target.averageValue !== undefined) throw new MetricError('FailedGetExternalMetric', detail, `${prefix}: failed to get ${metric.name} external metric`);
    if (target.value !== undefined) throw new MetricError('FailedGetExternalMetric', detail, `${prefix}: failed to get external metric ${metric.name}`);
    throw new MetricError('FailedGetExternalMetric', 'invalid external metric source: neither a value target nor an average value target was set', prefix);
  }
  // The API server's validation keeps these out; the real controller words them so.
  throw new MetricError('InvalidMetricSourceType', `unknown metric source type ${JSON.stringify(spec.type)}`);
}
