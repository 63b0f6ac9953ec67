// What one metric of an autoscaler proposes, as the real controller computes it
// (computeReplicasForMetric, computeStatusForResourceMetricGeneric, and the resource metrics
// client's GetResourceMetric, 1.32): the pods' PodMetrics are listed from metrics.k8s.io through
// the controller's client by the target's selector, each pod's containers summed (a pod missing a
// container's figure has no sample), then the replica rules (hpa-replicas.ts) decide. A failure is
// the error the real one wraps, with the condition reason it records (FailedGetResourceMetric, ...).
// Resource metrics are computed; Pods, Object, External and ContainerResource metrics fail with
// their reasons, as a cluster without those metrics APIs answers them.
import type { MetricSpec, MetricStatus } from 'kubernetes-types/autoscaling/v2.js';
import { parseDuration } from '../../api/duration.ts';
import type { Pod } from '../../api/model/core.ts';
import { formatQuantity, milliQuantity, milliValue, toQuantity } from '../../api/quantity.ts';
import { StatusError } from '../../api/status.ts';
import type { ApiClient } from '../../client/client.ts';
import { averageValueReplicas, resourceReplicas, type PodSample, type Proposal, type ReplicaRules } from './hpa-replicas.ts';

interface PodMetricsItem {
  metadata: { name: string };
  timestamp: string;
  window: string;
  containers?: { name: string; usage?: Record<string, string> }[];
}

/**
 * A metric's failure: the reason of its Event and of ScalingActive, the detail they both tell
 * (`failed to get cpu utilization: ...`), and as its message the detail as the metric names it.
 */
export class MetricError extends Error {
  constructor(readonly reason: string, readonly detail: string, prefix: string) {
    super(`${prefix}: ${detail}`);
  }
}

/** What a metric that worked gives. */
export interface MetricProposal {
  replicas: number;
  /** How the SuccessfulRescale Event names it: `cpu resource utilization (percentage of request)`. */
  name: string;
  status: MetricStatus;
}

/** How client-go words a failed list of PodMetrics. */
function fetchError(e: unknown): string {
  // The real API server answers a group nobody serves with a bare 404, which client-go words so.
  if (e instanceof StatusError && e.status.code === 404) return 'the server could not find the requested resource (get pods.metrics.k8s.io)';
  return (e as Error).message;
}

/** Each pod's summed use of `resource` in milli-units (getPodMetrics); throws the real wording when there is none. */
export async function podSamples(client: ApiClient, namespace: string, selector: string, resource: string): Promise<Map<string, PodSample>> {
  let items: PodMetricsItem[];
  try {
    const list = await client.request('GET', `/apis/metrics.k8s.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods?labelSelector=${encodeURIComponent(selector)}`);
    items = (list as { items?: PodMetricsItem[] }).items ?? [];
  } catch (e) {
    throw new Error(`unable to get metrics for resource ${resource}: unable to fetch metrics from resource metrics API: ${fetchError(e)}`);
  }
  if (items.length === 0) throw new Error(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
  const samples = new Map<string, PodSample>();
  for (const m of items) {
    const containers = m.containers ?? [];
    if (containers.length === 0 || containers.some((c) => c.usage?.[resource] === undefined)) continue;
    const valueMilli = containers.reduce((sum, c) => sum + Number(milliValue(toQuantity(c.usage![resource]!))), 0);
    samples.set(m.metadata.name, { valueMilli, timestampMs: Date.parse(m.timestamp), windowMs: parseDuration(m.window) });
  }
  return samples;
}

const milli = (n: number) => formatQuantity(milliQuantity(BigInt(n)));

/** The proposal of one metric of an autoscaler whose target has `specReplicas` and these pods. */
export async function proposeForMetric(client: ApiClient, namespace: string, selector: string, pods: readonly Pod[], spec: MetricSpec,
  specReplicas: number, rules: ReplicaRules, nowMs: number): Promise<MetricProposal> {
  if (spec.type !== 'Resource' || !spec.resource) return unsupported(spec);
  const { name, target } = spec.resource;
  const fail = (cause: string): never => {
    throw new MetricError('FailedGetResourceMetric', cause, `failed to get ${name} resource metric value`);
  };
  let proposal: Proposal;
  if (target.averageValue !== undefined) {
    const targetMilli = Number(milliValue(toQuantity(target.averageValue)));
    try {
      proposal = averageValueReplicas(specReplicas, targetMilli, name, pods, await podSamples(client, namespace, selector, name), rules, nowMs);
    } catch (e) {
      return fail(`failed to get ${name} usage: ${(e as Error).message}`);
    }
    return { replicas: proposal.replicas, name: `${name} resource`,
      status: { type: 'Resource', resource: { name, current: { averageValue: milli(proposal.rawMilli) } } } };
  }
  if (target.averageUtilization === undefined)
    return fail('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
  try {
    proposal = resourceReplicas(specReplicas, target.averageUtilization, name, pods, await podSamples(client, namespace, selector, name), rules, nowMs);
  } catch (e) {
    return fail(`failed to get ${name} utilization: ${(e as Error).message}`);
  }
  return { replicas: proposal.replicas, name: `${name} resource utilization (percentage of request)`,
    status: { type: 'Resource', resource: { name, current: { averageUtilization: proposal.utilization!, averageValue: milli(proposal.rawMilli) } } } };
}

const NO_CUSTOM = 'the server could not find the requested resource (get pods.custom.metrics.k8s.io)';
const NO_EXTERNAL = 'the server could not find the requested resource (get external.metrics.k8s.io)';

/** The metric kinds whose APIs (custom.metrics.k8s.io, external.metrics.k8s.io) no component here serves. */
function unsupported(spec: MetricSpec): never {
  switch (spec.type) {
    case 'Pods':
      throw new MetricError('FailedGetPodsMetric', `unable to get metric ${spec.pods?.metric.name}: ${NO_CUSTOM}`, 'failed to get pods metric value');
    case 'Object':
      throw new MetricError('FailedGetObjectMetric', `unable to get metric ${spec.object?.metric.name}: ${NO_CUSTOM}`, 'failed to get object metric value');
    case 'External':
      throw new MetricError('FailedGetExternalMetric', `unable to get external metric ${spec.external?.metric.name}: ${NO_EXTERNAL}`, `failed to get ${spec.external?.metric.name} external metric value`);
    case 'ContainerResource':
      throw new MetricError('FailedGetContainerResourceMetric', 'container resource metrics are not simulated', `failed to get ${spec.containerResource?.container} container metric value`);
    default:
      throw new MetricError('InvalidMetricSourceType', `unknown metric source type "${spec.type}"`, 'invalid metric');
  }
}
