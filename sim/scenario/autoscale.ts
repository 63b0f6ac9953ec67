// `autoscale:` of a Deployment workload: the autoscaler `kubectl autoscale --min --max
// --cpu-percent` would make for it, checked by the API server's rules for a
// HorizontalPodAutoscaler (pkg/apis/autoscaling/validation, 1.32): minReplicas at least 1 (scale
// to zero is behind a feature gate), maxReplicas at least minReplicas, a utilization target
// above 0. minReplicas defaults to 1, as the API server's defaulting does.
import type { Field } from './field.ts';
import type { Autoscale } from './types.ts';
import { integer, optional, positiveInteger } from './schema.ts';

const FIELDS = ['minReplicas', 'maxReplicas', 'targetCPUUtilizationPercentage'];
/** The API server stores replica counts as int32. */
const INT32_MAX = 2_147_483_647;

export function autoscale(f: Field): Autoscale {
  f.mapping(FIELDS, 'a mapping such as { minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 }');
  const minReplicas = optional(f.child('minReplicas'), (m) => integer(m, 1, INT32_MAX, 'an integer of at least 1'), 1);
  const maxReplicas = positiveInteger(f.child('maxReplicas'), INT32_MAX);
  if (maxReplicas < minReplicas) f.child('maxReplicas').fail(`must be greater than or equal to minReplicas (${minReplicas})`);
  const targetCPUUtilizationPercentage = integer(f.child('targetCPUUtilizationPercentage'), 1, INT32_MAX, 'an integer percentage greater than 0');
  return { minReplicas, maxReplicas, targetCPUUtilizationPercentage };
}
