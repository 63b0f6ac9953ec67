// autoscaling/v1 HorizontalPodAutoscalers (what `kubectl autoscale` sends): the stored autoscaling/v2
// objects seen the v1 way, as the real conversion does (pkg/apis/autoscaling/v1 conversion.go, 1.32).
// v1 has one metric, `targetCPUUtilizationPercentage` (a Resource metric of cpu with a Utilization
// target); the v2 fields v1 cannot hold travel in annotations: the other metrics, the behavior,
// the other current metrics and the conditions. Printed as v2 objects are.
import { lookupResource } from '../../../api/resources.ts';
import { badRequest } from '../../../api/status.ts';
import { isPlainObject, type KObject } from '../../../api/types.ts';
import { defineKind } from '../kind.ts';
import { fields, list, type Fields } from '../tables-format.ts';
import { horizontalPodAutoscaler } from './horizontal-pod-autoscaler.ts';

const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';

const isCpuUtilization = (m: Fields) => m.type === 'Resource' && fields(m, 'resource').name === 'cpu'
  && fields(m, 'resource', 'target').type === 'Utilization';
const isCpuCurrent = (m: Fields) => m.type === 'Resource' && fields(m, 'resource').name === 'cpu'
  && typeof fields(m, 'resource', 'current').averageUtilization === 'number';

/** Sets the fields whose values are given, in order (an object's key order is what it encodes to). */
function defined(entries: [string, unknown][]): Fields {
  const out: Fields = {};
  for (const [k, v] of entries) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

/** Takes annotation `key` off and parses it as JSON; a value that does not parse is refused, as the real decoder refuses it. */
function taken(annotations: Record<string, string>, key: string): unknown {
  const text = annotations[key];
  if (text === undefined) return undefined;
  delete annotations[key];
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`annotation ${key}: ${(e as Error).message}`);
  }
}

function withAnnotations(obj: KObject, annotations: Record<string, string>): KObject['metadata'] {
  const { annotations: _, ...metadata } = obj.metadata;
  return Object.keys(annotations).length > 0 ? { ...metadata, annotations } : metadata;
}

function toStored(v1: KObject): KObject {
  const annotations = { ...v1.metadata.annotations };
  const spec = fields(v1.spec);
  const status = fields(v1.status);
  const target = spec.targetCPUUtilizationPercentage;
  const metrics = [
    ...(typeof target === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } }] : []),
    ...list(taken(annotations, METRICS)),
  ];
  const current = status.currentCPUUtilizationPercentage;
  const currentMetrics = [
    ...(typeof current === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } }] : []),
    ...list(taken(annotations, CURRENT_METRICS)),
  ];
  const behavior = taken(annotations, BEHAVIOR);
  const conditions = list(taken(annotations, CONDITIONS));
  return {
    ...v1,
    apiVersion: 'autoscaling/v2',
    metadata: withAnnotations(v1, annotations),
    spec: defined([['scaleTargetRef', spec.scaleTargetRef], ['minReplicas', spec.minReplicas], ['maxReplicas', spec.maxReplicas],
      ['metrics', metrics.length > 0 ? metrics : undefined], ['behavior', isPlainObject(behavior) ? behavior : undefined]]),
    status: defined([['observedGeneration', status.observedGeneration], ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas ?? 0], ['desiredReplicas', status.desiredReplicas ?? 0],
      ['currentMetrics', currentMetrics.length > 0 ? currentMetrics : undefined], ['conditions', conditions.length > 0 ? conditions : undefined]]),
  };
}

function fromStored(v2: KObject): KObject {
  const annotations = { ...v2.metadata.annotations };
  const spec = fields(v2.spec);
  const status = fields(v2.status);
  const metrics = list(spec.metrics).map((m) => fields(m));
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  if (others.length > 0) annotations[METRICS] = JSON.stringify(others);
  if (isPlainObject(spec.behavior)) annotations[BEHAVIOR] = JSON.stringify(spec.behavior);
  const currentMetrics = list(status.currentMetrics).map((m) => fields(m));
  const currentCpu = currentMetrics.find(isCpuCurrent);
  const otherCurrent = currentMetrics.filter((m) => m !== currentCpu);
  if (otherCurrent.length > 0) annotations[CURRENT_METRICS] = JSON.stringify(otherCurrent);
  const conditions = list(status.conditions);
  if (conditions.length > 0) annotations[CONDITIONS] = JSON.stringify(conditions);
  return {
    ...v2,
    apiVersion: 'autoscaling/v1',
    metadata: withAnnotations(v2, annotations),
    spec: defined([['scaleTargetRef', spec.scaleTargetRef], ['minReplicas', spec.minReplicas], ['maxReplicas', spec.maxReplicas],
      ['targetCPUUtilizationPercentage', cpu ? fields(cpu, 'resource', 'target').averageUtilization : undefined]]),
    status: defined([['observedGeneration', status.observedGeneration], ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas ?? 0], ['desiredReplicas', status.desiredReplicas ?? 0],
      ['currentCPUUtilizationPercentage', currentCpu ? fields(currentCpu, 'resource', 'current').averageUtilization : undefined]]),
  };
}

export const horizontalPodAutoscalerV1 = defineKind({
  nameRule: 'subdomain',
  hasStatus: true,
  hasGeneration: false,
  printer: { ...horizontalPodAutoscaler.printer!, cells: (o, nowMs) => horizontalPodAutoscaler.printer!.cells(toStored(o), nowMs) },
  view: { of: lookupResource('autoscaling', 'v2', 'horizontalpodautoscalers')!, toStored, fromStored },
});
