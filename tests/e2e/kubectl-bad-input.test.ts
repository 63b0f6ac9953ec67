// kubectl (the one on PATH) against a real orchsim API server over HTTPS, on the fixes of issue 22:
// a partial server-side apply hands a field over, a JSON patch writing null changes nothing, patch
// directives and selectors are refused in the real words, ConfigMap keys are checked, and a body
// without Content-Type is JSON while a PATCH without one is 415.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { kubectlFails as fails, kubectlOk as ok, startTestServer, type TestServer } from '../helpers/api-server.ts';

type Ctx = { s: TestServer };
const kubectl = suite<Ctx>('kubectl-bad-input');

kubectl.before(async (ctx) => {
  ctx.s = await startTestServer();
});
kubectl.after(async (ctx) => {
  await ctx.s.stop();
});

const deployment = (replicas?: number) => JSON.stringify({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } },
  spec: { ...(replicas !== undefined ? { replicas } : {}), selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
});
const replicasOnly = (replicas: number) => JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas } });

async function deploymentJson(ctx: Ctx): Promise<{ metadata: { generation: number; resourceVersion: string; labels: Record<string, string>;
  managedFields: { manager: string; fieldsV1: Record<string, Record<string, unknown>> }[] }; spec: { replicas: number; template: { spec: Record<string, unknown> } } }> {
  return JSON.parse(await ok(ctx, ['get', 'deployment', 'web', '-o', 'json', '--show-managed-fields']));
}

kubectl('the documented hand-over: apply --server-side of spec.replicas alone with its own field manager, then --force-conflicts', async (ctx) => {
  assert.is(await ok(ctx, ['apply', '--server-side', '-f', '-'], deployment(2)), 'deployment.apps/web serverside-applied\n');
  assert.is(await ok(ctx, ['apply', '--server-side', '--field-manager=handover-to-hpa', '-f', '-'], replicasOnly(2)), 'deployment.apps/web serverside-applied\n');
  const conflict = await fails(ctx, ['apply', '--server-side', '--field-manager=handover-to-hpa', '-f', '-'], replicasOnly(3));
  assert.match(conflict, 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
  assert.is(await ok(ctx, ['apply', '--server-side', '--field-manager=handover-to-hpa', '--force-conflicts', '-f', '-'], replicasOnly(3)), 'deployment.apps/web serverside-applied\n');
  const d = await deploymentJson(ctx);
  assert.is(d.spec.replicas, 3);
  const owners = d.metadata.managedFields.filter((m) => m.fieldsV1['f:spec']?.['f:replicas'] !== undefined).map((m) => m.manager);
  assert.equal(owners, ['handover-to-hpa']);
});

kubectl('apply --server-side of an incomplete object that does not exist yet is refused as invalid', async (ctx) => {
  const stderr = await fails(ctx, ['apply', '--server-side', '--field-manager=handover-to-hpa', '-f', '-'],
    JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'absent' }, spec: { replicas: 1 } }));
  assert.match(stderr, 'The Deployment "absent" is invalid: \n* spec.selector: Required value\n');
});

kubectl('patch --type=json writing null to an optional field reports no change and starts nothing', async (ctx) => {
  const before = await deploymentJson(ctx);
  const out = await ok(ctx, ['patch', 'deployment', 'web', '--type=json', '-p', '[{"op":"add","path":"/spec/template/spec/nodeSelector","value":null}]']);
  assert.is(out, 'deployment.apps/web patched (no change)\n');
  const after = await deploymentJson(ctx);
  assert.equal([after.metadata.generation, after.metadata.resourceVersion], [before.metadata.generation, before.metadata.resourceVersion]);
  assert.not.ok('nodeSelector' in after.spec.template.spec);
});

kubectl('a strategic patch deleting all of metadata is refused with checkName\'s message and drops no label', async (ctx) => {
  const stderr = await fails(ctx, ['patch', 'deployment', 'web', '-p', '{"metadata":{"$patch":"delete"}}']);
  assert.match(stderr, 'Error from server (BadRequest): the name of the object (web based on URL) was undeterminable: name must be provided');
  assert.equal((await deploymentJson(ctx)).metadata.labels, { app: 'web' });
});

kubectl('an unknown $patch directive is refused with the real server\'s message', async (ctx) => {
  const stderr = await fails(ctx, ['patch', 'deployment', 'web', '-p', '{"metadata":{"$patch":"foo"}}']);
  assert.match(stderr, 'Error from server: unknown patch type: foo in map: map[$patch:foo]');
});

kubectl('a malformed label selector is a BadRequest with the parser\'s words; in and () are what the real parser makes of them', async (ctx) => {
  const stderr = await fails(ctx, ['get', 'deployments', '-l', 'app in (web']);
  // kubectl names what it listed before the server's message.
  assert.match(stderr, 'Error from server (BadRequest): Unable to find "apps/v1, Resource=deployments" that match label selector "app in (web", field selector "": ' +
    "unable to parse requirement: found '', expected: ',' or ')'");
  assert.match(await fails(ctx, ['get', 'deployments', '-l', 'replicas>two']), "for 'Gt', 'Lt' operators, the value must be an integer");
  assert.match(await ok(ctx, ['get', 'deployments', '-l', 'app in (web,db)', '-o', 'name']), 'deployment.apps/web');
  assert.is(await ok(ctx, ['get', 'deployments', '-l', 'in', '-o', 'name']), '');
  assert.is(await ok(ctx, ['get', 'deployments', '-l', 'app notin ()', '-o', 'name']), 'deployment.apps/web\n');
});

kubectl('ConfigMap keys that would climb out of their volume are refused', async (ctx) => {
  const stderr = await fails(ctx, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad' }, data: { '../etc/passwd': 'x' } }));
  assert.match(stderr, 'The ConfigMap "bad" is invalid: ');
  assert.match(stderr, "data[../etc/passwd]: Invalid value: \"../etc/passwd\": must not start with '..'");
});

kubectl('over raw HTTPS, a POST without Content-Type is read as JSON and a PATCH without one is 415', async (ctx) => {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' }, data: { a: '1' } });
  const created = await ctx.s.request('POST', '/api/v1/namespaces/default/configmaps', { body });
  assert.is(created.status, 201, created.body);
  const patched = await ctx.s.request('PATCH', '/api/v1/namespaces/default/configmaps/plain', { body: '{"data":{"a":"2"}}' });
  assert.is(patched.status, 415);
  assert.is(JSON.parse(patched.body).message, 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml');
});

kubectl.run();
