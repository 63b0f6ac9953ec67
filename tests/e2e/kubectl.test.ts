// kubectl (the one on PATH) against a real orchsim API server over HTTPS: each command gives
// the result a real cluster gives.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlOk as ok, startTestServer, type TestServer } from '../helpers/api-server.ts';

const kubectl = suite<{ s: TestServer }>('kubectl');

kubectl.before(async (ctx) => {
  ctx.s = await startTestServer();
});
kubectl.after(async (ctx) => {
  await ctx.s.stop();
});

function manifest(ctx: { s: TestServer }, name: string, doc: object): string {
  const file = join(ctx.s.dir, name);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const pod = (name: string, image = 'nginx:1.27', extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: name } }, spec: { containers: [{ name: 'c', image }] }, ...extra,
});

kubectl('create -f creates a pod, and a second create answers AlreadyExists', async (ctx) => {
  const file = manifest(ctx, 'web.json', pod('web'));
  assert.match(await ok(ctx, ['create', '-f', file]), 'pod/web created');
  const again = await ctx.s.kubectl(['create', '-f', file]);
  assert.is(again.code, 1);
  assert.match(again.stderr, 'Error from server (AlreadyExists): error when creating');
  assert.match(again.stderr, 'pods "web" already exists');
});

kubectl('get shows the per-kind columns, and -o wide adds IP and node', async (ctx) => {
  const out = await ok(ctx, ['get', 'pods']);
  assert.match(out, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE/);
  assert.match(out, /web\s+0\/1\s+Pending\s+0/);
  const wide = await ok(ctx, ['get', 'pods', '-o', 'wide']);
  assert.match(wide, /NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES/);
  assert.match(wide, /web\s+0\/1\s+Pending\s+0\s+\S+\s+<none>\s+<none>/);
});

kubectl('get -A lists every namespace with a NAMESPACE column', async (ctx) => {
  await ok(ctx, ['create', 'namespace', 'team-a']);
  await ok(ctx, ['create', '-n', 'team-a', '-f', manifest(ctx, 'api.json', pod('api'))]);
  const out = await ok(ctx, ['get', 'pods', '-A']);
  assert.match(out, /^NAMESPACE\s+NAME\s+READY/);
  assert.match(out, /default\s+web\s/);
  assert.match(out, /team-a\s+api\s/);
});

kubectl('create namespace and get namespaces show it Active', async (ctx) => {
  assert.match(await ok(ctx, ['create', 'namespace', 'team-b']), 'namespace/team-b created');
  assert.match(await ok(ctx, ['get', 'namespaces']), /team-b\s+Active/);
});

kubectl('create configmap (a protobuf body) stores the literal data', async (ctx) => {
  assert.match(await ok(ctx, ['create', 'configmap', 'settings', '--from-literal=mode=fast', '--from-literal=level=3']), 'configmap/settings created');
  const cm = JSON.parse(await ok(ctx, ['get', 'configmap', 'settings', '-o', 'json']));
  assert.equal(cm.data, { level: '3', mode: 'fast' });
});

kubectl('apply -f creates, then patches with the last-applied configuration', async (ctx) => {
  const file = manifest(ctx, 'applied.json', pod('applied'));
  assert.match(await ok(ctx, ['apply', '-f', file]), 'pod/applied created');
  const first = JSON.parse(await ok(ctx, ['get', 'pod', 'applied', '-o', 'json']));
  assert.ok(first.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
  writeFileSync(file, JSON.stringify(pod('applied', 'nginx:1.28')));
  assert.match(await ok(ctx, ['apply', '-f', file]), 'pod/applied configured');
  const second = JSON.parse(await ok(ctx, ['get', 'pod', 'applied', '-o', 'json']));
  assert.is(second.spec.containers[0].image, 'nginx:1.28');
  assert.match(await ok(ctx, ['apply', '-f', file]), 'pod/applied unchanged');
});

kubectl('apply --server-side creates and then reports conflicts with another manager', async (ctx) => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { a: '1' } };
  const file = manifest(ctx, 'ssa.json', cm);
  assert.match(await ok(ctx, ['apply', '--server-side', '-f', file]), 'configmap/ssa serverside-applied');
  const stored = JSON.parse(await ok(ctx, ['get', 'configmap', 'ssa', '-o', 'json', '--show-managed-fields']));
  assert.ok(stored.metadata.managedFields.some((m: { manager: string; operation: string }) => m.manager === 'kubectl' && m.operation === 'Apply'));
  writeFileSync(file, JSON.stringify({ ...cm, data: { a: '2' } }));
  const other = await ctx.s.kubectl(['apply', '--server-side', '--field-manager', 'other', '-f', file]);
  assert.is(other.code, 1);
  assert.match(other.stderr, 'Apply failed with 1 conflict');
  assert.match(other.stderr, '.data.a');
  assert.match(await ok(ctx, ['apply', '--server-side', '--field-manager', 'other', '--force-conflicts', '-f', file]), 'serverside-applied');
});

