// A small hand-built Report for the report tests: five samples ten seconds apart, two zones, one
// node fault that recovers, and two unschedulable reasons.
import type { Report } from '../../../sim/report/types.ts';

export function sampleReport(): Report {
  return {
    version: 1,
    scenario: { name: 'two-zones', description: 'Two zones, one node crash at 0:20.', durationMs: 60_000 },
    seed: 4242,
    traceHash: 'a'.repeat(64),
    summary: {
      nodes: 6,
      pods: { created: 120, scheduled: 110, running: 97, succeeded: 8, failed: 3, pending: 10, deleted: 2, evicted: 1 },
      schedulingThroughputPerSec: 2.75,
      schedulingLatencyMs: { p50: 35, p90: 420, p99: 2500, max: 7300, count: 110 },
      podStartupMs: { p50: 1800, p90: 3200, p99: 9100, max: 12_000, count: 97 },
      schedulingAttempts: 131,
      unschedulableAttempts: 21,
      preemptions: 4,
      taints: 2,
      taintEvictions: 5,
      events: 1234,
      apiRequests: 5_678_901,
    },
    series: {
      intervalMs: 10_000,
      tMs: [10_000, 20_000, 30_000, 40_000, 50_000],
      podsPending: [60, 30, 25, 12, 10],
      podsRunning: [10, 50, 70, 90, 97],
      podsSucceeded: [0, 1, 3, 6, 8],
      podsFailed: [0, 0, 1, 2, 3],
      nodesReady: [6, 6, 5, 5, 6],
      eventsPerSec: [40, 30, 20, 15, 10],
      apiRequestsPerSec: [120_000, 110_000, 90_000, 100_000, 95_000],
      scheduledPerSec: [3, 4, 2, 2, 0.7],
      cpuUtilisation: [0.1, 0.45, 0.6, 0.7, 0.72],
      memoryUtilisation: [0.05, 0.3, 0.4, 0.5, 0.55],
      perZone: {
        'zone-a': { nodesReady: [3, 3, 2, 2, 3], podsRunning: [5, 25, 30, 40, 47], cpuUtilisation: [0.1, 0.4, 0.7, 0.8, 0.7] },
        'zone-b': { nodesReady: [3, 3, 3, 3, 3], podsRunning: [5, 25, 40, 50, 50], cpuUtilisation: [0.1, 0.5, 0.5, 0.6, 0.74] },
      },
      taintsPerSec: [0, 0, 0.1, 0.1, 0],
      taintEvictionsPerSec: [0, 0, 0, 0, 0.5],
      zoneStates: { 'r:zone-a': ['Normal', 'Normal', 'PartialDisruption', 'FullDisruption', 'Normal'], 'r:zone-b': ['Normal', 'Normal', 'Normal', 'Normal', 'Normal'] },
    },
    histograms: {
      schedulingLatencyMs: { boundsMs: [10, 100, 1000, 10_000], counts: [20, 50, 30, 9, 1] },
      podStartupMs: { boundsMs: [1000, 5000, 60_000], counts: [10, 80, 7, 0] },
    },
    unschedulable: { 'node(s) had untolerated taint': 4, 'Insufficient cpu': 17 },
    faults: [{ kind: 'node-crash', atMs: 20_000, targets: ['zone-a-node-1'], recoveredAtMs: 45_000 }],
    pending: [{ pod: 'default/huge-0', attempts: 7, lastAttemptMs: 55_000, message: '0/6 nodes are available: 6 Insufficient cpu.',
      filtered: { NodeResourcesFit: { 'Insufficient cpu': 6 } } }],
    zones: ['zone-a', 'zone-b'],
    leadership: [
      { lock: 'orch-controller-manager', holder: 'controller-manager-0', fromMs: 0, toMs: 30_000 },
      { lock: 'orch-controller-manager', holder: 'controller-manager-1', fromMs: 47_500 },
    ],
    failovers: [{ lock: 'orch-controller-manager', from: 'controller-manager-0', to: 'controller-manager-1', atMs: 30_000, gapMs: 17_500 }],
    replicaSetDips: [{ replicaSet: 'default/web', desired: 50, fromMs: 21_000, toMs: 24_500 }, { replicaSet: 'default/web', desired: 50, fromMs: 50_000 }],
    timelines: {
      nodes: { 'pool-0': [[0, 'registered'], [1_000, 'Ready'], [20_000, 'Unknown'], [25_000, 'tainted', 'node.kubernetes.io/unreachable']] },
      pods: { 'default/web-0': [[0, 'created'], [12, 'scheduled', 'pool-0'], [3_000, 'started'], [325_000, 'evicted', 'taint-eviction-controller']] },
    },
  };
}

/** The same report with every series empty and nothing measured: a run that ended before its first sample. */
export function emptyReport(): Report {
  const r = sampleReport();
  const none = (): number[] => [];
  r.series = {
    intervalMs: 10_000, tMs: none(), podsPending: none(), podsRunning: none(), podsSucceeded: none(), podsFailed: none(),
    nodesReady: none(), eventsPerSec: none(), apiRequestsPerSec: none(), scheduledPerSec: none(),
    cpuUtilisation: none(), memoryUtilisation: none(),
    perZone: { 'zone-a': { nodesReady: none(), podsRunning: none(), cpuUtilisation: none() } },
    taintsPerSec: none(), taintEvictionsPerSec: none(), zoneStates: {},
  };
  r.leadership = [];
  r.failovers = [];
  r.replicaSetDips = [];
  r.histograms = { schedulingLatencyMs: { boundsMs: [], counts: [] }, podStartupMs: { boundsMs: [10], counts: [0, 0] } };
  r.summary.schedulingLatencyMs = { p50: 0, p90: 0, p99: 0, max: 0, count: 0 };
  r.summary.podStartupMs = { p50: 0, p90: 0, p99: 0, max: 0, count: 0 };
  r.scenario.durationMs = 0;
  r.unschedulable = {};
  r.faults = [];
  return r;
}
