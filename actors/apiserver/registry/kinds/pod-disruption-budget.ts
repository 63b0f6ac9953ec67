// PodDisruptionBudgets (policy/v1): a status subresource and generations; printPodDisruptionBudget;
// ValidatePodDisruptionBudget for what users write (minAvailable or maxUnavailable, each a count
// or a percentage up to 100%, a valid selector, a known unhealthyPodEvictionPolicy) and
// ValidatePodDisruptionBudgetStatusUpdate for what the disruption controller and evictions write.
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { validateConditions } from '../../validation/conditions.ts';
import { validateLabelSelector } from '../../validation/label-selector.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, int, integer, nameColumn, nameOf } from '../tables-format.ts';
import { invalid, notNegative, notSupported } from './rules.ts';

const POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];
const PERCENT = /^[0-9]+%$/;

/** An IntOrString as Go's %#v prints it in field errors. */
const goIntOrString = (v: number | string) =>
  (typeof v === 'number' ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}` : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`);

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
function intOrPercentCauses(v: unknown, field: string): StatusCause[] {
  if (typeof v === 'number') return v < 0 ? [notNegative(field, v)] : [];
  if (typeof v !== 'string') return [invalid(field, JSON.stringify(v), "must be an integer or percentage (e.g '5%')")];
  if (!PERCENT.test(v))
    return [invalid(field, goIntOrString(v), "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
  return Number(v.slice(0, -1)) > 100 ? [invalid(field, goIntOrString(v), 'must not be greater than 100%')] : [];
}

function validateSpec(obj: KObject): StatusCause[] {
  const spec = fields(obj.spec);
  const causes: StatusCause[] = [];
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(spec.minAvailable) && has(spec.maxUnavailable))
    causes.push(invalid('spec', `policy.PodDisruptionBudgetSpec{MinAvailable:${JSON.stringify(spec.minAvailable)}, MaxUnavailable:${JSON.stringify(spec.maxUnavailable)}}`,
      'minAvailable and maxUnavailable cannot be both set'));
  if (has(spec.minAvailable)) causes.push(...intOrPercentCauses(spec.minAvailable, 'spec.minAvailable'));
  if (has(spec.maxUnavailable)) causes.push(...intOrPercentCauses(spec.maxUnavailable, 'spec.maxUnavailable'));
  causes.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  if (has(spec.unhealthyPodEvictionPolicy) && !POLICIES.includes(String(spec.unhealthyPodEvictionPolicy)))
    causes.push(notSupported('spec.unhealthyPodEvictionPolicy', JSON.stringify(spec.unhealthyPodEvictionPolicy), POLICIES));
  return causes;
}

function validateStatus(obj: KObject): StatusCause[] {
  const status = fields(obj.status);
  const causes = validateConditions(status.conditions, 'status.conditions');
  for (const f of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'])
    if (typeof status[f] === 'number' && (status[f] as number) < 0) causes.push(notNegative(`status.${f}`, status[f] as number));
  return causes;
}

/** An IntOrString as its String(), or "N/A" when unset. */
function intOrString(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  return 'N/A';
}

export const podDisruptionBudget = defineKind({
  nameRule: 'subdomain',
  hasStatus: true,
  hasGeneration: true,
  validate: (obj, _old, subresource) => (subresource === 'status' ? validateStatus(obj) : validateSpec(obj)),
  printer: {
    columns: [
      nameColumn,
      column('Min Available', 'The minimum number of pods that must be available.'),
      column('Max Unavailable', 'The maximum number of pods that may be unavailable.'),
      column('Allowed Disruptions', 'Calculated number of pods that may be disrupted at this time.', integer),
      ageColumn,
    ],
    cells(o: KObject, nowMs: number) {
      const spec = fields(o.spec);
      return [nameOf(o), intOrString(spec.minAvailable), intOrString(spec.maxUnavailable), int(fields(o.status).disruptionsAllowed), age(o, nowMs)];
    },
  },
});
