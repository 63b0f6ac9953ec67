import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../../helpers/in-process-server.ts';

const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const deployment = (spec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, ...spec },
});

test('a deployment with negative replicas is Invalid on spec.replicas', async () => {
  const h = await startServer();
  const r = await h.post(DEPLOY, deployment({ replicas: -1 }));
  assert.is(r.status, 422);
  assert.equal(r.json.details.causes.map((c: { field: string }) => c.field), ['spec.replicas']);
});

test('a selector that does not select the template is Invalid', async () => {
  const h = await startServer();
  const r = await h.post(DEPLOY, deployment({ selector: { matchLabels: { app: 'other' } } }));
  assert.is(r.status, 422);
  assert.match(r.json.message, '`selector` does not match template `labels`');
});

test('a container without an image is Invalid, in pods and in templates', async () => {
  const h = await startServer();
  const pod = await h.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } });
  assert.is(pod.status, 422);
  assert.is(pod.json.message, 'Pod "p" is invalid: spec.containers[0].image: Required value');
  const d = await h.post(DEPLOY, deployment({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } } }));
  assert.is(d.status, 422);
  assert.equal(d.json.details.causes.map((c: { field: string }) => c.field), ['spec.template.spec.containers[0].image']);
});

test('a valid deployment is created with generation 1', async () => {
  const h = await startServer();
  const r = await h.post(DEPLOY, deployment({}));
  assert.is(r.status, 201);
  assert.is(r.json.metadata.generation, 1);
});

test.run();
