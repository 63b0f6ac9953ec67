// Which requests reach a webhook and where it is reached: the namespace and object selectors, dry
// runs (sent with dryRun: true to webhooks without side effects, refused for those with),
// matchConditions (CEL), and a
// service reference, dialled at its Endpoints' or EndpointSlices' address or its externalName and
// verified as `<service>.<namespace>.svc`.
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { configMap } from '../../../helpers/in-process-server.ts';
import { allow, deny, hookFor, VALIDATING } from '../../../helpers/admission-webhooks.ts';
import { withAdmission } from '../../../helpers/admission-world.ts';

const cm = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
const SERVICE_NAME = 'hook.default.svc';

withAdmission('a namespace selector sends only requests in the namespaces it selects', async ({ h, hook, configure }) => {
  for (const [name, labels] of [['guarded', { policy: 'strict' }], ['free', {}]] as const)
    assert.is((await h.post('/api/v1/namespaces', { metadata: { name, labels } })).status, 201);
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'strict.example.com', { namespaceSelector: { matchLabels: { policy: 'strict' } } })]);
  hook.answer(deny('strict namespace'));
  assert.is((await h.post(cm('guarded'), configMap('a'))).status, 400);
  assert.is((await h.post(cm('free'), configMap('a'))).status, 201);
  assert.is(hook.received.length, 1);
});

withAdmission('an object selector sends only objects whose labels it selects, before or after the change', async ({ h, hook, configure }) => {
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'watched.example.com', {
    objectSelector: { matchExpressions: [{ key: 'watched', operator: 'Exists' }] },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] })]);
  hook.answer(allow);
  assert.is((await h.post(cm('default'), configMap('plain'))).status, 201);
  assert.is(hook.received.length, 0);
  assert.is((await h.post(cm('default'), configMap('watched', { k: 'v' }, { watched: '' }))).status, 201);
  assert.is((await h.put(`${cm('default')}/watched`, configMap('watched', { k: 'v2' }))).status, 200, 'dropping the label is still seen');
  assert.equal(hook.received.map((r) => r.body.request.operation), ['CREATE', 'UPDATE']);
});

withAdmission('a dry run is sent with dryRun: true to a webhook without side effects, and stores nothing', async ({ h, hook, configure }) => {
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'pure.example.com', { sideEffects: 'NoneOnDryRun' })]);
  hook.answer(allow);
  const before = h.revision();
  assert.is((await h.post(`${cm('default')}?dryRun=All`, configMap('a'))).status, 201);
  assert.is(h.revision(), before);
  const request = hook.received[0]!.body.request;
  assert.equal([request.dryRun, request.options.dryRun], [true, ['All']]);
});

withAdmission('a webhook with side effects (as an older server stored it) refuses dry runs with 400 and is still called for real ones', async ({ h, hook }) => {
  // v1 refuses sideEffects Some: a configuration stored by a server that took it is written into the store as it would be.
  const key = '/registry/admissionregistration.k8s.io/validatingwebhookconfigurations/legacy';
  await h.server.store.create(key, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'legacy', uid: 'u' },
    webhooks: [{ ...hookFor(hook, 'legacy.example.com'), sideEffects: 'Some' }] } as never);
  hook.answer(allow);
  const dry = await h.post(`${cm('default')}?dryRun=All`, configMap('a'));
  assert.is(dry.status, 400);
  assert.equal([dry.json.reason, dry.json.message], ['BadRequest', 'admission webhook "legacy.example.com" does not support dry run']);
  assert.is(hook.received.length, 0);
  assert.is((await h.post(cm('default'), configMap('a'))).status, 201);
  assert.is(hook.received.length, 1);
});

const conditions = (...expressions: string[]) => ({ matchConditions: expressions.map((expression, i) => ({ name: `c${i}`, expression })) });

withAdmission('matchConditions send only the requests every condition holds for, reading object, oldObject and request', async ({ h, hook, configure }) => {
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'cel.example.com', conditions(
    "object.metadata.name.startsWith('checked-')", "oldObject == null && request.operation == 'CREATE' && request.namespace == 'default'",
    "request.userInfo.username == 'system:anonymous' && !request.dryRun && request.kind.kind == 'ConfigMap'"))]);
  hook.answer(deny('checked'));
  assert.is((await h.post(cm('default'), configMap('other'))).status, 201);
  assert.is(hook.received.length, 0);
  assert.is((await h.post(cm('default'), configMap('checked-a'))).status, 400);
  assert.is((await h.post(`${cm('default')}?dryRun=All`, configMap('checked-b'))).status, 201, 'a dry run fails the last condition');
  assert.is(hook.received.length, 1);
});

