// The horizontal pod autoscaler alone against a real API server on virtual time: its target the
// Deployment `web` (pods app=web), pods written by the test, and their PodMetrics served by a
// stand-in metrics.k8s.io the test sets per pod and container (or no metrics API at all).
import { DEPLOYMENTS } from '../../actors/api/model/apps.ts';
import { HPAS, type HorizontalPodAutoscaler } from '../../actors/api/model/autoscaling.ts';
import { PODS } from '../../actors/api/model/core.ts';
import { timestamp } from '../../actors/api/env.ts';
import type { KObject } from '../../actors/api/types.ts';
import { aggregatedType, type AggregatedApi } from '../../actors/apiserver/aggregated.ts';
import { coreRecorders, EVENTS, type CoreEvent } from '../../actors/client/events/index.ts';
import { SharedInformers } from '../../actors/client/shared-informers.ts';
import { HorizontalPodAutoscalerController } from '../../actors/controller-manager/controllers/horizontal-pod-autoscaler.ts';
import { virtualWorld } from './virtual-world.ts';

export const HPA_OPTIONS = { syncPeriodMs: 15_000, downscaleStabilizationMs: 300_000, rules: { tolerance: 0.1, cpuInitializationPeriodMs: 300_000, initialReadinessDelayMs: 30_000 } };

/** metrics.k8s.io with each pod's containers' CPU in millicores as the test sets it. */
function metricsApi(clockNow: () => number, cpu: Map<string, Record<string, number>>): AggregatedApi {
  return {
    group: 'metrics.k8s.io', version: 'v1beta1', types: [aggregatedType('metrics.k8s.io', 'v1beta1', 'pods', 'PodMetrics', 'Namespaced')],
    serve: async () => ({ kind: 'PodMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {},
      items: [...cpu].map(([name, containers]) => ({ metadata: { name, namespace: 'default' }, timestamp: timestamp(clockNow()), window: '15s',
        containers: Object.entries(containers).map(([c, milli]) => ({ name: c, usage: { cpu: `${milli}m`, memory: '10Mi' } })) })) }),
  };
}

export async function hpaWorld({ metrics = true, replicas = 2 } = {}) {
  const { clock, bus, client, run, server, random } = await virtualWorld({ seed: 23 });
  const cpu = new Map<string, Record<string, number>>();
  if (metrics) server.aggregate(metricsApi(() => clock.now(), cpu));
  const longAgo = timestamp(clock.now() - 3_600_000);
  await client.create(DEPLOYMENTS, { metadata: { name: 'web', namespace: 'default' }, spec: { replicas, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } } } } as KObject);
  /**
   * A Running, long Ready pod of app=web whose containers request `requests` (by name; one `main`
   * of 200m unless given) and use `use` (millicores by container name; a number is `main`'s).
   */
  const pod = async (name: string, use: number | Record<string, number>, requests: Record<string, string> = { main: '200m' }) => {
    const containers = Object.entries(requests).map(([c, request]) => ({ name: c, image: 'nginx', resources: { requests: { cpu: request } } }));
    await client.create(PODS, { metadata: { name, namespace: 'default', labels: { app: 'web' } }, spec: { nodeName: 'n1', containers } } as KObject);
    await client.patch(PODS, 'default', name, { status: { phase: 'Running', startTime: longAgo,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: longAgo }] } }, 'strategic', 'status');
    cpu.set(name, typeof use === 'number' ? { main: use } : use);
  };
  const informers = new SharedInformers(bus, clock, 'test');
  const controller = new HorizontalPodAutoscalerController({ bus, clock, informers, options: HPA_OPTIONS, onError: (e) => { throw e; },
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
