// What a PATCH stores, as the real PatchResource stores it: the patched JSON decoded as the kind
// (a null in a typed field gone, in a map or list the element's zero value, in free-form data
// kept), the name checked against the URL, the result validated whole; strategic directives
// answered as the real merge answers them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, controllerRevision, JSON_PATCH, MERGE, pod, startServer, STRATEGIC, type Harness, type Reply } from '../../../helpers/in-process-server.ts';

const D = '/apis/apps/v1/namespaces/default/deployments';
const PODS = '/api/v1/namespaces/default/pods';
const CM = '/api/v1/namespaces/default/configmaps';

const deployment = {
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web', tier: 'front' } },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
};

async function withDeployment(): Promise<{ h: Harness; before: Reply }> {
  const h = await startServer();
  assert.is((await h.post(D, deployment)).status, 201);
  return { h, before: await h.get(`${D}/web`) };
}

/** The request changed nothing stored: the same object, no new revision. */
async function unchanged(h: Harness, before: Reply, r: Reply): Promise<void> {
  assert.is(r.status, 200, r.text);
  assert.is(r.json.metadata.resourceVersion, before.json.metadata.resourceVersion);
  assert.is(r.json.metadata.generation, before.json.metadata.generation);
  assert.equal((await h.get(`${D}/web`)).json, before.json);
}

function unclassified(r: Reply, message: string): void {
  assert.is(r.status, 500, r.text);
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

test('a JSON patch adding null to an optional field changes nothing: no write, no new generation', async () => {
  const { h, before } = await withDeployment();
  const revision = h.revision();
  await unchanged(h, before, await h.patch(`${D}/web`, [{ op: 'add', path: '/spec/template/spec/nodeSelector', value: null }], JSON_PATCH));
  await unchanged(h, before, await h.patch(`${D}/web`, [{ op: 'add', path: '/spec/paused', value: null }, { op: 'add', path: '/metadata/annotations', value: null }], JSON_PATCH));
  assert.is(h.revision(), revision);
});

test('a null written where an optional field holds a value removes it, as decoding into the kind does', async () => {
  const { h } = await withDeployment();
  await h.patch(`${D}/web`, { spec: { template: { spec: { nodeSelector: { disk: 'ssd' } } } } }, MERGE);
  const r = await h.patch(`${D}/web`, [{ op: 'replace', path: '/spec/template/spec/nodeSelector', value: null }], JSON_PATCH);
  assert.is(r.status, 200);
  assert.not.ok('nodeSelector' in r.json.spec.template.spec);
});

test('a null map value decodes to the empty string, a null list item to its zero value', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p', { labels: { app: 'web' } }));
  const r = await h.patch(`${PODS}/p`, [{ op: 'add', path: '/metadata/labels/role', value: null }, { op: 'add', path: '/metadata/annotations', value: { note: null } }], JSON_PATCH);
  assert.is(r.status, 200, r.text);
  assert.equal([r.json.metadata.labels, r.json.metadata.annotations], [{ app: 'web', role: '' }, { note: '' }]);
  const created = await h.post(PODS, { ...pod('q'), spec: { containers: [{ name: 'c', image: 'nginx', args: ['a', null] }] } });
  assert.equal(created.json.spec.containers[0].args, ['a', '']);
});

test('nulls in free-form data (a ControllerRevision\'s data) are kept', async () => {
  const h = await startServer();
  const r = await h.post('/apis/apps/v1/namespaces/default/controllerrevisions', controllerRevision('r1', 1, { spec: { template: { x: 1 }, gone: null } }));
  assert.is(r.status, 201, r.text);
  assert.equal(r.json.data, { spec: { template: { x: 1 }, gone: null } });
});

test('a created object is stored as decoded: nulls in typed fields gone', async () => {
  const h = await startServer();
  const r = await h.post(CM, { ...configMap('a'), metadata: { name: 'a', labels: null, annotations: { note: null } }, binaryData: null });
  assert.is(r.status, 201, r.text);
  assert.equal([r.json.metadata.labels, r.json.metadata.annotations, 'binaryData' in r.json], [undefined, { note: '' }, false]);
});

