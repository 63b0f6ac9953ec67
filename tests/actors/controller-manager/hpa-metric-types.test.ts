// The autoscaler's metric types other than Resource, worked by hand from the real controller's
// rules (horizontal.go, replica_calculator.go, metrics/client.go, 1.32): a ContainerResource metric
// reads one container's use against that container's request; Pods, Object and External metrics,
// whose APIs nobody serves here, fail with the real reasons and messages and never touch the target
// unless another metric asks for more.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { goSelector } from '../../../actors/controller-manager/controllers/hpa-custom-metrics.ts';
import { hpaWorld as world } from '../../helpers/hpa-world.ts';

const CPU_50 = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } };
const MAIN_50 = { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'main', target: { type: 'Utilization', averageUtilization: 50 } } };
const TWO_CONTAINERS = { main: '200m', sidecar: '800m' };

test('a ContainerResource metric counts only its container: main at 150% of its request scales up though the pod is at 30% of its own', async () => {
  const w = await world();
  try {
    // Each pod: main uses 300m of 200m (150%), the sidecar 0 of 800m; the pod 300m of 1000m (30%).
    await w.pod('a', { main: 300, sidecar: 0 }, TWO_CONTAINERS);
    await w.pod('b', { main: 300, sidecar: 0 }, TWO_CONTAINERS);
    await w.autoscale({ metrics: [CPU_50, MAIN_50] });
    await w.run(16_000);
    // Resource: 30/50 = 0.6, ceil(0.6 × 2) = 2. ContainerResource: 150/50 = 3, ceil(3 × 2) = 6,
    // the larger; the scale-up limit max(2 × 2, 4) makes it 4.
    assert.is(await w.replicasNow(), 4);
    const status = (await w.hpa()).status!;
    assert.equal(status.currentMetrics, [
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 30, averageValue: '300m' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'main', current: { averageUtilization: 150, averageValue: '300m' } } },
    ]);
    assert.equal(await w.condition('ScalingActive'), ['True', 'ValidMetricFound',
      'the HPA was able to successfully calculate a replica count from cpu container resource utilization (percentage of request)']);
    assert.equal(await w.events(), [['Normal', 'SuccessfulRescale', 'New size: 4; reason: cpu container resource utilization (percentage of request) above target']]);
  } finally {
    w.stop();
  }
});

test('a ContainerResource AverageValue target divides the container\'s average use by it', async () => {
  const w = await world();
  try {
    await w.pod('a', { main: 100, sidecar: 900 }, TWO_CONTAINERS);
    await w.pod('b', { main: 200, sidecar: 900 }, TWO_CONTAINERS);
    await w.autoscale({ metrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'main', target: { type: 'AverageValue', averageValue: '50m' } } }] });
    await w.run(16_000);
    // main averages 150m against 50m: ratio 3, ceil(3 × 2) = 6, limited to 4.
    assert.is(await w.replicasNow(), 4);
    assert.equal((await w.hpa()).status!.currentMetrics,
      [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'main', current: { averageValue: '150m' } } }]);
    assert.equal((await w.events()).map((e) => e[2]), ['New size: 4; reason: cpu resource above target']);
  } finally {
    w.stop();
  }
});

test('a pod whose metrics lack the container fails the ContainerResource metric in the real words, and the target stays', async () => {
  const w = await world();
  try {
    await w.pod('a', { main: 300 });
    await w.autoscale({ metrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'sidecar', target: { type: 'Utilization', averageUtilization: 50 } } }] });
    await w.run(16_000);
    const cause = 'failed to get cpu utilization: unable to get metrics for resource cpu: failed to get container metrics: container sidecar not present in metrics for pod default/a';
    assert.equal(await w.condition('ScalingActive'), ['False', 'FailedGetContainerResourceMetric', `the HPA was unable to compute the replica count: ${cause}`]);
    assert.equal(await w.events(), [['Warning', 'FailedGetContainerResourceMetric', cause],
      ['Warning', 'FailedComputeMetricsReplicas', `invalid metrics (1 invalid out of 1), first error is: failed to get sidecar container metric value: ${cause}`]]);
    assert.is(await w.replicasNow(), 2);
  } finally {
    w.stop();
  }
});

