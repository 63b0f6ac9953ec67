// The horizontal pod autoscaler alone against a real API server on virtual time, its target a
// Deployment and its pods written by the test, their PodMetrics served by a stand-in metrics API
// the test sets: its first sync one period after the autoscaler appears, a scale-up limited to
// twice (or 4), a scale-down held by the stabilization window, a target outside [min, max]
// brought within, a missing target, and a cluster without metrics.k8s.io (as under `orchsim run`).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEPLOYMENTS } from '../../../actors/api/model/apps.ts';
import { HPAS, type HorizontalPodAutoscaler } from '../../../actors/api/model/autoscaling.ts';
import { PODS } from '../../../actors/api/model/core.ts';
import { timestamp } from '../../../actors/api/env.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { aggregatedType, type AggregatedApi } from '../../../actors/apiserver/aggregated.ts';
import { coreRecorders, EVENTS, type CoreEvent } from '../../../actors/client/events/index.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { HorizontalPodAutoscalerController } from '../../../actors/controller-manager/controllers/horizontal-pod-autoscaler.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const OPTIONS = { syncPeriodMs: 15_000, downscaleStabilizationMs: 300_000, rules: { tolerance: 0.1, cpuInitializationPeriodMs: 300_000, initialReadinessDelayMs: 30_000 } };

/** metrics.k8s.io with each pod's CPU in millicores as the test sets it. */
function metricsApi(clockNow: () => number, cpu: Map<string, number>): AggregatedApi {
  return {
    group: 'metrics.k8s.io', version: 'v1beta1', types: [aggregatedType('metrics.k8s.io', 'v1beta1', 'pods', 'PodMetrics', 'Namespaced')],
    serve: async () => ({ kind: 'PodMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {},
      items: [...cpu].map(([name, milli]) => ({ metadata: { name, namespace: 'default' }, timestamp: timestamp(clockNow()), window: '15s',
        containers: [{ name: 'main', usage: { cpu: `${milli}m`, memory: '10Mi' } }] })) }),
  };
}

async function world({ metrics = true, replicas = 2 } = {}) {
  const { clock, bus, client, run, server, random } = await virtualWorld({ seed: 23 });
  const cpu = new Map<string, number>();
  if (metrics) server.aggregate(metricsApi(() => clock.now(), cpu));
  const longAgo = timestamp(clock.now() - 3_600_000);
  await client.create(DEPLOYMENTS, { metadata: { name: 'web', namespace: 'default' }, spec: { replicas, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } } } } as KObject);
  /** A Running, long Ready pod of app=web requesting 200m, using `milli`. */
  const pod = async (name: string, milli: number) => {
    await client.create(PODS, { metadata: { name, namespace: 'default', labels: { app: 'web' } },
      spec: { nodeName: 'n1', containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '200m' } } }] } } as KObject);
    await client.patch(PODS, 'default', name, { status: { phase: 'Running', startTime: longAgo,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: longAgo }] } }, 'strategic', 'status');
    cpu.set(name, milli);
  };
  const informers = new SharedInformers(bus, clock, 'test');
  const controller = new HorizontalPodAutoscalerController({ bus, clock, informers, options: OPTIONS, onError: (e) => { throw e; },
    events: coreRecorders(clock, random.fork('events')) });
  await controller.start();
  const autoscale = (spec: Record<string, unknown> = {}) => client.create(HPAS, { metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }], ...spec } } as KObject);
  const hpa = async () => (await client.get(HPAS, 'default', 'web')) as HorizontalPodAutoscaler;
  const condition = async (type: string) => {
    const c = (await hpa()).status?.conditions?.find((x) => x.type === type);
    return c && [c.status, c.reason, c.message];
  };
  const replicasNow = async () => (await client.get(DEPLOYMENTS, 'default', 'web')).spec!.replicas;
  const events = async () => ((await client.list(EVENTS, 'default')).items as CoreEvent[])
    .filter((e) => e.involvedObject.kind === 'HorizontalPodAutoscaler').map((e) => [e.type, e.reason, e.message]);
  return { clock, run, pod, cpu, autoscale, hpa, condition, replicasNow, events, client,
    stop: () => { controller.stop(); informers.stop(); server.stop(); } };
}

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
