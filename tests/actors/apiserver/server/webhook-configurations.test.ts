// MutatingWebhookConfiguration and ValidatingWebhookConfiguration as stored kinds: their
// defaults, the real validation's answers, generation counting changes of the webhooks, the
// NAME WEBHOOKS AGE table, and a Protobuf body as typed clients send it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeProtobuf } from '../../../../actors/apiserver/codec/protobuf.ts';
import { MERGE, startServer, STRATEGIC } from '../../../helpers/in-process-server.ts';
import { configuration, MUTATING, VALIDATING } from '../../../helpers/admission-webhooks.ts';

const PB = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1';

const webhook = (more: Record<string, unknown> = {}) => ({
  name: 'check.example.com', clientConfig: { url: 'https://hooks.example.com/check' }, sideEffects: 'None', admissionReviewVersions: ['v1'],
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }], ...more,
});

test('a mutating webhook is stored with the real defaults: Fail, Equivalent, empty selectors, 10 s, Never, scope *, port 443', async () => {
  const h = await startServer();
  const svc = webhook({ name: 'svc.example.com', clientConfig: { service: { namespace: 'hooks', name: 'svc' } } });
  const r = await h.post(MUTATING, configuration('MutatingWebhookConfiguration', 'm', [webhook(), svc]));
  assert.is(r.status, 201, r.text);
  const [first, second] = r.json.webhooks;
  assert.equal(first, { ...webhook(), failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10,
    reinvocationPolicy: 'Never', rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }] });
  assert.equal(second.clientConfig, { service: { namespace: 'hooks', name: 'svc', port: 443 } });
  assert.is(r.json.metadata.generation, 1);
  const v = await h.post(VALIDATING, configuration('ValidatingWebhookConfiguration', 'v', [webhook()]));
  assert.is(v.json.webhooks[0].reinvocationPolicy, undefined, 'a validating webhook has no reinvocation policy');
});

/** The causes of a refused create, as `field: message`. */
async function refusal(body: unknown, path = VALIDATING): Promise<string[]> {
  const h = await startServer();
  const r = await h.post(path, body);
  assert.is(r.status, 422, r.text);
  assert.is(r.json.reason, 'Invalid');
  return r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
}

test('a webhook\'s name is fully qualified and unique in its configuration; sideEffects and review versions are required', async () => {
  assert.equal(await refusal(configuration('ValidatingWebhookConfiguration', 'v', [
    webhook({ name: 'check' }), webhook({ sideEffects: undefined, admissionReviewVersions: undefined }), webhook({ sideEffects: 'Some', admissionReviewVersions: ['v2'] }),
  ])), [
    'webhooks[0].name: Invalid value: "check": should be a domain with at least three segments separated by dots',
    'webhooks[1].sideEffects: Required value: must specify one of None, NoneOnDryRun',
    'webhooks[1].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
    'webhooks[2].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
    'webhooks[2].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
    'webhooks[2].name: Duplicate value: "check.example.com"',
  ]);
});

test('rules, policies, timeout, selectors and the client config are checked with the real messages', async () => {
  assert.equal(await refusal(configuration('MutatingWebhookConfiguration', 'm', [webhook({
    rules: [{ operations: ['*', 'GET'], apiGroups: [], apiVersions: ['v1', ''], resources: ['pods/*', 'pods/status'], scope: 'Everywhere' }],
    failurePolicy: 'Retry', matchPolicy: 'Close', timeoutSeconds: 31, reinvocationPolicy: 'Always',
    objectSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] },
    clientConfig: { url: 'http://user@hooks.example.com/x?y=1#z' },
  })], ), MUTATING), [
    'webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "GET"}: if \'*\' is present, must not specify other operations',
    'webhooks[0].rules[0].operations[1]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    'webhooks[0].rules[0].apiGroups: Required value',
    'webhooks[0].rules[0].apiVersions[1]: Required value',
    'webhooks[0].rules[0].resources[1]: Invalid value: "pods/status": if \'pods/*\' is present, must not specify pods/status',
    'webhooks[0].rules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
    'webhooks[0].failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"',
    'webhooks[0].matchPolicy: Unsupported value: "Close": supported values: "Equivalent", "Exact"',
    'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
    'webhooks[0].objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\'',
    'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    'webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
    'webhooks[0].clientConfig.url: Invalid value: "user": user information is not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "z": fragments are not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "y=1": query parameters are not permitted in the URL',
  ]);
});

