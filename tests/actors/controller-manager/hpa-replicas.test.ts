// The replica counts a Resource metric proposes, worked by hand from the real replica calculator's
// rules (replica_calculator.go, 1.32): integer utilization of the summed requests, the tolerance,
// missing and unready pods filled in on a second pass, the CPU initialization period and the
// initial readiness delay, and the errors in the real words.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Pod } from '../../../actors/api/model/core.ts';
import { averageValueReplicas, podRequests, resourceReplicas, type PodSample } from '../../../actors/controller-manager/controllers/hpa-replicas.ts';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const RULES = { tolerance: 0.1, cpuInitializationPeriodMs: 300_000, initialReadinessDelayMs: 30_000 };

/** A pod requesting `cpu`, Running and Ready since long ago unless told otherwise. */
function pod(name: string, o: { cpu?: string; phase?: string; ready?: 'True' | 'False'; startedAgoMs?: number; readySinceAgoMs?: number; deleting?: boolean } = {}): Pod {
  const started = NOW - (o.startedAgoMs ?? 3_600_000);
  return {
    metadata: { name, namespace: 'default', ...(o.deleting ? { deletionTimestamp: iso(NOW) } : {}) },
    spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: o.cpu ?? '1' } } }] },
    status: { phase: o.phase ?? 'Running', startTime: iso(started),
      conditions: [{ type: 'Ready', status: o.ready ?? 'True', lastTransitionTime: iso(NOW - (o.readySinceAgoMs ?? 3_000_000)) }] },
  } as Pod;
}

const samples = (values: Record<string, number>, atMs = NOW): Map<string, PodSample> =>
  new Map(Object.entries(values).map(([name, valueMilli]) => [name, { valueMilli, timestampMs: atMs, windowMs: 15_000 }]));

const three = [pod('a'), pod('b'), pod('c')];

test('utilization is the integer percentage of the summed requests; the ratio to the target times the ready pods, rounded up, is the count', () => {
  // 2700m of 3000m: 90%; 90 / 50 = 1.8; ceil(1.8 × 3) = 6.
  assert.equal(resourceReplicas(3, 50, 'cpu', three, samples({ a: 800, b: 900, c: 1000 }), RULES, NOW), { replicas: 6, utilization: 90, rawMilli: 900 });
  // 300m of 3000m: 10%; 10 / 50 = 0.2; ceil(0.6) = 1.
  assert.is(resourceReplicas(3, 50, 'cpu', three, samples({ a: 100, b: 100, c: 100 }), RULES, NOW).replicas, 1);
});

test('a ratio within the tolerance of 1.0 keeps the current count', () => {
  // 53% against 50%: 1.06.
  assert.equal(resourceReplicas(3, 50, 'cpu', three, samples({ a: 530, b: 530, c: 530 }), RULES, NOW), { replicas: 3, utilization: 53, rawMilli: 530 });
  assert.is(resourceReplicas(3, 50, 'cpu', three, samples({ a: 560, b: 560, c: 560 }), RULES, NOW).replicas, 4, '1.12 is outside: ceil(3.36)');
});

test('a pod without a sample counts as using nothing on a scale-up', () => {
  // a, b at 100% of 50%: 2.0; c at 0: 2000m of 3000m = 66%, 1.32; ceil(3.96) = 4.
  assert.is(resourceReplicas(3, 50, 'cpu', three, samples({ a: 1000, b: 1000 }), RULES, NOW).replicas, 4);
});

test('a pod without a sample counts as using its request on a scale-down, or the target when that is above 100%', () => {
  // a, b at 10%; c at its request: 1200m of 3000m = 40%; against 80%: 0.5, ceil(1.5) = 2.
  assert.is(resourceReplicas(3, 80, 'cpu', three, samples({ a: 100, b: 100 }), RULES, NOW).replicas, 2);
  // Against 200%, c counts 2000m: 2200m of 3000m = 73%; 0.365; ceil(1.095) = 2.
  assert.is(resourceReplicas(3, 200, 'cpu', three, samples({ a: 100, b: 100 }), RULES, NOW).replicas, 2);
  // Against 50%: 40 / 50 = 0.8, ceil(2.4) = 3, no fewer than now: the count stays.
  assert.is(resourceReplicas(3, 50, 'cpu', three, samples({ a: 100, b: 100 }), RULES, NOW).replicas, 3);
});

test('unready pods count as using nothing on a scale-up and are left out of a scale-down', () => {
  const pods = [pod('a'), pod('b'), pod('c', { phase: 'Pending' })];
  assert.is(resourceReplicas(3, 50, 'cpu', pods, samples({ a: 1000, b: 1000 }), RULES, NOW).replicas, 4, 'as the missing pod: 1.32 × 3');
  assert.is(resourceReplicas(3, 50, 'cpu', pods, samples({ a: 100, b: 100 }), RULES, NOW).replicas, 1, '0.2 × the 2 ready pods, rounded up');
});

