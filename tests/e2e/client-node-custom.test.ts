// Custom resources through @kubernetes/client-node 1.4, unmodified, over HTTPS: the definition made
// with ApiextensionsV1Api and waited on until Established, CustomObjectsApi's create, get, list,
// merge patch, status and scale, delete, and an informer over the custom objects whose cache follows
// every change; then deleting the definition takes the objects with it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { eventually } from '../helpers/real-time.ts';

const WAIT_MS = 10_000;
const GROUP = 'example.com';

interface Ctx { s: TestServer; kc: k8s.KubeConfig; ext: k8s.ApiextensionsV1Api; custom: k8s.CustomObjectsApi }
const custom = suite<Ctx>('client-node-custom');

custom.before(async (ctx) => {
  ctx.s = await startTestServer();
  ctx.kc = new k8s.KubeConfig();
  ctx.kc.loadFromFile(ctx.s.kubeconfig);
  ctx.ext = ctx.kc.makeApiClient(k8s.ApiextensionsV1Api);
  ctx.custom = ctx.kc.makeApiClient(k8s.CustomObjectsApi);
});
custom.after(async (ctx) => {
  await ctx.s.stop();
});

const definition: k8s.V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
      schema: { openAPIV3Schema: { type: 'object', properties: {
        spec: { type: 'object', properties: { size: { type: 'integer' }, replicas: { type: 'integer' } } },
        status: { type: 'object', properties: { ready: { type: 'boolean' }, replicas: { type: 'integer' } } },
      } } },
    }],
  },
};

const widgets = { group: GROUP, version: 'v1', namespace: 'default', plural: 'widgets' };
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const widget = (name: string, size: number) => ({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name }, spec: { size, replicas: 1 } });

custom('a definition made with ApiextensionsV1Api becomes Established', async (ctx) => {
  await ctx.ext.createCustomResourceDefinition({ body: definition });
  const established = await eventually('Established', async () => {
    const crd = await ctx.ext.readCustomResourceDefinition({ name: `widgets.${GROUP}` });
    return crd.status?.conditions?.find((c) => c.type === 'Established' && c.status === 'True');
  }, WAIT_MS);
  assert.is(established.reason, 'InitialNamesAccepted');
});

custom('CustomObjectsApi creates, reads, lists, patches, writes status and scale, and deletes', async (ctx) => {
  const created = await ctx.custom.createNamespacedCustomObject({ ...widgets, body: widget('w1', 1) }) as k8s.KubernetesObject & { spec: { size: number } };
  assert.is(created.metadata?.generation, 1);
  const read = await ctx.custom.getNamespacedCustomObject({ ...widgets, name: 'w1' }) as { spec: { size: number } };
  assert.is(read.spec.size, 1);
  const list = await ctx.custom.listNamespacedCustomObject(widgets) as { kind: string; items: k8s.KubernetesObject[] };
  assert.is(list.kind, 'WidgetList');
  assert.equal(list.items.map((o) => o.metadata?.name), ['w1']);
  const patched = await ctx.custom.patchNamespacedCustomObject({ ...widgets, name: 'w1', body: { spec: { size: 2 } } }, mergePatch) as k8s.KubernetesObject & { spec: { size: number } };
  assert.is(patched.spec.size, 2);
  assert.is(patched.metadata?.generation, 2);
  const status = await ctx.custom.patchNamespacedCustomObjectStatus({ ...widgets, name: 'w1', body: { status: { ready: true, replicas: 1 } } }, mergePatch) as { status: { ready: boolean } };
  assert.is(status.status.ready, true);
  const scale = await ctx.custom.patchNamespacedCustomObjectScale({ ...widgets, name: 'w1', body: { spec: { replicas: 3 } } }, mergePatch) as k8s.V1Scale;
  assert.is(scale.spec?.replicas, 3);
  assert.is(scale.status?.replicas, 1);
  await ctx.custom.deleteNamespacedCustomObject({ ...widgets, name: 'w1' });
  const gone = await ctx.custom.getNamespacedCustomObject({ ...widgets, name: 'w1' }).then(() => undefined, (e: unknown) => e as { code?: number });
  assert.is(gone?.code, 404);
});

custom('an informer over custom objects follows every change', async (ctx) => {
  const path = `/apis/${GROUP}/v1/namespaces/default/widgets`;
  const informer = k8s.makeInformer(ctx.kc, path, () => ctx.custom.listNamespacedCustomObject(widgets) as never);
  const seen: string[] = [];
  informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
  informer.on('update', (o) => seen.push(`update ${o.metadata?.name}`));
  informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
  await informer.start();
  await ctx.custom.createNamespacedCustomObject({ ...widgets, body: widget('a', 1) });
  await ctx.custom.patchNamespacedCustomObject({ ...widgets, name: 'a', body: { spec: { size: 5 } } }, mergePatch);
  await ctx.custom.deleteNamespacedCustomObject({ ...widgets, name: 'a' });
  await eventually('the informer saw the delete', async () => (seen.includes('delete a') ? true : undefined), WAIT_MS);
  assert.equal(seen, ['add a', 'update a', 'delete a']);
  assert.equal(informer.list(), []);
  await informer.stop();
});

custom('deleting the definition deletes its objects, then the definition goes', async (ctx) => {
  await ctx.custom.createNamespacedCustomObject({ ...widgets, body: widget('b', 1) });
  await ctx.ext.deleteCustomResourceDefinition({ name: `widgets.${GROUP}` });
  await eventually('the definition is gone', async () => {
    try {
      await ctx.ext.readCustomResourceDefinition({ name: `widgets.${GROUP}` });
      return undefined;
    } catch {
      return true;
    }
  }, WAIT_MS);
  const error = await ctx.custom.listNamespacedCustomObject(widgets).then(() => undefined, (e: unknown) => e as { code?: number });
  assert.is(error?.code, 404);
});

custom.run();
