// autoscaling/v2 HorizontalPodAutoscalers as the API server stores and prints them: the 1.32
// defaults, the replica bounds, metrics and behaviors refused, and the Reference and Targets columns of kubectl get hpa.
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

test('metrics and behaviors breaking the rules are Invalid with the real causes, in the real order', async () => {
  const h = await startServer();
  const cases: [Record<string, unknown>, string][] = [
    [{ metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization' } } }] },
      'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization'],
    // One source present, if not the type's, is only Required: the Forbidden comes with two or more.
    [{ metrics: [{ type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
      'spec.metrics[0].pods: Required value: must populate information for the given metric source'],
    [{ metrics: [{ type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1' } },
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
      'spec.metrics[0].resource: Forbidden: must populate the given metric source only'],
    [{ metrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'Main', target: { type: 'Utilization', averageUtilization: 0 } } }] },
      '[spec.metrics[0].containerResource.container: Invalid value: "Main": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\'), '
      + 'spec.metrics[0].containerResource.target.averageUtilization: Invalid value: 0: must be greater than 0]'],
    [{ metrics: [{ type: 'External', external: { metric: { name: 'queue/depth' }, target: { type: 'Value', value: '10', averageValue: '1' } } }] },
      '[spec.metrics[0].external.metric.name: Invalid value: "queue/depth": may not contain \'/\', spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target]'],
    [{ behavior: { scaleUp: { policies: [{ type: 'Pods', value: 0, periodSeconds: 3600 }] }, scaleDown: { selectPolicy: 'Fastest' } } },
      '[spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero, spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 3600: must be less than or equal to 1800, '
      + 'spec.behavior.scaleDown.selectPolicy: Unsupported value: "Fastest": supported values: "Disabled", "Max", "Min"]'],
  ];
  for (const [spec, causes] of cases) {
    const r = await h.post(HPAS, hpa(spec));
    assert.is(r.status, 422, JSON.stringify(spec));
    assert.is(r.json.message, `HorizontalPodAutoscaler.autoscaling "web" is invalid: ${causes}`);
  }
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
