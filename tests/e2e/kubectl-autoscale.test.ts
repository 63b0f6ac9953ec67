// HorizontalPodAutoscalers in both versions a real cluster serves: `kubectl autoscale` writes an
// autoscaling/v1 object (as Protobuf), which is stored as autoscaling/v2, the version discovery
// prefers; each version reads every object, the fields v1 cannot hold kept in its annotations, so
// a v1 client's update loses nothing of a v2 object.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { kubectlOk as ok, startTestServer, type TestServer } from '../helpers/api-server.ts';

type Ctx = { s: TestServer };
const autoscale = suite<Ctx>('kubectl-autoscale');

autoscale.before(async (ctx) => {
  ctx.s = await startTestServer();
  await ok(ctx, ['create', 'deployment', 'web', '--image=nginx']);
});
autoscale.after(async (ctx) => {
  await ctx.s.stop();
});

const get = async (ctx: Ctx, path: string) => JSON.parse(await ok(ctx, ['get', '--raw', path]));
const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';

autoscale('kubectl autoscale creates an HPA that both versions read, v2 preferred', async (ctx) => {
  assert.is(await ok(ctx, ['autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=60']), 'horizontalpodautoscaler.autoscaling/web autoscaled\n');
  const v2 = JSON.parse(await ok(ctx, ['get', 'hpa', 'web', '-o', 'json']));
  assert.is(v2.apiVersion, 'autoscaling/v2');
  assert.equal(v2.spec, { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 2, maxReplicas: 5,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }] });
  const v1 = await get(ctx, `${V1}/web`);
  assert.equal([v1.apiVersion, v1.spec.targetCPUUtilizationPercentage, v1.metadata.annotations], ['autoscaling/v1', 60, undefined]);
  assert.equal(v1.status, { currentReplicas: 0, desiredReplicas: 0 });
  const table = (await ok(ctx, ['get', 'hpa'])).split('\n');
  assert.match(table[1]!, /^web\s+Deployment\/web\s+cpu: <unknown>\/60%\s+2\s+5\s+0\s+\S+$/);
  const discovery = await get(ctx, '/apis/autoscaling');
  assert.equal([discovery.preferredVersion.version, discovery.versions.map((v: { version: string }) => v.version)], ['v2', ['v2', 'v1']]);
});

autoscale('without --cpu-percent the target is the default 80%', async (ctx) => {
  await ok(ctx, ['create', 'deployment', 'api', '--image=nginx']);
  await ok(ctx, ['autoscale', 'deployment', 'api', '--max=3']);
  assert.is((await get(ctx, `${V1}/api`)).spec.targetCPUUtilizationPercentage, 80);
  assert.is((await get(ctx, `${V2}/api`)).spec.minReplicas, 1);
});

autoscale('a v2 object\'s other metrics and behavior travel in v1 annotations and come back whole from a v1 update', async (ctx) => {
  const hpa = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'mixed', annotations: { team: 'shop' } },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 4,
      metrics: [
        { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
      behavior: { scaleDown: { stabilizationWindowSeconds: 60, policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] } } } };
  await ctx.s.kubectl(['create', '-f', '-'], JSON.stringify(hpa));
  const v1 = await get(ctx, `${V1}/mixed`);
  assert.is(v1.spec.targetCPUUtilizationPercentage, 50);
  assert.is(v1.metadata.annotations.team, 'shop');
  assert.equal(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']), [hpa.spec.metrics[0]]);
  assert.equal(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior']).scaleDown.stabilizationWindowSeconds, 60);

  // A v2 patch leaving the behavior as stored writes nothing into it.
  await ok(ctx, ['patch', 'hpa', 'mixed', '--type=merge', '-p', '{"spec":{"minReplicas":2}}']);
  // A v1 client changes its one field and sends the rest back as it read it.
  await ok(ctx, ['patch', 'horizontalpodautoscalers.v1.autoscaling', 'mixed', '--type=merge', '-p', '{"spec":{"targetCPUUtilizationPercentage":70,"maxReplicas":6}}']);
  const v2 = await get(ctx, `${V2}/mixed`);
  assert.equal(v2.spec.metrics.map((m: { resource: { name: string } }) => m.resource.name), ['cpu', 'memory']);
  assert.is(v2.spec.metrics[0].resource.target.averageUtilization, 70);
  assert.equal(v2.spec.metrics[1], hpa.spec.metrics[0]);
  assert.equal([v2.spec.minReplicas, v2.spec.maxReplicas, v2.spec.behavior.scaleDown.policies], [2, 6, [{ type: 'Pods', value: 1, periodSeconds: 30 }]]);
  assert.equal(v2.metadata.annotations, { team: 'shop' }, 'the conversion annotations are never stored');
});

autoscale('a v1 HPA breaking v2\'s rules is refused with their message; a malformed annotation is a 400', async (ctx) => {
  const hpa = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => JSON.stringify({ apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler', metadata: { name, ...(annotations ? { annotations } : {}) }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, ...spec } });
  const inverted = await ctx.s.kubectl(['create', '-f', '-'], hpa('inverted', { minReplicas: 4, maxReplicas: 2 }));
  assert.is(inverted.code, 1);
  assert.match(inverted.stderr, 'spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`');
  const odd = await ctx.s.kubectl(['create', '-f', '-'], hpa('odd', { maxReplicas: 2 }, { 'autoscaling.alpha.kubernetes.io/metrics': '[{' }));
  assert.is(odd.code, 1);
  assert.match(odd.stderr, 'Error from server (BadRequest)');
  assert.match(odd.stderr, 'annotation autoscaling.alpha.kubernetes.io/metrics');
});

autoscale.run();