test('within the CPU initialization period a sample counts only from a full window after the pod became Ready', () => {
  const young = (readyAgo: number) => [pod('a'), pod('b', { startedAgoMs: 60_000, readySinceAgoMs: readyAgo })];
  // b Ready 30 s ago, its 15 s window began after that: both count, 2000m of 2000m = 100%, 2.0 → 4.
  assert.is(resourceReplicas(2, 50, 'cpu', young(30_000), samples({ a: 1000, b: 1000 }), RULES, NOW).replicas, 4);
  // b Ready 10 s ago: its sample is left out and b counts 0 on the scale-up: 1000m of 2000m = 50%, 1.0, the count stays.
  assert.is(resourceReplicas(2, 50, 'cpu', young(10_000), samples({ a: 1000, b: 1000 }), RULES, NOW).replicas, 2);
});

test('after the initialization period a not-Ready pod is left out only if it never was Ready', () => {
  const notReady = (readyChangedAfterStartMs: number) => {
    const startedAgo = 600_000;
    return [pod('a'), pod('b', { startedAgoMs: startedAgo, ready: 'False', readySinceAgoMs: startedAgo - readyChangedAfterStartMs })];
  };
  // b's condition last changed 20 s after its start (within the 30 s delay): never Ready, left out; a alone at 10%: 0.2 → 1.
  assert.is(resourceReplicas(2, 50, 'cpu', notReady(20_000), samples({ a: 100, b: 900 }), RULES, NOW).replicas, 1);
  // Changed 5 minutes after its start: it was Ready once, its sample counts: 1000m of 2000m = 50%, the count stays.
  assert.is(resourceReplicas(2, 50, 'cpu', notReady(300_000), samples({ a: 100, b: 900 }), RULES, NOW).replicas, 2);
});

test('pods being deleted or Failed are left out whatever their samples', () => {
  const pods = [pod('a'), pod('b', { deleting: true }), pod('c', { phase: 'Failed' })];
  assert.equal(resourceReplicas(1, 50, 'cpu', pods, samples({ a: 250, b: 5000, c: 5000 }), RULES, NOW), { replicas: 1, utilization: 25, rawMilli: 250 });
});

test('an AverageValue target divides the average use by it', () => {
  // 1000m average against 500m: 2.0, ceil(2 × 2) = 4.
  assert.equal(averageValueReplicas(2, 500, 'cpu', [pod('a'), pod('b')], samples({ a: 1200, b: 800 }), RULES, NOW), { replicas: 4, rawMilli: 1000 });
  assert.is(averageValueReplicas(2, 500, 'cpu', [pod('a'), pod('b')], samples({ a: 520, b: 500 }), RULES, NOW).replicas, 2, 'within the tolerance');
});

test('requests sum the containers and the restartable init containers', () => {
  const p = pod('a');
  p.spec!.containers.push({ name: 'side', resources: { requests: { cpu: '250m' } } });
  p.spec!.initContainers = [{ name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } }, { name: 'setup', resources: {} }];
  assert.equal(podRequests([p], 'cpu'), new Map([['a', 1350]]));
});

test('with a container named, requests are only that container\'s, and a pod without it requests nothing', () => {
  const both = pod('a');
  both.spec!.containers.push({ name: 'sidecar', image: 'envoy', resources: { requests: { cpu: '300m' } } });
  assert.equal([...podRequests([both, pod('b')], 'cpu', 'sidecar')], [['a', 300], ['b', 0]]);
  assert.equal([...podRequests([both], 'cpu', 'main')], [['a', 1000]]);
  // The sidecar's 450m of 300m is 150%, against 50%: ratio 3, ceil(3 × 1) = 3.
  assert.equal(resourceReplicas(1, 50, 'cpu', [both], samples({ a: 450 }), RULES, NOW, 'sidecar'), { replicas: 3, utilization: 150, rawMilli: 450 });
});

test('no pods, no samples of ready pods and a container without a request fail in the real words', () => {
  assert.throws(() => resourceReplicas(1, 50, 'cpu', [], samples({}), RULES, NOW), /^no pods returned by selector while calculating replica count$/);
  assert.throws(() => resourceReplicas(1, 50, 'cpu', [pod('a', { phase: 'Pending' })], samples({ a: 10 }), RULES, NOW),
    /did not receive metrics for targeted pods \(pods might be unready\)/);
  const bare = pod('a');
  bare.spec!.containers[0]!.resources = {};
  assert.throws(() => resourceReplicas(1, 50, 'cpu', [bare], samples({ a: 10 }), RULES, NOW), /missing request for cpu in container main of Pod a/);
});

test.run();
