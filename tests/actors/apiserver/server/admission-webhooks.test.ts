// Admission webhooks against a real HTTPS webhook: what they are sent, how a denial, a patch and
// warnings reach the client, the order of mutating webhooks and their reinvocation, where the
// validating ones stand (after the kind's validation), and what they are never sent.
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { configMap, headerValues, pod } from '../../../helpers/in-process-server.ts';
import { allow, answer, deny, hookFor, patch } from '../../../helpers/admission-webhooks.ts';
import { withAdmission } from '../../../helpers/admission-world.ts';
import type { ReceivedReview } from '../../../helpers/webhook-server.ts';
import { settle } from '../../../helpers/watch-stream.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

withAdmission('a validating webhook that denies refuses the create with its message and code, and nothing is stored', async ({ h, hook, configure }) => {
  await configure('ValidatingWebhookConfiguration', 'policy', [hookFor(hook, 'deny.example.com')]);
  hook.answer(deny('configmaps are frozen', 403));
  const before = h.revision();
  const r = await h.post(CM, configMap('c'));
  assert.is(r.status, 403);
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'admission webhook "deny.example.com" denied the request: configmaps are frozen', code: 403 });
  assert.is(h.revision(), before);
});

withAdmission('an allowing webhook is sent a v1 review of the create, over HTTPS with the timeout, and the object is stored', async ({ h, hook, configure }) => {
  await configure('ValidatingWebhookConfiguration', 'policy', [hookFor(hook, 'allow.example.com', {}, '/validate/')]);
  hook.answer(allow);
  const r = await h.post(`${CM}?fieldManager=me&fieldValidation=Strict`, configMap('c', { k: 'v' }));
  assert.is(r.status, 201, r.text);
  assert.is(hook.received.length, 1);
  const review = hook.received[0]!;
  assert.is(review.path, '/validate?timeout=10s', 'the path is cleaned and the timeout told');
  assert.is(review.headers['content-type'], 'application/json');
  const { uid, object, ...rest } = review.body.request;
  assert.match(uid, UUID);
  assert.equal(object.data, { k: 'v' });
  assert.equal(rest, {
    kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' },
    requestKind: { group: '', version: 'v1', kind: 'ConfigMap' }, requestResource: { group: '', version: 'v1', resource: 'configmaps' },
    name: 'c', namespace: 'default', operation: 'CREATE', userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    oldObject: null, dryRun: false, options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'me', fieldValidation: 'Strict' },
  });
  assert.is((await h.get(`${CM}/c`)).status, 200);
});

withAdmission('a mutating webhook\'s JSON patch is stored, and what it adds is defaulted as the kind defaults it', async ({ h, hook, configure }) => {
  await configure('MutatingWebhookConfiguration', 'inject', [hookFor(hook, 'sidecar.example.com', {
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })]);
  hook.answer(patch([{ op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'proxy:1' } },
    { op: 'add', path: '/metadata/labels', value: { injected: 'true' } }]));
  const r = await h.post(PODS, pod('p'));
  assert.is(r.status, 201, r.text);
  assert.equal(r.json.metadata.labels, { injected: 'true' });
  const sidecar = r.json.spec.containers[1];
  assert.equal([sidecar.name, sidecar.imagePullPolicy, sidecar.terminationMessagePath], ['sidecar', 'IfNotPresent', '/dev/termination-log']);
  assert.equal((await h.get(`${PODS}/p`)).json.spec.containers.map((c: { name: string }) => c.name), ['c', 'sidecar']);
});

withAdmission('warnings of mutating and validating webhooks reach the answer as Warning headers, each once', async ({ h, hook, configure }) => {
  await configure('MutatingWebhookConfiguration', 'm', [hookFor(hook, 'm.example.com', {}, '/m')]);
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'v.example.com', {}, '/v')]);
  hook.answer((review) => answer(review, { allowed: true, warnings: review.path.startsWith('/m') ? ['from the mutator', 'shared'] : ['shared', 'from the validator'] }));
  const r = await h.post(CM, configMap('c'));
  assert.is(r.status, 201);
  assert.equal(headerValues(r, 'warning'), ['299 - "from the mutator"', '299 - "shared"', '299 - "from the validator"']);
});

