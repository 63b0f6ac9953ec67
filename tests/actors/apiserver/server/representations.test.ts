// Representations: JSON (plain and pretty), YAML, the Table form with its columns and
// includeObject, the Protobuf envelope for request bodies and responses, and 406/415.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeProtobuf, encodeProtobuf } from '../../../../actors/apiserver/codec/protobuf.ts';
import type { KObject } from '../../../../actors/api/types.ts';
import { configMap, controllerRevision, pod, startServer } from '../../../helpers/in-process-server.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
/** What kubectl get sends. */
const KUBECTL_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const PB = 'application/vnd.kubernetes.protobuf';
/** What typed clients send since client-go 0.32. */
const PB_OR_JSON = `${PB},application/json`;
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const ssar = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } };
const pb = (obj: object) => encodeProtobuf(obj as KObject);

test('JSON is the default representation, and pretty=true indents it', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const plain = await h.get(`${CM}/a`);
  assert.is(plain.headers['content-type'], 'application/json');
  assert.not.match(plain.text, '\n');
  const pretty = await h.get(`${CM}/a?pretty=true`);
  assert.match(pretty.text, '\n  "kind": "ConfigMap"');
  assert.equal(pretty.json, plain.json);
});

test('Accept */* and application/* answer JSON', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  for (const accept of ['*/*', 'application/*', 'text/html, */*;q=0.8']) {
    const r = await h.get(`${CM}/a`, { accept });
    assert.is(r.status, 200, accept);
    assert.is(r.headers['content-type'], 'application/json', accept);
  }
});

test('YAML is served on request and accepted as a request body', async () => {
  const h = await startServer();
  const created = await h.post(CM, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  greeting: hello\n', { 'content-type': 'application/yaml' });
  assert.is(created.status, 201);
  assert.equal(created.json.data, { greeting: 'hello' });
  const r = await h.get(`${CM}/from-yaml`, { accept: 'application/yaml' });
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/yaml');
  assert.match(r.text, /^apiVersion: v1\nkind: ConfigMap\n/);
  assert.match(r.text, '  greeting: hello');
});

test('a YAML body is read as YAML 1.1, so an unquoted y is a boolean and a bad name type', async () => {
  const h = await startServer();
  const r = await h.post(CM, 'metadata:\n  name: y\n', { 'content-type': 'application/yaml' });
  assert.is(r.status, 400);
  assert.match(r.json.message, 'cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string');
});

test('nothing acceptable in Accept answers 406 NotAcceptable listing what is served', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.get(`${CM}/a`, { accept: 'text/html' });
  assert.is(r.status, 406);
  assert.is(r.json.reason, 'NotAcceptable');
  assert.is(r.json.code, 406);
  assert.is(r.json.message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
});

test('a body in an unknown media type answers 415 and stores nothing', async () => {
  const h = await startServer();
  const before = h.revision();
  const r = await h.post(CM, 'name=a', { 'content-type': 'application/x-www-form-urlencoded' });
  assert.is(r.status, 415);
  assert.is(r.json.reason, 'UnsupportedMediaType');
  assert.is(r.json.message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  assert.is(h.revision(), before);
});

test('a Table list has the kind columns, one row per object with PartialObjectMetadata, and the list metadata', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { x: '1', y: '2' }));
  await h.post(CM, configMap('b', {}));
  const r = await h.get(CM, { accept: TABLE });
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/json');
  assert.is(r.json.kind, 'Table');
  assert.is(r.json.apiVersion, 'meta.k8s.io/v1');
  assert.is(r.json.metadata.resourceVersion, String(h.revision()));
  assert.equal(r.json.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority]),
    [['Name', 'string', 'name', 0], ['Data', 'string', '', 0], ['Age', 'string', '', 0]]);
  assert.ok(r.json.columnDefinitions.every((c: any) => typeof c.description === 'string' && c.description.length > 0));
  assert.equal(r.json.rows.map((row: any) => row.cells.slice(0, 2)), [['a', 2], ['b', 0]]);
  const object = r.json.rows[0].object;
  assert.is(object.kind, 'PartialObjectMetadata');
  assert.is(object.apiVersion, 'meta.k8s.io/v1');
  assert.is(object.metadata.name, 'a');
  assert.is(object.metadata.namespace, 'default');
  assert.is(object.data, undefined);
});

test('kubectl get negotiates the Table, and a pod Table has the pod columns, wide ones at priority 1', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const r = await h.get(`${PODS}?limit=500`, { accept: KUBECTL_TABLE });
  assert.is(r.json.kind, 'Table');
  assert.equal(r.json.columnDefinitions.map((c: any) => `${c.name}/${c.priority}`),
    ['Name/0', 'Ready/0', 'Status/0', 'Restarts/0', 'Age/0', 'IP/1', 'Node/1', 'Nominated Node/1', 'Readiness Gates/1']);
  assert.equal(r.json.rows[0].cells.slice(0, 4), ['p', '0/1', 'Pending', '0']);
});