kubectl('patch with merge, json and strategic patches changes the object', async (ctx) => {
  assert.match(await ok(ctx, ['patch', 'pod', 'web', '--type=merge', '-p', '{"metadata":{"labels":{"tier":"front"}}}']), 'pod/web patched');
  await ok(ctx, ['patch', 'pod', 'web', '--type=json', '-p', '[{"op":"add","path":"/metadata/labels/zone","value":"a"}]']);
  await ok(ctx, ['patch', 'pod', 'web', '-p', '{"spec":{"containers":[{"name":"c","image":"nginx:1.29"}]}}']);
  const web = JSON.parse(await ok(ctx, ['get', 'pod', 'web', '-o', 'json']));
  assert.is(web.metadata.labels.tier, 'front');
  assert.is(web.metadata.labels.zone, 'a');
  assert.is(web.spec.containers.length, 1);
  assert.is(web.spec.containers[0].image, 'nginx:1.29');
});

kubectl('create --dry-run=server answers like a create and stores nothing', async (ctx) => {
  const file = manifest(ctx, 'dry.json', pod('dry'));
  assert.match(await ok(ctx, ['create', '--dry-run=server', '-f', file]), 'pod/dry created (server dry run)');
  const get = await ctx.s.kubectl(['get', 'pod', 'dry']);
  assert.is(get.code, 1);
  assert.match(get.stderr, 'Error from server (NotFound): pods "dry" not found');
});

kubectl('delete --dry-run=server keeps the object; delete removes it', async (ctx) => {
  assert.match(await ok(ctx, ['delete', 'pod', 'web', '--dry-run=server']), 'pod "web" deleted (server dry run)');
  await ok(ctx, ['get', 'pod', 'web']);
  assert.match(await ok(ctx, ['delete', 'pod', 'web']), 'pod "web" deleted');
  const get = await ctx.s.kubectl(['get', 'pod', 'web']);
  assert.match(get.stderr, 'pods "web" not found');
  const again = await ctx.s.kubectl(['delete', 'pod', 'web']);
  assert.is(again.code, 1);
  assert.match(again.stderr, 'Error from server (NotFound): pods "web" not found');
});

kubectl('api-resources lists every served type with short names and scope', async (ctx) => {
  const out = await ok(ctx, ['api-resources']);
  assert.match(out, /pods\s+po\s+v1\s+true\s+Pod/);
  assert.match(out, /nodes\s+no\s+v1\s+false\s+Node/);
  assert.match(out, /controllerrevisions\s+apps\/v1\s+true\s+ControllerRevision/);
  assert.match(out, /leases\s+coordination.k8s.io\/v1\s+true\s+Lease/);
  assert.match(out, /selfsubjectaccessreviews\s+authorization.k8s.io\/v1\s+false\s+SelfSubjectAccessReview/);
});

kubectl('explain pods.spec describes the field and its children', async (ctx) => {
  const out = await ok(ctx, ['explain', 'pods.spec']);
  assert.match(out, 'KIND:       Pod');
  assert.match(out, 'FIELD: spec <PodSpec>');
  assert.match(out, /containers\s+<\[\]Container> -required-/);
});

kubectl('auth can-i answers yes under AlwaysAllow', async (ctx) => {
  const r = await ctx.s.kubectl(['auth', 'can-i', 'create', 'pods']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.trim(), 'yes');
});

kubectl('cordon marks a node unschedulable and get nodes shows it', async (ctx) => {
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
  await ok(ctx, ['create', '-f', manifest(ctx, 'node.json', node)]);
  assert.match(await ok(ctx, ['cordon', 'node-1']), 'node/node-1 cordoned');
  assert.match(await ok(ctx, ['get', 'nodes']), /node-1\s+Ready,SchedulingDisabled/);
  assert.match(await ok(ctx, ['uncordon', 'node-1']), 'node/node-1 uncordoned');
  assert.match(await ok(ctx, ['get', 'nodes']), /node-1\s+Ready\s/);
});

kubectl('controllerrevisions: data is immutable, listing works across namespaces', async (ctx) => {
  const cr = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'rev-1' }, revision: 1, data: { spec: { a: 1 } } };
  await ok(ctx, ['create', '-f', manifest(ctx, 'cr.json', cr)]);
  const r = await ctx.s.kubectl(['patch', 'controllerrevision', 'rev-1', '--type=merge', '-p', '{"data":{"spec":{"a":2}}}']);
  assert.is(r.code, 1);
  assert.match(r.stderr, 'is invalid: data: Invalid value');
  assert.match(r.stderr, 'field is immutable');
  assert.match(await ok(ctx, ['get', 'controllerrevisions', '-A']), /default\s+rev-1\s+<none>\s+1/);
});

kubectl.run();