test('a strategic merge patch stores new list items without their nulls', async () => {
  const { h } = await withDeployment();
  const r = await h.patch(`${D}/web`, { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox', env: null, args: null }] } } } }, STRATEGIC);
  assert.is(r.status, 200, r.text);
  assert.equal(r.json.spec.template.spec.containers.map((c: { name: string; env?: unknown; args?: unknown }) => [c.name, c.env, c.args]),
    [['sidecar', undefined, undefined], ['c', undefined, undefined]]);
});

test('a patch that leaves the object without its name answers 400 as checkName does, and stores nothing', async () => {
  const { h, before } = await withDeployment();
  const revision = h.revision();
  const undeterminable = 'the name of the object (web based on URL) was undeterminable: name must be provided';
  for (const [body, type] of [[{ metadata: { $patch: 'delete' } }, STRATEGIC], [{ $patch: 'delete' }, STRATEGIC], [[{ op: 'remove', path: '/metadata' }], JSON_PATCH],
    [{ metadata: null }, MERGE], [[{ op: 'replace', path: '/metadata/name', value: '' }], JSON_PATCH]] as const) {
    const r = await h.patch(`${D}/web`, body, type);
    assert.is(r.status, 400, JSON.stringify(body));
    assert.equal([r.json.reason, r.json.message], ['BadRequest', undeterminable], JSON.stringify(body));
  }
  const renamed = await h.patch(`${D}/web`, [{ op: 'replace', path: '/metadata/name', value: 'other' }], JSON_PATCH);
  assert.equal([renamed.status, renamed.json.message], [400, 'the name of the object (other) does not match the name on the URL (web)']);
  const moved = await h.patch(`${D}/web`, { metadata: { namespace: 'elsewhere' } }, MERGE);
  assert.equal([moved.status, moved.json.message], [400, 'the namespace of the provided object does not match the namespace sent on the request']);
  assert.is(h.revision(), revision);
  assert.equal((await h.get(`${D}/web`)).json.metadata.labels, before.json.metadata.labels, 'no label was dropped');
});

test('$patch: replace on metadata keeps only what the patch holds, name included', async () => {
  const { h } = await withDeployment();
  const r = await h.patch(`${D}/web`, { metadata: { $patch: 'replace', name: 'web', labels: { app: 'web' } } }, STRATEGIC);
  assert.is(r.status, 200, r.text);
  assert.equal(r.json.metadata.labels, { app: 'web' });
});

test('a patch whose result lacks a required field answers 422 naming it, as create and update do', async () => {
  const { h } = await withDeployment();
  const r = await h.patch(`${D}/web`, [{ op: 'remove', path: '/spec/selector' }], JSON_PATCH);
  assert.is(r.status, 422);
  assert.is(r.json.message, 'Deployment.apps "web" is invalid: spec.selector: Required value');
});

test('an unknown $patch value, in a map or a list item, is the real unclassified 500 with Go\'s message', async () => {
  const { h, before } = await withDeployment();
  unclassified(await h.patch(`${D}/web`, { metadata: { $patch: 'foo' } }, STRATEGIC), 'unknown patch type: foo in map: map[$patch:foo]');
  unclassified(await h.patch(`${D}/web`, { metadata: { $patch: 5 } }, STRATEGIC), 'unknown patch type: %!s(int64=5) in map: map[$patch:5]');
  unclassified(await h.patch(`${D}/web`, { spec: { template: { spec: { containers: [{ name: 'c', $patch: 'bogus' }] } } } }, STRATEGIC),
    'unknown patch type: bogus in map: map[$patch:bogus name:c]');
  unclassified(await h.patch(`${D}/web`, { spec: { template: { spec: { containers: [{ name: 'c', $patch: 'merge' }] } } } }, STRATEGIC),
    'merging lists cannot yet be specified in the patch');
  assert.equal((await h.get(`${D}/web`)).json, before.json);
});

test('directives of the wrong shape are refused as the real merge refuses them', async () => {
  const { h, before } = await withDeployment();
  const spec = (patch: object) => ({ spec: { template: { spec: patch } } });
  unclassified(await h.patch(`${D}/web`, spec({ '$setElementOrder/containers': 'c' }), STRATEGIC), 'expected a []interface {}, but received a string');
  unclassified(await h.patch(`${D}/web`, spec({ '$setElementOrder/containers': null }), STRATEGIC), 'expected a []interface {}, but received a %!s(<nil>)');
  unclassified(await h.patch(`${D}/web`, spec({ '$setElementOrder': 'c' }), STRATEGIC), 'expected a []interface {}, but received a string');
  unclassified(await h.patch(`${D}/web`, spec({ '$setElementOrder/containers': [{ image: 'x' }] }), STRATEGIC),
    'map: map[image:x] does not contain declared merge key: name');
  const bad = async (patch: object, message: string) => {
    const r = await h.patch(`${D}/web`, patch, STRATEGIC);
    assert.equal([r.status, r.json.reason, r.json.message], [400, 'BadRequest', message], JSON.stringify(patch));
  };
  await bad(spec({ '$setElementOrder': [{ name: 'c' }] }), 'invalid patch format of setElementOrder list');
  await bad(spec({ '$setElementOrderX/containers': [{ name: 'c' }] }), 'invalid patch format of setElementOrder list');
  await bad({ metadata: { '$deleteFromPrimitiveList': ['a'] } }, 'invalid patch format of primitive list');
  await bad({ spec: { strategy: { $retainKeys: 'type', type: 'Recreate' } } }, 'invalid patch format of retainKeys');
  await bad({ spec: { strategy: { $retainKeys: ['rollingUpdate'], type: 'Recreate' } } }, 'invalid patch format of retainKeys');
  assert.equal((await h.get(`${D}/web`)).json, before.json);
});

test('$deleteFromPrimitiveList removes listed values, null removes the list, and a list of another type is passed over', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p', { finalizers: ['example.com/a', 'example.com/b'] }));
  const some = await h.patch(`${PODS}/p`, { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } }, STRATEGIC);
  assert.equal(some.json.metadata.finalizers, ['example.com/b']);
  const mismatched = await h.patch(`${PODS}/p`, { metadata: { '$deleteFromPrimitiveList/finalizers': 'example.com/b' } }, STRATEGIC);
  assert.is(mismatched.status, 200, mismatched.text);
  assert.equal(mismatched.json.metadata.finalizers, ['example.com/b']);
  const all = await h.patch(`${PODS}/p`, { metadata: { '$deleteFromPrimitiveList/finalizers': null } }, STRATEGIC);
  assert.is(all.json.metadata.finalizers, undefined);
});

test('patches racing on one object are each applied again to the newer object, none refused; one naming a stale version is a 409', async () => {
  const h = await startServer();
  assert.is((await h.post(CM, configMap('shared', {}))).status, 201);
  const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => i % 2
    ? h.patch(`${CM}/shared`, { data: { [`k${i}`]: 'v' } }, MERGE)
    : h.patch(`${CM}/shared`, [{ op: 'add', path: `/data/k${i}`, value: 'v' }], JSON_PATCH)));
  assert.equal(replies.map((r) => r.status), Array(12).fill(200), replies.map((r) => r.text).join('\n'));
  assert.equal(Object.keys((await h.get(`${CM}/shared`)).json.data).sort(), Array.from({ length: 12 }, (_, i) => `k${i}`).sort());
  const stale = await h.patch(`${CM}/shared`, { metadata: { resourceVersion: replies[0]!.json.metadata.resourceVersion }, data: { late: 'v' } }, MERGE);
  assert.is(stale.status, 409, stale.text);
});

test.run();