withAdmission('a condition that cannot be evaluated refuses the request with 403 under Fail and skips the webhook under Ignore; a false one skips it either way', async ({ h, hook, configure }) => {
  const broken = "object.metadata.labels.team == 'a'";
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'cel.example.com', conditions(broken))]);
  hook.answer(allow);
  const r = await h.post(cm('default'), configMap('c'));
  assert.is(r.status, 403);
  assert.equal([r.json.reason, r.json.message], ['Forbidden', `configmaps "c" is forbidden: expression '${broken}' resulted in error: no such key: labels`]);
  assert.is((await h.del(`${VALIDATING}/v`)).status, 200);
  await configure('ValidatingWebhookConfiguration', 'lenient', [hookFor(hook, 'cel.example.com', { ...conditions(broken), failurePolicy: 'Ignore' })]);
  await configure('ValidatingWebhookConfiguration', 'strict', [hookFor(hook, 'false-wins.example.com', conditions(broken, 'false'))]);
  assert.is((await h.post(cm('default'), configMap('c'))).status, 201);
  assert.is(hook.received.length, 0);
});

/** A Service without a selector, port 443 named https, as one points a cluster at a webhook outside it. */
async function service(h: Parameters<Parameters<typeof withAdmission>[1]>[0]['h'], spec: Record<string, unknown> = { ports: [{ name: 'https', port: 443 }] }) {
  const r = await h.post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'hook' }, spec });
  assert.is(r.status, 201, r.text);
}

const byService = (hook: { caPem: string }, path = '/validate') =>
  ({ clientConfig: { service: { namespace: 'default', name: 'hook', path }, caBundle: Buffer.from(hook.caPem).toString('base64') } });

const portOf = (url: string) => Number(new URL(url).port);

// The Endpoints kind is not served yet: the test writes the object where the registry keeps Endpoints.
withAdmission('a service reference is dialled at its Endpoints\' address and its certificate checked for <service>.<namespace>.svc', async ({ h, hook, configure }) => {
  await service(h);
  await h.server.store.create('/registry/core/endpoints/default/hook', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'hook', namespace: 'default' },
    subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: portOf(hook.url) }] }] } as never);
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'svc.example.com', byService(hook))]);
  hook.answer(deny('through the service'));
  const r = await h.post(cm('default'), configMap('a'));
  assert.is(r.json.message, 'admission webhook "svc.example.com" denied the request: through the service');
  assert.equal([hook.received[0]!.path, hook.received[0]!.headers.host], ['/validate?timeout=10s', `${SERVICE_NAME}:443`]);
}, SERVICE_NAME);

withAdmission('without Endpoints a service reference is dialled at a ready address of its EndpointSlices', async ({ h, hook, configure }) => {
  await service(h);
  await h.server.store.create('/registry/discovery.k8s.io/endpointslices/default/hook-abcde', { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: 'hook-abcde', namespace: 'default', labels: { 'kubernetes.io/service-name': 'hook' } }, addressType: 'IPv4',
    endpoints: [{ addresses: ['10.9.9.9'], conditions: { ready: false } }, { addresses: ['127.0.0.1'], conditions: { ready: true } }],
    ports: [{ name: 'https', port: portOf(hook.url) }] } as never);
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'svc.example.com', byService(hook))]);
  hook.answer(allow);
  assert.is((await h.post(cm('default'), configMap('a'))).status, 201);
  assert.is(hook.received.length, 1);
}, SERVICE_NAME);

withAdmission('an ExternalName service reference is dialled at its external name and the reference\'s port', async ({ h, hook, configure }) => {
  await service(h, { type: 'ExternalName', externalName: '127.0.0.1' });
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'svc.example.com', {
    clientConfig: { ...byService(hook).clientConfig, service: { namespace: 'default', name: 'hook', port: portOf(hook.url) } } })]);
  hook.answer(allow);
  assert.is((await h.post(cm('default'), configMap('a'))).status, 201);
  assert.is(hook.received[0]!.headers.host, `${SERVICE_NAME}:${portOf(hook.url)}`);
}, SERVICE_NAME);

withAdmission('a service that does not exist, or has no address, fails the call with the resolver\'s words', async ({ h, hook, configure }) => {
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'svc.example.com', byService(hook))]);
  const prefix = `Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://${SERVICE_NAME}:443/validate?timeout=10s": `;
  assert.is((await h.post(cm('default'), configMap('a'))).json.message, `${prefix}service "hook" not found`);
  await service(h);
  assert.is((await h.post(cm('default'), configMap('a'))).json.message, `${prefix}no endpoints available for service "hook"`);
  assert.is((await h.del(`${VALIDATING}/v`)).status, 200);
});

withAdmission('a webhook certificate that does not name <service>.<namespace>.svc fails the call', async ({ h, hook, configure }) => {
  await service(h, { type: 'ExternalName', externalName: '127.0.0.1' });
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'svc.example.com', {
    clientConfig: { ...byService(hook).clientConfig, service: { namespace: 'default', name: 'hook', port: portOf(hook.url) } } })]);
  const r = await h.post(cm('default'), configMap('a'));
  assert.is(r.status, 500);
  assert.match(r.json.message, /: tls: failed to verify certificate: x509: certificate is valid for localhost, .*kubernetes\.default\.svc, not hook\.default\.svc$/);
  assert.is(hook.received.length, 0);
});

test.run();
