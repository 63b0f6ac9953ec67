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
      'scenario.yaml: workloads[0].autoscale.targetCPUUtilizationPercentage: required (must be an integer percentage greater than 0)'],
    [`${DEPLOYMENT}    autoscale: { maxReplicas: 3, targetCPUUtilizationPercentage: 0 }\n`,
      'scenario.yaml: workloads[0].autoscale.targetCPUUtilizationPercentage: must be an integer percentage greater than 0, got 0'],
    [`${DEPLOYMENT}    autoscale: { maxReplicas: 3, targetCPU: 50 }\n`, 'scenario.yaml: workloads[0].autoscale.targetCPU: unknown field; allowed fields: minReplicas, maxReplicas, targetCPUUtilizationPercentage'],
    [`${DEPLOYMENT}    autoscale: yes\n`, 'scenario.yaml: workloads[0].autoscale: must be a mapping such as { minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 }, got "yes"'],
  ];
  for (const [extra, message] of cases) assert.is(errorOf(extra), message);
});

test.run();
