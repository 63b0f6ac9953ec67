// Control-plane faults in a whole run: a crashed controller-manager leader is replaced within the
// bounds leader election gives, a partitioned zone is tainted at the normal rate (the other zone is
// healthy) and its pods deleted 300 s after each taint and replaced by their ReplicaSet, and no two
// replicas ever lead at once. The partitioned pods are marked not Ready when their nodes go Unknown.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';

const SCENARIO = `
name: control-plane
duration: 14m
sampleInterval: 10s
replicas: { controllerManager: 2, scheduler: 2 }
nodePools:
  - name: a
    count: 6
    region: r
    zones: [z1, z2]
    capacity: { cpu: "4", memory: 16Gi, pods: 30 }
workloads:
  - name: web
    count: 30
    controller: ReplicaSet
    requests: { cpu: 100m, memory: 128Mi }
faults:
  - kind: controllerManagerCrash
    at: 1m
  - kind: zonePartition
    at: 3m
    zone: z2
  - kind: schedulerFreeze
    at: 2m
    recoverAfter: 20s
`;

test('leaders fail over within their bounds, a partitioned zone is tainted at 0.1/s and emptied 300 s later, one leader at a time', async () => {
  const { report, checks, errors } = await runScenario(parseScenario(SCENARIO, { name: 'control-plane', dir: '.' }));
  assert.equal(errors, []);
  for (const c of checks) assert.is(c.violations, 0, `${c.name}: ${c.examples.join('; ')}`);
  const cm = report.failovers.filter((f) => f.lock === 'orch-controller-manager');
  assert.is(cm.length, 1);
  // A crash releases nothing: the successor waits a lease duration from its last sight of a renewal.
  assert.ok(cm[0]!.gapMs >= 15_000 - 2_000 && cm[0]!.gapMs <= 15_000 + 4.4 * 2_000, `controller-manager failover took ${cm[0]!.gapMs} ms`);
  const sched = report.failovers.filter((f) => f.lock === 'orch-scheduler');
  assert.is(sched.length, 1, 'the frozen scheduler stepped down and the other took over');
  // Zone z2 (3 nodes, region r) fully disrupted while z1 is healthy: 3 taints at 0.1/s, every pod on them deleted.
  assert.is(report.summary.taints, 3);
  const states = report.series.zoneStates['r:z2']!;
  assert.ok(states.includes('FullDisruption'), `z2 went through ${[...new Set(states)].join(', ')}`);
  assert.equal([...new Set(report.series.zoneStates['r:z1'])], ['Normal']);
  const taintTimes = report.series.tMs.filter((_, i) => report.series.taintsPerSec[i]! > 0);
  assert.ok(taintTimes.length >= 2, 'taints spread over samples, not at once');
  assert.is(report.summary.taintEvictions, 15, 'the 15 pods of z2 (the pods spread evenly)');
  // The ReplicaSet replaced each of them on z1.
  assert.is(report.summary.pods.created, 45);
  // Its pods on z2 went not Ready when their nodes went Unknown (MarkPodsNotReady: the partition at
  // 180 s, the last renewal up to one renew interval of 10 s before it, the 40 s grace, a 5 s probe),
  // and it was whole again once the last of them was replaced, 300 s after the last taint (taken in
  // the 10 s sample that holds it), the replacement running within 10 s.
  assert.is(report.replicaSetDips.length, 1, JSON.stringify(report.replicaSetDips));
  const dip = report.replicaSetDips[0]!;
  assert.ok(dip.fromMs >= 180_000 + 40_000 - 10_500 && dip.fromMs <= 180_000 + 40_000 + 5_000, `the dip began at ${dip.fromMs} ms`);
  const lastTaintSample = Math.max(...taintTimes);
  assert.ok(dip.toMs !== undefined && dip.toMs > lastTaintSample - 10_000 + 300_000 && dip.toMs <= lastTaintSample + 300_000 + 10_000,
    `the dip ended at ${dip.toMs} ms, the last taint in the sample at ${lastTaintSample} ms`);
});

test.run();
