// The horizontal pod autoscaler alone against a real API server on virtual time, its target a
// Deployment and its pods written by the test, their PodMetrics served by a stand-in metrics API
// the test sets: its first sync one period after the autoscaler appears, a scale-up limited to
// twice (or 4), a scale-down held by the stabilization window, a target outside [min, max]
// brought within, a missing target, and a cluster without metrics.k8s.io (as under `orchsim run`).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hpaWorld as world } from '../../helpers/hpa-world.ts';

test('two pods at three times the target want 6; the first sync, a period after the autoscaler appears, scales to 4, twice the current count', async () => {
  const w = await world();
  try {
    await w.pod('a', 300);
    await w.pod('b', 300);
    await w.autoscale();
    await w.run(14_000);
    assert.is((await w.hpa()).status?.conditions, undefined, 'not synced before a period');
    await w.run(2_000);
    assert.is(await w.replicasNow(), 4);
    const status = (await w.hpa()).status!;
    assert.equal([status.currentReplicas, status.desiredReplicas], [2, 4]);
    assert.equal(status.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 150, averageValue: '300m' } } }]);
    assert.ok(status.lastScaleTime);
    assert.equal(await w.condition('AbleToScale'), ['True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 4']);
    assert.equal(await w.condition('ScalingLimited'), ['True', 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate']);
    assert.equal(await w.events(), [['Normal', 'SuccessfulRescale', 'New size: 4; reason: cpu resource utilization (percentage of request) above target']]);
  } finally {
    w.stop();
  }
});

test('a scale-down waits out the five minute window of higher recommendations, then goes with "All metrics below target"', async () => {
  const w = await world({ replicas: 3 });
  try {
    for (const name of ['a', 'b', 'c']) await w.pod(name, 20); // 10%: 0.2 × 3 pods wants 1
    await w.autoscale();
    await w.run(16_000);
    assert.is(await w.replicasNow(), 3);
    assert.equal(await w.condition('AbleToScale'), ['True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation']);
    assert.equal((await w.hpa()).status!.desiredReplicas, 3);
    // The first sync's recommendation of 3 (at 15 s) still counts at 315 s, exactly a window later.
    await w.run(299_000);
    assert.is(await w.replicasNow(), 3);
    await w.run(15_000);
    assert.is(await w.replicasNow(), 1, 'at 330 s it has left the window');
    assert.equal((await w.events()).map((e) => e[2]), ['New size: 1; reason: All metrics below target']);
  } finally {
    w.stop();
  }
});

test('a target above maxReplicas is brought down to it whatever its metrics say', async () => {
  const w = await world({ metrics: false, replicas: 7 });
  try {
    await w.autoscale();
    await w.run(16_000);
    assert.is(await w.replicasNow(), 5);
    assert.equal(await w.events(), [['Normal', 'SuccessfulRescale', 'New size: 5; reason: Current number of replicas above Spec.MaxReplicas']]);
  } finally {
    w.stop();
  }
});

test('without metrics.k8s.io each sync records FailedGetResourceMetric, ScalingActive turns False and the target stays', async () => {
  const w = await world({ metrics: false });
  try {
    await w.pod('a', 300);
    await w.autoscale();
    await w.run(16_000);
    const cause = 'failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: '
      + 'the server could not find the requested resource (get pods.metrics.k8s.io)';
    assert.equal(await w.condition('ScalingActive'), ['False', 'FailedGetResourceMetric', `the HPA was unable to compute the replica count: ${cause}`]);
    assert.equal(await w.condition('AbleToScale'), ['True', 'SucceededGetScale', 'the HPA controller was able to get the target\'s current scale']);
    assert.equal(await w.events(), [['Warning', 'FailedGetResourceMetric', cause],
      ['Warning', 'FailedComputeMetricsReplicas', `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${cause}`]]);
    const status = (await w.hpa()).status!;
    assert.equal([status.currentReplicas, status.desiredReplicas, status.currentMetrics], [2, 0, [{ type: '' }]]);
    assert.is(await w.replicasNow(), 2);
  } finally {
    w.stop();
  }
});

test('a target that does not exist is FailedGetScale in the API server\'s words', async () => {
  const w = await world();
  try {
    await w.autoscale({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nope' } });
    await w.run(16_000);
    assert.equal(await w.condition('AbleToScale'), ['False', 'FailedGetScale', 'the HPA controller was unable to get the target\'s current scale: deployments.apps "nope" not found']);
    assert.equal(await w.events(), [['Warning', 'FailedGetScale', 'deployments.apps "nope" not found']]);
  } finally {
    w.stop();
  }
});

test.run();
