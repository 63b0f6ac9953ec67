// The small plan the plan tests run as a user would: 32 one-CPU pods that must survive losing any
// zone of a 4-CPU pool, planned from 10 to 13 nodes on one seed (the answer is 12), with `targets`.
export const spareZone = (targets: string) => `
name: spare-zone
duration: 10m
sampleInterval: 30s
nodePools:
  - { name: pool, count: 9, region: r, zones: [zone-a, zone-b, zone-c], capacity: { cpu: "4", memory: 64Gi, pods: 110 } }
workloads:
  - { name: web, count: 32, controller: ReplicaSet, requests: { cpu: "1", memory: 64Mi } }
faults:
  - { kind: zonePartition, at: 1m, zone: any }
plan:
  vary: [{ pool: pool, min: 10, max: 13 }]
  seeds: 1
  targets: ${targets}
`;
