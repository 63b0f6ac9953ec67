// The scale subresource through the real kubectl and client: `kubectl scale` of Deployments,
// ReplicaSets and StatefulSets, the Scale object a GET returns, and the refusals a real cluster
// gives (a negative count, a stale resourceVersion, a kind without scale).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { kubectlFails as fails, kubectlOk as ok, startTestServer, type TestServer } from '../helpers/api-server.ts';

type Ctx = { s: TestServer };
const scale = suite<Ctx>('kubectl-scale');

scale.before(async (ctx) => {
  ctx.s = await startTestServer();
});
scale.after(async (ctx) => {
  await ctx.s.stop();
});

const get = async (ctx: Ctx, path: string) => JSON.parse(await ok(ctx, ['get', '--raw', path]));

scale('kubectl scale sets a Deployment\'s replicas and bumps its generation', async (ctx) => {
  await ok(ctx, ['create', 'deployment', 'web', '--image=nginx', '--replicas=1']);
  assert.is(await ok(ctx, ['scale', 'deployment', 'web', '--replicas=4']), 'deployment.apps/web scaled\n');
  const d = JSON.parse(await ok(ctx, ['get', 'deployment', 'web', '-o', 'json']));
  assert.is(d.spec.replicas, 4);
  assert.is(d.metadata.generation, 2);
});

scale('GET of the scale subresource is an autoscaling/v1 Scale with the selector as text', async (ctx) => {
  const s = await get(ctx, '/apis/apps/v1/namespaces/default/deployments/web/scale');
  const d = JSON.parse(await ok(ctx, ['get', 'deployment', 'web', '-o', 'json']));
  assert.is(s.kind, 'Scale');
  assert.is(s.apiVersion, 'autoscaling/v1');
  assert.equal(s.metadata, { name: 'web', namespace: 'default', uid: d.metadata.uid, resourceVersion: d.metadata.resourceVersion,
    creationTimestamp: d.metadata.creationTimestamp });
  assert.equal(s.spec, { replicas: 4 });
  assert.equal(s.status, { replicas: 0, selector: 'app=web' });
});

scale('kubectl scale with --current-replicas refuses a count that moved on', async (ctx) => {
  const out = await fails(ctx, ['scale', 'deployment', 'web', '--current-replicas=2', '--replicas=3']);
  assert.match(out, /Expected replicas to be 2, was 4/);
});

scale('a Scale written at a stale resourceVersion is a conflict', async (ctx) => {
  const d = JSON.parse(await ok(ctx, ['get', 'deployment', 'web', '-o', 'json']));
  await ok(ctx, ['scale', 'deployment', 'web', '--replicas=5']);
  // kubectl checks --resource-version itself, from the Scale it reads first.
  assert.match(await fails(ctx, ['scale', 'deployment', 'web', '--replicas=6', `--resource-version=${d.metadata.resourceVersion}`]),
    new RegExp(`Expected resource version to be ${d.metadata.resourceVersion}, was \\d+`));
  // The server refuses a stale Scale itself.
  const stale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'default', resourceVersion: d.metadata.resourceVersion },
    spec: { replicas: 6 } };
  const out = await fails(ctx, ['replace', '--raw', '/apis/apps/v1/namespaces/default/deployments/web/scale', '-f', '-'], JSON.stringify(stale));
  assert.match(out, /Operation cannot be fulfilled on deployments.apps "web": the object has been modified/);
  assert.is(await ok(ctx, ['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']), '5');
});

scale('a negative count is refused as the real ValidateScale refuses it', async (ctx) => {
  const out = await fails(ctx, ['patch', 'deployment', 'web', '--subresource=scale', '--type=merge', '-p', '{"spec":{"replicas":-1}}']);
  assert.match(out, /spec.replicas: Invalid value: -1: must be greater than or equal to 0/);
});

scale('ReplicaSets and StatefulSets scale too', async (ctx) => {
  const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template } };
  const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'x' } }, template } };
  await ok(ctx, ['create', '-f', '-'], JSON.stringify(rs));
  await ok(ctx, ['create', '-f', '-'], JSON.stringify(sts));
  assert.is(await ok(ctx, ['scale', 'replicaset', 'rs', '--replicas=2']), 'replicaset.apps/rs scaled\n');
  assert.is(await ok(ctx, ['scale', 'statefulset', 'db', '--replicas=3']), 'statefulset.apps/db scaled\n');
  assert.is(await ok(ctx, ['get', 'rs', 'rs', '-o', 'jsonpath={.spec.replicas}']), '2');
  assert.is(await ok(ctx, ['get', 'sts', 'db', '-o', 'jsonpath={.spec.replicas}']), '3');
});

scale('a kind without a scale subresource answers 404 for it', async (ctx) => {
  await ok(ctx, ['create', 'configmap', 'c']);
  const out = await fails(ctx, ['get', '--raw', '/api/v1/namespaces/default/configmaps/c/scale']);
  assert.match(out, /NotFound|the server could not find the requested resource/);
});

scale.run();
