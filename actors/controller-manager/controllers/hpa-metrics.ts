// What one metric of an autoscaler proposes, as the real controller computes it
// (computeReplicasForMetric, computeStatusForResourceMetricGeneric, and the resource metrics
// client's GetResourceMetric, 1.32): the pods' PodMetrics are listed from metrics.k8s.io through
// the controller's client by the target's selector, then the replica rules (hpa-replicas.ts) decide.
// A Resource metric sums each pod's containers (a pod missing a container's figure has no sample);
// a ContainerResource metric takes the named container's figure against that container's request
// (a pod whose PodMetrics lack the container fails the metric, as the real client does). A failure
// is the error the real one wraps, with the condition reason it records (FailedGetResourceMetric,
// FailedGetContainerResourceMetric). Pods, Object and External metrics fail as a cluster without
// custom or external metrics APIs answers them (hpa-custom-metrics.ts).
import type { MetricSpec, MetricStatus, MetricTarget, MetricValueStatus } from 'kubernetes-types/autoscaling/v2.js';
import { parseDuration } from '../../api/duration.ts';
import type { Pod } from '../../api/model/core.ts';
import { formatQuantity, milliQuantity, milliValue, toQuantity } from '../../api/quantity.ts';
import { StatusError } from '../../api/status.ts';
import type { ApiClient } from '../../client/client.ts';
import { unservedMetric } from './hpa-custom-metrics.ts';
import { MetricError } from './hpa-metric-error.ts';
import { averageValueReplicas, resourceReplicas, type PodSample, type Proposal, type ReplicaRules } from './hpa-replicas.ts';

interface PodMetricsItem {
  metadata: { name: string; namespace?: string };
  timestamp: string;
  window: string;
  containers?: { name: string; usage?: Record<string, string> }[];
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

/**
 * Each pod's use of `resource` in milli-units: its containers' summed (getPodMetrics), or the one
 * named `container` (getContainerMetrics); throws the real wording when there is none.
 */
export async function podSamples(client: ApiClient, namespace: string, selector: string, resource: string, container = ''): Promise<Map<string, PodSample>> {
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
    if (container !== '') {
      const named = m.containers?.find((c) => c.name === container);
      if (!named) throw new Error(`unable to get metrics for resource ${resource}: failed to get container metrics: container ${container} not present in metrics for pod ${m.metadata.namespace ?? ''}/${m.metadata.name}`);
      const use = named.usage?.[resource];
      if (use !== undefined) samples.set(m.metadata.name, sample(m, Number(milliValue(toQuantity(use)))));
      continue;
    }
    const containers = m.containers ?? [];
    if (containers.length === 0 || containers.some((c) => c.usage?.[resource] === undefined)) continue;
    const valueMilli = containers.reduce((sum, c) => sum + Number(milliValue(toQuantity(c.usage![resource]!))), 0);
    samples.set(m.metadata.name, sample(m, valueMilli));
  }
  return samples;
}

const sample = (m: PodMetricsItem, valueMilli: number): PodSample => ({ valueMilli, timestampMs: Date.parse(m.timestamp), windowMs: parseDuration(m.window) });

const milli = (n: number) => formatQuantity(milliQuantity(BigInt(n)));

/** Where a resource metric's figures come from: all of a pod's containers, or one of them. */
interface ResourceSource {
  type: 'Resource' | 'ContainerResource';
  name: string;
  container: string;
  target: MetricTarget;
}

/** The proposal of one metric of an autoscaler whose target has `specReplicas` and these pods. */
export async function proposeForMetric(client: ApiClient, namespace: string, selector: string, pods: readonly Pod[], spec: MetricSpec,
  specReplicas: number, rules: ReplicaRules, nowMs: number): Promise<MetricProposal> {
  let source: ResourceSource, fail: (cause: string) => never;
  if (spec.type === 'Resource' && spec.resource) {
    source = { type: 'Resource', name: spec.resource.name, container: '', target: spec.resource.target };
    fail = (cause) => {
      throw new MetricError('FailedGetResourceMetric', cause, `failed to get ${source.name} resource metric value`);
    };
  } else if (spec.type === 'ContainerResource' && spec.containerResource) {
    const { name, container, target } = spec.containerResource;
    source = { type: 'ContainerResource', name, container, target };
    fail = (cause) => {
      throw new MetricError('FailedGetContainerResourceMetric', cause, `failed to get ${container} container metric value`);
    };
  } else return unservedMetric(spec, namespace);
  const samples = () => podSamples(client, namespace, selector, source.name, source.container);
  const { name, container, target } = source;
  const status = (current: MetricValueStatus): MetricStatus => source.type === 'Resource'
    ? { type: 'Resource', resource: { name, current } } : { type: 'ContainerResource', containerResource: { name, container, current } };
  let proposal: Proposal;
  if (target.averageValue !== undefined) {
    const targetMilli = Number(milliValue(toQuantity(target.averageValue)));
    try {
      proposal = averageValueReplicas(specReplicas, targetMilli, name, pods, await samples(), rules, nowMs);
    } catch (e) {
      return fail(`failed to get ${name} usage: ${(e as Error).message}`);
    }
    return { replicas: proposal.replicas, name: `${name} resource`, status: status({ averageValue: milli(proposal.rawMilli) }) };
  }
  if (target.averageUtilization === undefined)
    return fail('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
  try {
    proposal = resourceReplicas(specReplicas, target.averageUtilization, name, pods, await samples(), rules, nowMs, container);
  } catch (e) {
    return fail(`failed to get ${name} utilization: ${(e as Error).message}`);
  }
  const what = source.type === 'Resource' ? 'resource' : 'container resource';
  return { replicas: proposal.replicas, name: `${name} ${what} utilization (percentage of request)`,
    status: status({ averageUtilization: proposal.utilization!, averageValue: milli(proposal.rawMilli) }) };
}
