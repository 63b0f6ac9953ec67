// `autoscale:` of a Deployment workload: the autoscaling/v2 HorizontalPodAutoscaler for it. Either
// `targetCPUUtilizationPercentage`, the autoscaler `kubectl autoscale --min --max --cpu-percent`
// would make, or `metrics:` as the HPA spec takes them; and optionally `behavior:`, also as the spec
// takes it. Checked here: the replica bounds by the API server's rules for an autoscaler
// (pkg/apis/autoscaling/validation, 1.32: minReplicas at least 1, as scale to zero is behind a
// feature gate; maxReplicas at least minReplicas; a utilization target above 0), and `metrics` and
// `behavior` against the API's schema of their types (fields, types, required fields), each metric
// carrying the source its `type` names. Their values (targets, policies, windows) the API server
// validates when the HPA is created; a refused one is a run error. minReplicas defaults to 1.
import type { HorizontalPodAutoscalerBehavior, MetricSpec } from 'kubernetes-types/autoscaling/v2.js';
import type { Field } from './field.ts';
import { schemaPart } from './manifest-schema.ts';
import type { Autoscale } from './types.ts';
import { integer, optional, positiveInteger } from './schema.ts';

const FIELDS = ['minReplicas', 'maxReplicas', 'targetCPUUtilizationPercentage', 'metrics', 'behavior'];
/** The API server stores replica counts as int32. */
const INT32_MAX = 2_147_483_647;
/** Each metric type and the field holding its source. */
const SOURCES: Record<string, string> = { Resource: 'resource', ContainerResource: 'containerResource', Pods: 'pods', Object: 'object', External: 'external' };

export function autoscale(f: Field): Autoscale {
  f.mapping(FIELDS, 'a mapping such as { minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 }');
  const minReplicas = optional(f.child('minReplicas'), (m) => integer(m, 1, INT32_MAX, 'an integer of at least 1'), 1);
  const maxReplicas = positiveInteger(f.child('maxReplicas'), INT32_MAX);
  if (maxReplicas < minReplicas) f.child('maxReplicas').fail(`must be greater than or equal to minReplicas (${minReplicas})`);
  const out: Autoscale = { minReplicas, maxReplicas };
  const target = f.child('targetCPUUtilizationPercentage');
  if (target.present && f.child('metrics').present) f.child('metrics').error('give either targetCPUUtilizationPercentage or metrics, not both');
  if (f.child('metrics').present) out.metrics = metrics(f.child('metrics'));
  else if (!target.present) target.fail('must be an integer percentage greater than 0, or give metrics');
  else out.targetCPUUtilizationPercentage = integer(target, 1, INT32_MAX, 'an integer percentage greater than 0');
  if (f.child('behavior').present) {
    schemaPart(f.child('behavior'), 'V2HorizontalPodAutoscalerBehavior', 'a behavior');
    out.behavior = structuredClone(f.child('behavior').value) as HorizontalPodAutoscalerBehavior;
  }
  return out;
}

/** The `metrics:` list: each a metric of the HPA spec whose `type` names a source it has. */
function metrics(f: Field): MetricSpec[] {
  return f.list('metrics (such as { type: Resource, resource: { name: memory, target: { type: Utilization, averageUtilization: 70 } } })', { nonEmpty: true })
    .map((m) => {
      schemaPart(m, 'V2MetricSpec', 'a metric');
      const type = m.child('type');
      const source = SOURCES[type.value as string];
      if (source === undefined) type.fail(`must be one of ${Object.keys(SOURCES).join(', ')}`);
      if (!m.child(source).present) m.child(source).fail(`a ${type.value} metric needs its source (the ${source} field)`);
      return structuredClone(m.value) as MetricSpec;
    });
}
