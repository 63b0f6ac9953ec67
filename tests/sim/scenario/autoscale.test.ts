// A Deployment workload's `autoscale:`: checked by the API server's rules for an autoscaler when
// the scenario loads, each broken one reported at its field, and made into the autoscaling/v2
// HorizontalPodAutoscaler `kubectl autoscale` would create for it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseScenario, ScenarioError } from '../../../sim/scenario/load.ts';
import { workloadAutoscaler } from '../../../sim/workload.ts';

const BASE = 'duration: 30m\nnodePools: [{ name: general, count: 2 }]\nworkloads:\n  - name: web\n    namespace: shop\n    count: 3\n    requests: { cpu: 100m, memory: 128Mi }\n';
const DEPLOYMENT = '    controller: Deployment\n';
const parse = (extra: string) => parseScenario(BASE + extra, { name: 'scenario', dir: '.' });

function errorOf(extra: string): string {
  try {
    parse(extra);
  } catch (e) {
    if (e instanceof ScenarioError) return e.message;
    throw e;
  }
  throw new Error(`parsed without error: ${extra}`);
}

test('autoscale makes an autoscaling/v2 HPA on the workload\'s Deployment by CPU utilization, minReplicas 1 unless given', () => {
  const w = parse(`${DEPLOYMENT}    autoscale: { maxReplicas: 8, targetCPUUtilizationPercentage: 60 }\n`).workloads[0]!;
  assert.equal(w.autoscale, { minReplicas: 1, maxReplicas: 8, targetCPUUtilizationPercentage: 60 });
  assert.equal(workloadAutoscaler({ ...w, autoscale: w.autoscale! }), {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'shop', labels: { 'orchsim.io/workload': 'web' } },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 8,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
    },
  });
  assert.is(parse(DEPLOYMENT).workloads[0]!.autoscale, undefined, 'no autoscale, no autoscaler');
});

test('an autoscale breaking a rule is refused at its field with the rule', () => {
  const cases: [string, string][] = [
    ['    autoscale: { maxReplicas: 3, targetCPUUtilizationPercentage: 50 }\n',
      'scenario.yaml: workloads[0].autoscale: applies to a Deployment workload only: give controller: Deployment too'],
    [`${DEPLOYMENT}    autoscale: { minReplicas: 0, maxReplicas: 3, targetCPUUtilizationPercentage: 50 }\n`,
      'scenario.yaml: workloads[0].autoscale.minReplicas: must be an integer of at least 1, got 0'],
    [`${DEPLOYMENT}    autoscale: { minReplicas: 4, maxReplicas: 3, targetCPUUtilizationPercentage: 50 }\n`,
      'scenario.yaml: workloads[0].autoscale.maxReplicas: must be greater than or equal to minReplicas (4), got 3'],
    [`${DEPLOYMENT}    autoscale: { targetCPUUtilizationPercentage: 50 }\n`,
      'scenario.yaml: workloads[0].autoscale.maxReplicas: required (must be a positive integer)'],
    [`${DEPLOYMENT}    autoscale: { maxReplicas: 3 }\n`,
      'scenario.yaml: workloads[0].autoscale.targetCPUUtilizationPercentage: required (must be an integer percentage greater than 0, or give metrics)'],
    [`${DEPLOYMENT}    autoscale: { maxReplicas: 3, targetCPUUtilizationPercentage: 0 }\n`,
      'scenario.yaml: workloads[0].autoscale.targetCPUUtilizationPercentage: must be an integer percentage greater than 0, got 0'],
    [`${DEPLOYMENT}    autoscale: { maxReplicas: 3, targetCPU: 50 }\n`, 'scenario.yaml: workloads[0].autoscale.targetCPU: unknown field; allowed fields: minReplicas, maxReplicas, targetCPUUtilizationPercentage, metrics, behavior'],
    [`${DEPLOYMENT}    autoscale: yes\n`, 'scenario.yaml: workloads[0].autoscale: must be a mapping such as { minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 }, got "yes"'],
  ];
  for (const [extra, message] of cases) assert.is(errorOf(extra), message);
});

const MEMORY_70 = '{ type: Resource, resource: { name: memory, target: { type: Utilization, averageUtilization: 70 } } }';

test('metrics and behavior go into the HPA as the spec takes them, instead of the CPU shorthand', () => {
  const w = parse(`${DEPLOYMENT}    autoscale:\n      maxReplicas: 8\n      metrics: [${MEMORY_70}]\n`
    + '      behavior: { scaleUp: { policies: [{ type: Pods, value: 1, periodSeconds: 60 }] }, scaleDown: { stabilizationWindowSeconds: 60 } }\n').workloads[0]!;
  const metrics = [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 70 } } }];
  const behavior = { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] }, scaleDown: { stabilizationWindowSeconds: 60 } };
  assert.equal(w.autoscale, { minReplicas: 1, maxReplicas: 8, metrics, behavior });
  assert.equal((workloadAutoscaler({ ...w, autoscale: w.autoscale! }).spec as Record<string, unknown>), {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 8, metrics, behavior,
  });
});

test('metrics and behavior of the wrong shape are refused at the field, with the rule or the fields allowed there', () => {
  const at = (yaml: string) => errorOf(`${DEPLOYMENT}    autoscale:\n      maxReplicas: 3\n${yaml}`);
  const cases: [string, string][] = [
    [`      targetCPUUtilizationPercentage: 50\n      metrics: [${MEMORY_70}]\n`,
      'scenario.yaml: workloads[0].autoscale.metrics: give either targetCPUUtilizationPercentage or metrics, not both'],
    ['      metrics: []\n', 'scenario.yaml: workloads[0].autoscale.metrics: must list at least one of metrics (such as { type: Resource, resource: { name: memory, target: { type: Utilization, averageUtilization: 70 } } }), got []'],
    ['      metrics: [{ type: Resource, resource: { name: memory, targe: { type: Utilization } } }]\n',
      'scenario.yaml: workloads[0].autoscale.metrics[0].resource.targe: unknown field of a metric (did you mean target?); allowed fields: name, target'],
    ['      metrics: [{ type: Memory, resource: { name: memory, target: { type: Utilization } } }]\n',
      'scenario.yaml: workloads[0].autoscale.metrics[0].type: must be one of Resource, ContainerResource, Pods, Object, External, got "Memory"'],
    ['      metrics: [{ type: Pods, resource: { name: memory, target: { type: Utilization } } }]\n',
      'scenario.yaml: workloads[0].autoscale.metrics[0].pods: required (a Pods metric needs its source (the pods field))'],
    ['      metrics: [{ resource: { name: memory, target: { type: Utilization } } }]\n',
      'scenario.yaml: workloads[0].autoscale.metrics[0].type: required in a metric'],
    ['      targetCPUUtilizationPercentage: 50\n      behavior: { scaleup: {} }\n',
      'scenario.yaml: workloads[0].autoscale.behavior.scaleup: unknown field of a behavior (did you mean scaleUp?); allowed fields: scaleDown, scaleUp'],
    ['      targetCPUUtilizationPercentage: 50\n      behavior: { scaleUp: { policies: [{ type: Pods, value: one, periodSeconds: 60 }] } }\n',
      'scenario.yaml: workloads[0].autoscale.behavior.scaleUp.policies[0].value: cannot unmarshal string into Go struct field HPAScalingPolicy.scaleUp.policies.value of type int32'],
  ];
  for (const [yaml, message] of cases) assert.is(at(yaml), message);
});

test.run();
