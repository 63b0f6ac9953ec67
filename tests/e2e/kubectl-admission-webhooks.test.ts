// kubectl (the one on PATH) against the real HTTPS server with admission webhooks a test runs: a
// ValidatingWebhookConfiguration applied from YAML, a create it denies printing the real error, a
// MutatingWebhookConfiguration created from YAML whose change and warning kubectl sees, and
// `kubectl get` of the configurations.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import { kubectlFails, kubectlOk, startTestServer, type TestServer } from '../helpers/api-server.ts';
import { allow, answer, deny, hookFor } from '../helpers/admission-webhooks.ts';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.ts';

type Ctx = { s: TestServer; hook: WebhookServer };
const kubectl = suite<Ctx>('kubectl with admission webhooks');

kubectl.before(async (ctx) => {
  ctx.s = await startTestServer();
  ctx.hook = await startWebhookServer();
});
kubectl.after(async (ctx) => {
  await ctx.hook.close();
  await ctx.s.stop();
});

const manifest = (kind: string, name: string, webhooks: Record<string, unknown>[]) =>
  stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks });

kubectl('a create a validating webhook denies prints the real error, and kubectl get lists the configuration', async (ctx) => {
  const applied = await kubectlOk(ctx, ['apply', '-f', '-'], manifest('ValidatingWebhookConfiguration', 'no-latest', [hookFor(ctx.hook, 'no-latest.example.com', {
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }, '/validate')]));
  assert.is(applied, 'validatingwebhookconfiguration.admissionregistration.k8s.io/no-latest created\n');
  ctx.hook.answer((review) => (String(review.body.request.object.spec.containers[0].image).endsWith(':latest')
    ? deny('images must be pinned, not :latest')(review) : allow(review)));
  const stderr = await kubectlFails(ctx, ['run', 'web', '--image=nginx:latest']);
  assert.is(stderr, 'Error from server: admission webhook "no-latest.example.com" denied the request: images must be pinned, not :latest\n');
  assert.is(await kubectlOk(ctx, ['run', 'web', '--image=nginx:1.27']), 'pod/web created\n');
  const table = await kubectlOk(ctx, ['get', 'validatingwebhookconfigurations']);
  assert.match(table, /^NAME\s+WEBHOOKS\s+AGE\nno-latest\s+1\s+\d+s\n$/);
  assert.is(await kubectlOk(ctx, ['delete', 'validatingwebhookconfiguration', 'no-latest']),
    'validatingwebhookconfiguration.admissionregistration.k8s.io "no-latest" deleted\n');
});

kubectl('a mutating webhook\'s label is what kubectl creates, and its warning is printed', async (ctx) => {
  assert.is(await kubectlOk(ctx, ['create', '-f', '-'], manifest('MutatingWebhookConfiguration', 'labeler', [hookFor(ctx.hook, 'labeler.example.com', {}, '/mutate')])),
    'mutatingwebhookconfiguration.admissionregistration.k8s.io/labeler created\n');
  ctx.hook.answer((review) => answer(review, { allowed: true, warnings: ['labelled by the webhook'], patchType: 'JSONPatch',
    patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { labelled: 'true' } }])).toString('base64') }));
  const r = await ctx.s.kubectl(['create', 'configmap', 'settings', '--from-literal=a=b']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr, 'Warning: labelled by the webhook\n');
  assert.is(await kubectlOk(ctx, ['get', 'configmap', 'settings', '-o', 'jsonpath={.metadata.labels.labelled}']), 'true');
  await kubectlOk(ctx, ['delete', 'mutatingwebhookconfiguration', 'labeler']);
});

kubectl.run();
