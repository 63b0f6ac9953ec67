// Small plans over node groups the plan tests run, whose answers follow from the rules: 12 one-CPU
// pods arrive at 1m on 4-CPU nodes, one node there from the start, so the load needs 3 nodes at
// its peak; the cluster autoscaler scans every 10s and a node joins 45s after it is asked for.

/** One group `g` (0.5 an hour, min 1) whose max the plan varies from 1 to 6. */
export const oneGroup = (targets = '{ pendingAtEnd: 0 }') => `
name: one-group
duration: 5m
sampleInterval: 30s
nodePools:
  - { name: g, count: 1, costPerHour: 0.5, autoscaling: { min: 1, max: 2 }, capacity: { cpu: "4", memory: 16Gi, pods: 110 } }
workloads:
  - { name: web, count: 12, start: 1m, controller: ReplicaSet, requests: { cpu: "1", memory: 64Mi } }
clusterAutoscaler: { scan-interval: 10s, expander: least-waste, provisioningDelay: 45s }
plan:
  vary: [{ pool: g, min: 1, max: 6 }]
  minimise: cost
  seeds: 1
  targets: ${targets}
`;

/**
 * An on-demand group (0.4 an hour, min 1, the one node at the start) and a spot group (0.1 an
 * hour, min 0, empty at the start) of the same nodes, their maxima chosen on their own; the price
 * expander takes spot first.
 */
export const onDemandAndSpot = (targets = '{ pendingAtEnd: 0 }') => `
name: on-demand-and-spot
duration: 5m
sampleInterval: 30s
nodePools:
  - { name: ondemand, count: 1, costPerHour: 0.4, autoscaling: { min: 1, max: 3 }, capacity: { cpu: "4", memory: 16Gi, pods: 110 } }
  - { name: spot, count: 0, costPerHour: 0.1, autoscaling: { min: 0, max: 3 }, capacity: { cpu: "4", memory: 16Gi, pods: 110 } }
workloads:
  - { name: web, count: 12, start: 1m, controller: ReplicaSet, requests: { cpu: "1", memory: 64Mi } }
clusterAutoscaler: { scan-interval: 10s, expander: price, provisioningDelay: 45s }
plan:
  vary: [{ pool: ondemand, min: 1, max: 3 }, { pool: spot, min: 0, max: 3 }]
  independent: true
  minimise: cost
  seeds: 1
  targets: ${targets}
`;
