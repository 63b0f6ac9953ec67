// An autoscaler's metrics and behavior as the API server checks them (pkg/apis/autoscaling/
// validation validateMetrics, validateMetricSpec and validateBehavior, 1.32), after defaulting:
// each metric names a known type and populates that source only; its identifier, target type and
// values are sound; a behavior's windows lie within an hour, its policies within half an hour.
// The causes come in the real order, duplicates included (an unknown type is reported twice).
import type { StatusCause } from '../../../api/status.ts';
import { toQuantity } from '../../../api/quantity.ts';
import { validateName } from '../../validation/names.ts';
import { fields, list, text, type Fields } from '../tables-format.ts';
import { forbidden, invalid, notSupported, required } from './rules.ts';
import { validateContainerResourceName } from '../resource-names.ts';
import { isDns1123Label } from '../../../api/name-rules.ts';

const METRIC_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
/** Each type's source field, in the order the real validation visits them. */
const SOURCES: [string, string][] = [['object', 'Object'], ['external', 'External'], ['pods', 'Pods'], ['resource', 'Resource'], ['containerResource', 'ContainerResource']];
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

const isSet = (v: unknown) => v !== undefined && v !== null;
const shown = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** Whether a quantity is above zero; one that does not parse the decoder refuses before validation. */
function positive(v: unknown): boolean {
  try {
    return toQuantity(v as string).nanos > 0n;
  } catch {
    return false;
  }
}

function target(t: Fields, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!text(t.type)) causes.push(required(`${path}.type`, 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(text(t.type))) causes.push(invalid(`${path}.type`, shown(text(t.type)), 'must be either Utilization, Value, or AverageValue'));
  for (const key of ['value', 'averageValue']) if (isSet(t[key]) && !positive(t[key])) causes.push(invalid(`${path}.${key}`, String(t[key]), 'must be positive'));
  if (typeof t.averageUtilization === 'number' && t.averageUtilization < 1) causes.push(invalid(`${path}.averageUtilization`, String(t.averageUtilization), 'must be greater than 0'));
  return causes;
}

function identifier(id: Fields, path: string): StatusCause[] {
  const name = text(id.name);
  return name ? validateName(name, 'path', `${path}.name`) : [required(`${path}.name`, 'must specify a metric name')];
}

/** A source's own rules: what its target must set, and its names. */
function source(key: string, src: Fields, path: string): StatusCause[] {
  const t = fields(src.target);
  const causes: StatusCause[] = [];
  if (key === 'object') {
    const ref = fields(src.describedObject);
    if (!text(ref.kind)) causes.push(required(`${path}.describedObject.kind`));
    if (!text(ref.name)) causes.push(required(`${path}.describedObject.name`));
  }
  if (key === 'resource' || key === 'containerResource') {
    const name = text(src.name);
    if (!name) causes.push(required(`${path}.name`, 'must specify a resource name'));
    else if (key === 'containerResource') causes.push(...validateContainerResourceName(name, `${path}.name`));
    if (key === 'containerResource') {
      const container = text(src.container);
      if (!container) causes.push(required(`${path}.container`, 'must specify a container'));
      else causes.push(...isDns1123Label(container).map((why) => invalid(`${path}.container`, shown(container), why)));
    }
  } else causes.push(...identifier(fields(src.metric), `${path}.metric`));
  causes.push(...target(t, `${path}.target`));
  if (key === 'resource' || key === 'containerResource') {
    if (!isSet(t.averageUtilization) && !isSet(t.averageValue)) causes.push(required(`${path}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
    if (isSet(t.averageUtilization) && isSet(t.averageValue)) causes.push(forbidden(`${path}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  } else if (key === 'pods') {
    if (!isSet(t.averageValue)) causes.push(required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
  } else if (!isSet(t.value) && !isSet(t.averageValue)) {
    causes.push(required(`${path}.target.averageValue`, key === 'object' ? 'must set either a target value or averageValue' : 'must set either a target value for metric or a per-pod target'));
  } else if (key === 'external' && isSet(t.value) && isSet(t.averageValue)) {
    causes.push(forbidden(`${path}.target.value`, 'may not set both a target value for metric and a per-pod target'));
  }
  return causes;
}

function metric(spec: Fields, path: string): StatusCause[] {
  const type = text(spec.type);
  const causes: StatusCause[] = [];
  if (!type) causes.push(required(`${path}.type`, 'must specify a metric source type'));
  if (!METRIC_TYPES.includes(type)) causes.push(notSupported(`${path}.type`, shown(type), METRIC_TYPES));
  const present = SOURCES.filter(([key]) => isSet(spec[key]));
  if (present[0]) causes.push(...source(present[0][0], fields(spec[present[0][0]]), `${path}.${present[0][0]}`));
  const expected = SOURCES.find(([, t]) => t === type)?.[0];
  if (expected && !isSet(spec[expected])) causes.push(required(`${path}.${expected}`, 'must populate information for the given metric source'));
  if (!expected) causes.push(notSupported(`${path}.type`, shown(type), METRIC_TYPES));
  if (present.length !== 1)
    for (const [key] of present.filter(([key]) => key !== expected)) causes.push(forbidden(`${path}.${key}`, 'must populate the given metric source only'));
  return causes;
}

function rules(r: Fields, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const window = r.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) causes.push(invalid(`${path}.stabilizationWindowSeconds`, String(window), 'must be greater than or equal to zero'));
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS)
    causes.push(invalid(`${path}.stabilizationWindowSeconds`, String(window), `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  if (isSet(r.selectPolicy) && !['Disabled', 'Max', 'Min'].includes(text(r.selectPolicy))) causes.push(notSupported(`${path}.selectPolicy`, shown(r.selectPolicy), ['Disabled', 'Max', 'Min']));
  const policies = list(r.policies);
  if (policies.length === 0) causes.push(required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const policy = fields(p), at = `${path}.policies[${i}]`;
    if (!['Pods', 'Percent'].includes(text(policy.type))) causes.push(notSupported(`${at}.type`, shown(text(policy.type)), ['Percent', 'Pods']));
    const value = Number(policy.value ?? 0), period = Number(policy.periodSeconds ?? 0);
    if (value <= 0) causes.push(invalid(`${at}.value`, String(value), 'must be greater than zero'));
    if (period <= 0) causes.push(invalid(`${at}.periodSeconds`, String(period), 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) causes.push(invalid(`${at}.periodSeconds`, String(period), `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return causes;
}

/** The causes of an autoscaler spec's metrics and behavior. */
export function validateMetricsAndBehavior(spec: Fields): StatusCause[] {
  const causes = list(spec.metrics).flatMap((m, i) => metric(fields(m), `spec.metrics[${i}]`));
  const behavior = spec.behavior;
  if (isSet(behavior))
    for (const key of ['scaleUp', 'scaleDown']) if (isSet(fields(behavior)[key])) causes.push(...rules(fields(fields(behavior)[key]), `spec.behavior.${key}`));
  return causes;
}
