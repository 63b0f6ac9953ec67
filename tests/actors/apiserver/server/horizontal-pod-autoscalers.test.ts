// autoscaling/v2 HorizontalPodAutoscalers as the API server stores and prints them: the 1.32
// defaults, the replica bounds refused, and the Reference and Targets columns of kubectl get hpa.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../../helpers/in-process-server.ts';

const HPAS = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const hpa = (spec: Record<string, unknown>) => ({
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec },
});

test('an autoscaler without metrics targets 80% CPU from one replica', async () => {
  const h = await startServer();
  const r = await h.post(HPAS, hpa({}));
  assert.is(r.status, 201);
  assert.is(r.json.spec.minReplicas, 1);
  assert.equal(r.json.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  assert.is(r.json.spec.behavior, undefined);
});

test('a behavior gets the default scaling rules for what it leaves unset', async () => {
  const h = await startServer();
  const r = await h.post(HPAS, hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }));
  assert.is(r.status, 201);
  assert.equal(r.json.spec.behavior.scaleDown, { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });
  assert.equal(r.json.spec.behavior.scaleUp, { stabilizationWindowSeconds: 0, selectPolicy: 'Max',
    policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] });
});

test('a maximum below the minimum is Invalid', async () => {
  const h = await startServer();
  const r = await h.post(HPAS, hpa({ minReplicas: 3, maxReplicas: 2 }));
  assert.is(r.status, 422);
  assert.is(r.json.message, 'HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`');
});

test('kubectl get hpa shows the reference, each metric as name: current/target, and the bounds', async () => {
  const h = await startServer();
  await h.post(HPAS, hpa({ metrics: [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
    { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
    { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
  ] }));
  const t = await h.get(`${HPAS}/web`, { accept: TABLE });
  assert.equal(t.json.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
  assert.equal(t.json.rows[0].cells.slice(0, 6), ['web', 'Deployment/web', 'cpu: <unknown>/60%, memory: <unknown>/500Mi + 1 more...', '1', 5, 0]);
});

test.run();