test('exactly one of url and service; a service names itself, a valid port and a path of DNS segments', async () => {
  assert.equal(await refusal(configuration('ValidatingWebhookConfiguration', 'v', [
    webhook({ clientConfig: {} }),
    webhook({ name: 'b.example.com', clientConfig: { url: 'https://x.example.com', service: { namespace: 'n', name: 's' } } }),
    webhook({ name: 'c.example.com', clientConfig: { service: { port: 70000, path: 'no//Upper' } } }),
  ])), [
    'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
    'webhooks[1].clientConfig: Required value: exactly one of url or service is required',
    'webhooks[2].clientConfig.service.name: Required value: service name is required',
    'webhooks[2].clientConfig.service.namespace: Required value: service namespace is required',
    'webhooks[2].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    'webhooks[2].clientConfig.service.path: Invalid value: "no//Upper": must start with a \'/\'',
    'webhooks[2].clientConfig.service.path: Invalid value: "no//Upper": segment[1] may not be empty',
    'webhooks[2].clientConfig.service.path: Invalid value: "no//Upper": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
  ]);
});

test('matchConditions are named by unique qualified names, at most 64, with expressions that compile over object, oldObject and request', async () => {
  const cond = (name: string, expression: string) => ({ name, expression });
  assert.equal(await refusal(configuration('ValidatingWebhookConfiguration', 'v', [webhook({ matchConditions: [
    cond('ok', "request.userInfo.username != 'system:admin' && object.metadata.name != ''"), cond('ok', 'oldObject == null'),
    cond('', '  '), cond('bad name!', 'params.x'),
  ] }), webhook({ name: 'many.example.com', matchConditions: Array.from({ length: 65 }, (_, i) => cond(`c${i}`, 'true')) })])), [
    'webhooks[0].matchConditions[1].name: Duplicate value: "ok"',
    'webhooks[0].matchConditions[2].expression: Required value',
    'webhooks[0].matchConditions[2].name: Required value',
    'webhooks[0].matchConditions[3].expression: Invalid value: "params.x": compilation failed: ERROR: <input>:1:1: undeclared reference to \'params\' (in container \'\')',
    'webhooks[0].matchConditions[3].name: Invalid value: "bad name!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    'webhooks[1].matchConditions: Too many: 65: must have at most 64 items',
  ]);
});

test('generation counts changes of the webhooks, not of labels', async () => {
  const h = await startServer();
  assert.is((await h.post(VALIDATING, configuration('ValidatingWebhookConfiguration', 'v', [webhook()]))).status, 201);
  const labelled = await h.patch(`${VALIDATING}/v`, { metadata: { labels: { a: 'b' } } }, MERGE);
  assert.is(labelled.json.metadata.generation, 1);
  const changed = await h.patch(`${VALIDATING}/v`, { webhooks: [webhook({ timeoutSeconds: 3 })] }, MERGE);
  assert.is(changed.status, 200, changed.text);
  assert.is(changed.json.metadata.generation, 2);
});

test('a strategic merge patch merges webhooks by name, as kubectl apply relies on', async () => {
  const h = await startServer();
  const other = webhook({ name: 'other.example.com' });
  assert.is((await h.post(VALIDATING, configuration('ValidatingWebhookConfiguration', 'v', [webhook(), other]))).status, 201);
  const r = await h.patch(`${VALIDATING}/v`, { webhooks: [{ name: 'other.example.com', timeoutSeconds: 3 }] }, STRATEGIC);
  assert.is(r.status, 200, r.text);
  assert.equal(r.json.webhooks.map((w: { name: string; timeoutSeconds: number }) => `${w.name}:${w.timeoutSeconds}`), ['check.example.com:10', 'other.example.com:3']);
});

test('kubectl get shows NAME WEBHOOKS AGE', async () => {
  const h = await startServer();
  await h.post(MUTATING, configuration('MutatingWebhookConfiguration', 'two', [webhook(), webhook({ name: 'other.example.com' })]));
  const r = await h.get(MUTATING, { accept: TABLE });
  assert.equal(r.json.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Webhooks', 'Age']);
  assert.equal(r.json.rows.map((row: { cells: unknown[] }) => row.cells), [['two', 2, '0s']]);
});

test('a configuration sent as Protobuf is stored as its JSON would be', async () => {
  const h = await startServer();
  const body = encodeProtobuf(configuration('ValidatingWebhookConfiguration', 'pb', [webhook({ timeoutSeconds: 0 })]) as never);
  const r = await h.call('POST', VALIDATING, { body, headers: { 'content-type': PB, accept: 'application/json' } });
  assert.is(r.status, 422, 'a timeout of 0 sent as Protobuf is kept, and refused');
  const ok = await h.call('POST', VALIDATING, { body: encodeProtobuf(configuration('ValidatingWebhookConfiguration', 'pb', [webhook()]) as never),
    headers: { 'content-type': PB, accept: 'application/json' } });
  assert.is(ok.status, 201, ok.text);
  assert.equal(ok.json.webhooks[0].rules, [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }]);
});

test.run();