const NO_CUSTOM = 'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered';
const PODS_METRIC = { type: 'Pods', pods: { metric: { name: 'requests-per-second' }, target: { type: 'AverageValue', averageValue: '10' } } };
const OBJECT_METRIC = { type: 'Object', object: { describedObject: { apiVersion: 'v1', kind: 'Service', name: 'web' },
  metric: { name: 'requests' }, target: { type: 'Value', value: '100' } } };
const EXTERNAL_METRIC = { type: 'External', external: { metric: { name: 'Queue_Depth', selector: { matchLabels: { queue: 'orders' } } },
  target: { type: 'AverageValue', averageValue: '30' } } };

test('Pods, Object and External metrics, with no custom or external metrics API, each record their Failed… Event and the first sets ScalingActive', async () => {
  const w = await world();
  try {
    await w.pod('a', 100);
    await w.autoscale({ metrics: [PODS_METRIC, OBJECT_METRIC, EXTERNAL_METRIC] });
    await w.run(16_000);
    const pods = `unable to get metric requests-per-second: ${NO_CUSTOM}`;
    // The real message names the object after the metric and before the cause, just so.
    const object = `unable to get metric requests: Service on default web/${NO_CUSTOM}`;
    const external = 'unable to get external metric default/Queue_Depth/&LabelSelector{MatchLabels:map[string]string{queue: orders,},MatchExpressions:[]LabelSelectorRequirement{},}: '
      + 'unable to fetch metrics from external metrics API: the server could not find the requested resource (get queue_depth.external.metrics.k8s.io)';
    assert.equal(await w.condition('ScalingActive'), ['False', 'FailedGetPodsMetric', `the HPA was unable to compute the replica count: ${pods}`]);
    // Events of one instant are listed by name, not in the order recorded: compared by reason.
    assert.equal((await w.events()).sort((a, b) => a[1]!.localeCompare(b[1]!)), [
      ['Warning', 'FailedComputeMetricsReplicas', `invalid metrics (3 invalid out of 3), first error is: failed to get pods metric value: ${pods}`],
      ['Warning', 'FailedGetExternalMetric', external],
      ['Warning', 'FailedGetObjectMetric', object],
      ['Warning', 'FailedGetPodsMetric', pods],
    ]);
    assert.equal((await w.hpa()).status!.currentMetrics, [{ type: '' }, { type: '' }, { type: '' }]);
    assert.is(await w.replicasNow(), 2);
  } finally {
    w.stop();
  }
});

test('an External metric failing beside a Resource metric that asks for more lets the scale-up go ahead, as the real controller does', async () => {
  const w = await world();
  try {
    await w.pod('a', 300);
    await w.pod('b', 300);
    await w.autoscale({ metrics: [{ ...EXTERNAL_METRIC, external: { ...EXTERNAL_METRIC.external, target: { type: 'Value', value: '30' } } }, CPU_50] });
    await w.run(16_000);
    assert.is(await w.replicasNow(), 4);
    assert.equal(await w.condition('ScalingActive'), ['True', 'ValidMetricFound',
      'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)']);
    assert.equal((await w.events()).map((e) => e[1]).sort(), ['FailedGetExternalMetric', 'SuccessfulRescale']);
    assert.equal((await w.hpa()).status!.currentMetrics![0], { type: '' });
  } finally {
    w.stop();
  }
});

test('a metric selector is printed as Go prints a *LabelSelector', () => {
  assert.is(goSelector(undefined), 'nil');
  assert.is(goSelector({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['x', 'y'] }] }),
    '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:env,Operator:In,Values:[x y],},},}');
});

test.run();