test('a controller revision Table shows Controller and Revision', async () => {
  const h = await startServer();
  const cr = controllerRevision('ds-1-abc', 3);
  await h.post('/apis/apps/v1/namespaces/default/controllerrevisions',
    { ...cr, metadata: { ...cr.metadata, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds-1', uid: 'u', controller: true }] } });
  const r = await h.get('/apis/apps/v1/namespaces/default/controllerrevisions', { accept: TABLE });
  assert.equal(r.json.columnDefinitions.map((c: any) => c.name), ['Name', 'Controller', 'Revision', 'Age']);
  assert.equal(r.json.rows[0].cells.slice(0, 3), ['ds-1-abc', 'daemonset.apps/ds-1', 3]);
});

test('includeObject=Object puts the full object in each row, and None puts null', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v' }));
  const full = await h.get(`${CM}?includeObject=Object`, { accept: TABLE });
  assert.is(full.json.rows[0].object.kind, 'ConfigMap');
  assert.equal(full.json.rows[0].object.data, { k: 'v' });
  const none = await h.get(`${CM}?includeObject=None`, { accept: TABLE });
  assert.is(none.json.rows[0].object, null);
  const bad = await h.get(`${CM}?includeObject=Everything`, { accept: TABLE });
  assert.is(bad.status, 400);
});

test('a GET of one object as a Table answers a one-row Table', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.get(`${CM}/a`, { accept: TABLE });
  assert.is(r.json.kind, 'Table');
  assert.is(r.json.rows.length, 1);
  assert.is(r.json.rows[0].cells[0], 'a');
});

test('a Table in v1beta1 or in YAML is served when asked for', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const beta = await h.get(CM, { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' });
  assert.is(beta.json.apiVersion, 'meta.k8s.io/v1beta1');
  assert.is(beta.json.rows[0].object.apiVersion, 'meta.k8s.io/v1beta1');
  const yaml = await h.get(CM, { accept: 'application/yaml;as=Table;v=v1;g=meta.k8s.io' });
  assert.is(yaml.headers['content-type'], 'application/yaml');
  assert.match(yaml.text, /^kind: Table\napiVersion: meta.k8s.io\/v1\n/);
});

test('a chunked Table carries continue and remainingItemCount in its metadata', async () => {
  const h = await startServer();
  for (const n of ['a', 'b', 'c']) await h.post(CM, configMap(n));
  const r = await h.get(`${CM}?limit=2`, { accept: TABLE });
  assert.is(r.json.rows.length, 2);
  assert.ok(r.json.metadata.continue);
  assert.is(r.json.metadata.remainingItemCount, 1);
});

test('only Table acceptable for a type that cannot be listed answers 406; with a JSON fallback it answers JSON', async () => {
  const h = await startServer();
  const only = await h.post(SSAR, ssar, { accept: TABLE });
  assert.is(only.status, 406);
  assert.is(only.json.reason, 'NotAcceptable');
  const fallback = await h.post(SSAR, ssar, { accept: `${TABLE},application/json` });
  assert.is(fallback.status, 201);
  assert.is(fallback.json.kind, 'SelfSubjectAccessReview');
});

test('a write asking for a Table gets the object as JSON', async () => {
  const h = await startServer();
  const r = await h.post(CM, configMap('a'), { accept: KUBECTL_TABLE });
  assert.is(r.status, 201);
  assert.is(r.json.kind, 'ConfigMap');
});

test('Protobuf responses start with the k8s\\0 prefix and wrap the object in Unknown with its type meta', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v' }));
  for (const accept of [PB, 'application/vnd.orchestrator.protobuf', PB_OR_JSON]) {
    const r = await h.get(`${CM}/a`, { accept });
    assert.is(r.status, 200, accept);
    assert.is(r.headers['content-type'], PB);
    assert.equal([...r.bytes.slice(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
    const obj = decodeProtobuf(r.bytes);
    assert.is(obj.apiVersion, 'v1');
    assert.is(obj.kind, 'ConfigMap');
    assert.is(obj.metadata.name, 'a');
    assert.equal(obj.data, { k: 'v' });
  }
});

test('a Protobuf list answers the List kind with its items', async () => {
  const h = await startServer();
  await h.post('/apis/apps/v1/namespaces/default/controllerrevisions', controllerRevision('r1', 4));
  const r = await h.get('/apis/apps/v1/controllerrevisions', { accept: PB });
  const list = decodeProtobuf(r.bytes) as KObject & { items: KObject[] };
  assert.is(list.kind, 'ControllerRevisionList');
  assert.is(list.metadata.resourceVersion, String(h.revision()));
  assert.equal(list.items.map((i) => [i.metadata.name, i.revision]), [['r1', 4]]);
});

test('a Lease, like every built-in kind with a Protobuf form, is answered in Protobuf when the client prefers it', async () => {
  const h = await startServer();
  const path = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
  await h.post(path, { metadata: { name: 'l' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2024-01-02T03:04:05.123456Z' } });
  const r = await h.get(`${path}/l`, { accept: PB_OR_JSON });
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/vnd.kubernetes.protobuf');
  const lease = decodeProtobuf(r.bytes) as KObject & { spec: unknown };
  assert.equal([lease.kind, lease.metadata.name, lease.spec], ['Lease', 'l', { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2024-01-02T03:04:05.123456Z' }]);
});

test('pods are answered in JSON when the client also accepts JSON', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const r = await h.get(`${PODS}/p`, { accept: PB_OR_JSON });
  assert.is(r.headers['content-type'], 'application/json');
  assert.is(r.json.kind, 'Pod');
});

test('Protobuf request bodies create namespaces, config maps, secrets, deployments and controller revisions (a deployment answered in JSON)', async () => {
  const h = await startServer();
  const headers = { 'content-type': PB, accept: PB_OR_JSON };
  const bodies: [string, object][] = [
    ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }],
    [CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { k: 'v' } }],
    ['/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' }, type: 'Opaque' }],
    ['/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } }],
    ['/apis/apps/v1/namespaces/default/controllerrevisions', controllerRevision('cr', 2, { a: 1 })],
  ];
  for (const [path, body] of bodies) {
    const r = await h.post(path, pb(body), headers);
    assert.is(r.status, 201, path);
    // A Deployment's pod template has fields its Protobuf message does not hold yet: answered in JSON, which the client takes.
    const lossy = path.endsWith('/deployments');
    assert.is(r.headers['content-type'], lossy ? 'application/json' : PB, path);
    const back = lossy ? r.json : decodeProtobuf(r.bytes);
    assert.is(back.kind, (body as KObject).kind);
    assert.ok(back.metadata.uid, path);
  }
  assert.equal((await h.get(`${CM}/cm`)).json.data, { k: 'v' });
  assert.is((await h.get('/apis/apps/v1/namespaces/default/deployments/d')).json.spec.template.spec.containers[0].image, 'nginx');
  const cr = (await h.get('/apis/apps/v1/namespaces/default/controllerrevisions/cr')).json;
  assert.equal([cr.revision, cr.data], [2, { a: 1 }]);
});

test('a Protobuf self-subject access review is answered 201 in Protobuf with status.allowed', async () => {
  const h = await startServer();
  const r = await h.post(SSAR, pb({ ...ssar, metadata: {} }), { 'content-type': PB, accept: PB_OR_JSON });
  assert.is(r.status, 201);
  const review = decodeProtobuf(r.bytes);
  assert.is(review.kind, 'SelfSubjectAccessReview');
  assert.equal(review.status, { allowed: true });
});

test('a Protobuf eviction is answered with a 201 success Status', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const r = await h.post(`${PODS}/p/eviction`, pb({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p', namespace: 'default' } }),
    { 'content-type': PB, accept: PB_OR_JSON });
  assert.is(r.status, 201);
  const status = decodeProtobuf(r.bytes);
  assert.is(status.kind, 'Status');
  assert.is(status.status, 'Success');
  assert.is(status.code, 201);
  assert.is((await h.get(`${PODS}/p`)).status, 404);
});

test('a Protobuf body without the prefix answers 400, and one of a kind the path does not serve answers 400', async () => {
  const h = await startServer();
  const before = h.revision();
  const garbage = await h.post(CM, new Uint8Array([1, 2, 3]), { 'content-type': PB });
  assert.is(garbage.status, 400);
  assert.match(garbage.json.message, 'it must start with the 4 bytes 6b 38 73 00');
  const wrong = await h.post(CM, pb({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } }), { 'content-type': PB });
  assert.is(wrong.status, 400);
  assert.is(wrong.json.message, 'the kind in the data (Secret) does not match the expected kind (ConfigMap)');
  assert.is(h.revision(), before);
});

test('a Protobuf body of a kind with no Protobuf definition answers 415', async () => {
  const h = await startServer();
  const lease = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } as KObject);
  // Rewrite the envelope's kind: ConfigMap (9 bytes) becomes LeaseXxxx, a kind with no message.
  const bytes = Buffer.from(lease);
  const at = bytes.indexOf('ConfigMap');
  bytes.write('LeaseXxxx', at);
  const r = await h.post(CM, new Uint8Array(bytes), { 'content-type': PB });
  assert.is(r.status, 415);
  assert.is(r.json.reason, 'UnsupportedMediaType');
});

test('a success Status of a delete is answered in Protobuf when asked', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.del(`${CM}/a`, undefined, { accept: PB_OR_JSON });
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], PB);
  const status = decodeProtobuf(r.bytes);
  assert.is(status.kind, 'Status');
  assert.is(status.status, 'Success');
});

test.run();
