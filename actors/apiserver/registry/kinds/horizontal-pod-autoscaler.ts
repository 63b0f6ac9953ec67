// HorizontalPodAutoscalers (autoscaling/v2): one replica at least, 80% CPU when no metric is given,
// and the scaling rules of a behavior filled in (pkg/apis/autoscaling/v2 defaults.go, 1.32);
// printHorizontalPodAutoscaler's Reference and Targets. The controller manager's
// horizontal-pod-autoscaler-controller acts on them.
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { child, fill, nil, present } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, type Fields, int, integer, list, nameColumn, nameOf, text } from '../tables-format.ts';
import { specOf } from './rules.ts';
import { validateMetricsAndBehavior } from './horizontal-pod-autoscaler-spec.ts';

const DEFAULT_CPU_UTILIZATION = 80;
const SCALE_UP = { stabilizationWindowSeconds: 0, selectPolicy: 'Max',
  policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
// The scale-down window stays unset: the controller's --horizontal-pod-autoscaler-downscale-stabilization decides it.
const SCALE_DOWN = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

/** A behavior's rules with what they leave unset taken from `base` (copyHPAScalingRules). */
function rules(given: unknown, base: Fields): Fields {
  const r = fields(given);
  return { ...structuredClone(base), ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null && v !== undefined)) };
}

function defaults(hpa: KObject): void {
  const spec = child(hpa, 'spec');
  fill(spec, [nil('minReplicas', 1)]);
  if (list(spec.metrics).length === 0)
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  const behavior = present(spec, 'behavior');
  // Written only where something is unset: an update may share a stored, complete behavior.
  if (behavior) {
    for (const [key, base] of [['scaleUp', SCALE_UP], ['scaleDown', SCALE_DOWN]] as const) {
      const given = fields(behavior[key]);
      if (Object.keys(base).some((k) => given[k] === undefined || given[k] === null)) behavior[key] = rules(given, base);
    }
  }
}

const invalidValue = (field: string, value: unknown, why: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${why}`, field });

function validate(hpa: KObject): StatusCause[] {
  const spec = specOf(hpa);
  const causes: StatusCause[] = [];
  const min = spec.minReplicas;
  if (typeof min === 'number' && min < 1) causes.push(invalidValue('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (typeof spec.maxReplicas === 'number' && spec.maxReplicas < (typeof min === 'number' ? min : 1))
    causes.push(invalidValue('spec.maxReplicas', spec.maxReplicas, 'must be greater than or equal to `minReplicas`'));
  const ref = fields(spec.scaleTargetRef);
  if (!text(ref.kind)) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.scaleTargetRef.kind' });
  if (!text(ref.name)) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.scaleTargetRef.name' });
  causes.push(...validateMetricsAndBehavior(spec));
  return causes;
}

/** One metric's "name: current/target", as formatHPAMetrics writes it for resource metrics; others as their values. */
function metricCell(spec: Fields, status: Fields | undefined): string {
  const source = (type: string) => fields(spec, type);
  const current = (type: string) => (status ? fields(status, type, 'current') : {});
  const quantity = (v: unknown) => (v === undefined || v === null ? '<unknown>' : String(v));
  switch (spec.type) {
    case 'Resource':
    case 'ContainerResource': {
      const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const target = fields(source(key), 'target');
      if (target.averageValue !== undefined) return `${text(source(key).name)}: ${quantity(current(key).averageValue)}/${String(target.averageValue)}`;
      const now = current(key).averageUtilization;
      const goal = target.averageUtilization;
      return `${text(source(key).name)}: ${typeof now === 'number' ? `${now}%` : '<unknown>'}/${typeof goal === 'number' ? `${goal}%` : '<auto>'}`;
    }
    case 'Pods':
      return `${quantity(current('pods').averageValue)}/${String(fields(source('pods'), 'target').averageValue)}`;
    case 'Object':
    case 'External': {
      const key = spec.type === 'Object' ? 'object' : 'external';
      const target = fields(source(key), 'target');
      if (target.averageValue !== undefined) return `${quantity(current(key).averageValue)}/${String(target.averageValue)} (avg)`;
      return `${quantity(current(key).value)}/${String(target.value)}`;
    }
    default:
      return '<unknown type>';
  }
}

const MAX_SHOWN_METRICS = 2;

function targets(hpa: KObject): string {
  const specs = list(specOf(hpa).metrics).map((m) => fields(m));
  if (specs.length === 0) return '<none>';
  const statuses = list(fields(hpa.status).currentMetrics).map((m) => fields(m));
  const cells = specs.map((s, i) => metricCell(s, statuses[i]));
  const shown = cells.slice(0, MAX_SHOWN_METRICS).join(', ');
  return cells.length > MAX_SHOWN_METRICS ? `${shown} + ${cells.length - MAX_SHOWN_METRICS} more...` : shown;
}

export const horizontalPodAutoscaler = defineKind({
  nameRule: 'subdomain',
  hasStatus: true,
  hasGeneration: false,
  defaults,
  validate,
  printer: {
    columns: [
      nameColumn,
      column('Reference', 'reference to the target object'),
      column('Targets', 'the current and target metric values'),
      column('MinPods', 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.'),
      column('MaxPods', 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.', integer),
      column('Replicas', 'current number of replicas of pods managed by this autoscaler.', integer),
      ageColumn,
    ],
    cells(o, nowMs) {
      const spec = specOf(o);
      const ref = fields(spec.scaleTargetRef);
      const min = spec.minReplicas;
      return [nameOf(o), `${text(ref.kind)}/${text(ref.name)}`, targets(o), typeof min === 'number' ? String(min) : '<unset>',
        int(spec.maxReplicas), int(fields(o.status).currentReplicas), age(o, nowMs)];
    },
  },
});