const labelAdder = (label: string) => (review: ReceivedReview) => patch([{ op: 'add', path: `/metadata/labels/${label}`, value: 'yes' }])(review);

withAdmission('mutating webhooks run in configuration-name order, each seeing what the ones before did; the validating webhook sees the result', async ({ h, hook, configure }) => {
  const withLabels = { ...configMap('c'), metadata: { name: 'c', labels: {} } };
  await configure('MutatingWebhookConfiguration', 'b-second', [hookFor(hook, 'b.example.com', {}, '/b')]);
  await configure('MutatingWebhookConfiguration', 'a-first', [hookFor(hook, 'a1.example.com', {}, '/a1'), hookFor(hook, 'a2.example.com', {}, '/a2')]);
  await configure('ValidatingWebhookConfiguration', 'check', [hookFor(hook, 'v.example.com', {}, '/v')]);
  hook.answer((review) => (review.path.startsWith('/v') ? allow(review) : labelAdder(review.path.slice(1, review.path.indexOf('?')))(review)));
  assert.is((await h.post(CM, withLabels)).status, 201);
  const seen = hook.received.map((r) => `${r.path.slice(0, r.path.indexOf('?'))}:${Object.keys(r.body.request.object.metadata.labels ?? {}).join('+')}`);
  assert.equal(seen, ['/a1:', '/a2:a1', '/b:a1+a2', '/v:a1+a2+b']);
});

withAdmission('an object the kind\'s validation refuses reaches the mutating webhooks but never the validating ones', async ({ h, hook, configure }) => {
  const podRules = { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] };
  await configure('MutatingWebhookConfiguration', 'm', [hookFor(hook, 'm.example.com', podRules, '/m')]);
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'v.example.com', podRules, '/v')]);
  hook.answer(allow);
  const r = await h.post(PODS, { ...pod('p'), spec: { containers: [{ name: 'c' }] } });
  assert.is(r.status, 422);
  assert.equal(hook.received.map((x) => x.path), ['/m?timeout=10s']);
});

withAdmission('an IfNeeded webhook is called again when a later webhook changes the object; a Never one is not', async ({ h, hook, configure }) => {
  await configure('MutatingWebhookConfiguration', 'a', [hookFor(hook, 'again.example.com', { reinvocationPolicy: 'IfNeeded' }, '/again'),
    hookFor(hook, 'once.example.com', {}, '/once')]);
  await configure('MutatingWebhookConfiguration', 'b', [hookFor(hook, 'labeler.example.com', {}, '/labeler')]);
  hook.answer((review) => (review.path.startsWith('/labeler') ? labelAdder('late')(review) : allow(review)));
  const r = await h.post(CM, { ...configMap('c'), metadata: { name: 'c', labels: {} } });
  assert.is(r.status, 201, r.text);
  const calls = hook.received.map((x) => x.path.slice(0, x.path.indexOf('?')));
  assert.equal(calls, ['/again', '/once', '/labeler', '/again']);
  assert.equal(hook.received[3]!.body.request.object.metadata.labels, { late: 'yes' }, 'the second call sees the later change');
});

withAdmission('without a later change an IfNeeded webhook is called once', async ({ h, hook, configure }) => {
  await configure('MutatingWebhookConfiguration', 'a', [hookFor(hook, 'again.example.com', { reinvocationPolicy: 'IfNeeded' })]);
  hook.answer(labelAdder('mine'));
  assert.is((await h.post(CM, { ...configMap('c'), metadata: { name: 'c', labels: {} } })).status, 201);
  assert.is(hook.received.length, 1, 'its own change asks for nothing');
});

