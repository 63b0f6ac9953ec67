// A small cluster that breathes, for the report's series and charts over time: an autoscaled
// Deployment whose pods' CPU use steps from 40% to 90% of their request at 4m (its HPA targets
// 50%), memory a constant 300Mi a pod, on an on-demand group under the cluster autoscaler and a
// fixed pool. The step takes the Deployment to its maximum, more pods than the nodes hold, so
// the autoscaler adds an on-demand node.
import { parseScenario } from '../../sim/scenario/load.ts';
import type { Scenario } from '../../sim/scenario/types.ts';

export const BREATHING = {
  stepMs: 240_000,
  cpuRequest: 0.6,
  before: 0.4,
  after: 0.9,
  memoryBytes: 300 * 1024 ** 2,
  target: 50,
  maxReplicas: 10,
  costPerHour: 0.4,
};

export const BREATHING_YAML = `
name: breathing
duration: 12m
sampleInterval: 15s
nodePools:
  - name: ondemand
    count: 2
    zones: [zone-a, zone-b]
    capacity: { cpu: "2", memory: 8Gi }
    costPerHour: 0.4
    autoscaling: { min: 1, max: 4 }
  - name: fixed
    count: 1
    zones: [zone-a]
    capacity: { cpu: "1", memory: 8Gi }
workloads:
  - name: web
    controller: Deployment
    count: 3
    requests: { cpu: 600m, memory: 512Mi }
    usage: { cpu: { kind: step, before: 0.4, after: 0.9, at: 4m }, memory: { kind: constant, quantity: 300Mi } }
    autoscale: { minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 50 }
clusterAutoscaler:
  scan-interval: 10s
  provisioningDelay: 1m
`;

export const breathingScenario = (): Scenario => parseScenario(BREATHING_YAML, { name: 'breathing', dir: '.' });