withAdmission('webhooks are never sent webhook configurations, whatever their rules', async ({ h, hook, configure }) => {
  const everything = { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] };
  await configure('ValidatingWebhookConfiguration', 'all', [hookFor(hook, 'all.example.com', everything)]);
  hook.answer(deny('no'));
  await configure('MutatingWebhookConfiguration', 'another', [hookFor(hook, 'm.example.com')]);
  const r = await h.del('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/another');
  assert.is(r.status, 200);
  assert.is(hook.received.length, 0);
  assert.is((await h.post(CM, configMap('c'))).status, 400, 'other kinds are sent');
});

withAdmission('an update and a delete are sent with the old object and their options; a patch of a delete is a 500', async ({ h, hook, configure }) => {
  assert.is((await h.post(CM, configMap('c', { k: '1' }))).status, 201);
  await configure('MutatingWebhookConfiguration', 'm', [hookFor(hook, 'm.example.com', { rules: [{ operations: ['UPDATE', 'DELETE'], apiGroups: [''],
    apiVersions: ['v1'], resources: ['configmaps'] }] })]);
  hook.answer(allow);
  assert.is((await h.put(`${CM}/c`, configMap('c', { k: '2' }))).status, 200);
  const update = hook.received[0]!.body.request;
  assert.equal([update.operation, update.object.data, update.oldObject.data, update.options.kind], ['UPDATE', { k: '2' }, { k: '1' }, 'UpdateOptions']);
  hook.answer(patch([{ op: 'add', path: '/metadata/labels', value: { x: 'y' } }]));
  const r = await h.del(`${CM}/c`, { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' });
  assert.is(r.status, 500);
  assert.is(r.json.message, 'Internal error occurred: admission webhook "m.example.com" attempted to modify the object, which is not supported for this operation');
  const del = hook.received[1]!.body.request;
  assert.equal([del.operation, del.object, del.oldObject.data, del.options], ['DELETE', null, { k: '2' },
    { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' }]);
  hook.answer(allow);
  assert.is((await h.del(`${CM}/c`)).status, 200);
});

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const SCHEMA = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
const WIDGETS = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
    versions: [{ name: 'v1beta1', served: true, storage: false, schema: SCHEMA }, { name: 'v1', served: true, storage: true, schema: SCHEMA }] },
};
const widgetRules = { rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1beta1'], resources: ['widgets'] }] };

withAdmission('a rule naming another served version of a custom resource calls the webhook at that version (Equivalent), and what its patch adds outside the schema is pruned', async ({ h, hook, configure }) => {
  assert.is((await h.post(CRDS, WIDGETS)).status, 201);
  await settle();
  await configure('MutatingWebhookConfiguration', 'm', [hookFor(hook, 'widgets.example.com', widgetRules)]);
  await configure('MutatingWebhookConfiguration', 'exact', [hookFor(hook, 'exact.example.com', { ...widgetRules, matchPolicy: 'Exact' }, '/exact')]);
  hook.answer(patch([{ op: 'replace', path: '/spec/size', value: 5 }, { op: 'add', path: '/spec/color', value: 'red' }]));
  const r = await h.post('/apis/example.com/v1/namespaces/default/widgets', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
  assert.is(r.status, 201, r.text);
  assert.equal([r.json.apiVersion, r.json.spec], ['example.com/v1', { size: 5 }]);
  assert.equal(hook.received.map((x) => x.path), ['/admit?timeout=10s'], 'Exact does not call a webhook for another version');
  const { kind, resource, requestKind, requestResource, object } = hook.received[0]!.body.request;
  assert.equal([kind, resource, requestKind, requestResource, object.apiVersion], [
    { group: 'example.com', version: 'v1beta1', kind: 'Widget' }, { group: 'example.com', version: 'v1beta1', resource: 'widgets' },
    { group: 'example.com', version: 'v1', kind: 'Widget' }, { group: 'example.com', version: 'v1', resource: 'widgets' }, 'example.com/v1beta1']);
});

test.run();
