// The verbs on one object and on collections, in process through ApiServer.handle(): the status
// codes real servers answer, and what the store holds afterwards.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APPLY, configMap, JSON_PATCH, MERGE, pod, startServer, STRATEGIC } from '../../../helpers/in-process-server.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
const lease = (name: string, holder = 'a') => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: holder } });

test('POST creates an object and answers 201 with the stored object, apiVersion and kind included', async () => {
  const h = await startServer();
  const r = await h.post(CM, configMap('a', { k: 'v' }));
  assert.is(r.status, 201);
  assert.is(r.headers['content-type'], 'application/json');
  assert.is(r.json.apiVersion, 'v1');
  assert.is(r.json.kind, 'ConfigMap');
  assert.is(r.json.metadata.namespace, 'default');
  assert.equal(r.json.data, { k: 'v' });
  const got = await h.get(`${CM}/a`);
  assert.is(got.status, 200);
  assert.equal(got.json, r.json);
});

test('a body without apiVersion and kind is read as the kind the path serves', async () => {
  const h = await startServer();
  const r = await h.post(CM, { metadata: { name: 'bare' }, data: { k: 'v' } });
  assert.is(r.status, 201);
  assert.is(r.json.kind, 'ConfigMap');
  assert.is(r.json.apiVersion, 'v1');
});

test('POST takes the namespace from the path and refuses a body naming another one', async () => {
  const h = await startServer();
  const r = await h.post(CM, { ...configMap('x'), metadata: { name: 'x', namespace: 'orch-system' } });
  assert.is(r.status, 400);
  assert.is(r.json.reason, 'BadRequest');
  assert.is(r.json.message, 'the namespace of the provided object does not match the namespace sent on the request');
  assert.is((await h.get('/api/v1/namespaces/orch-system/configmaps/x')).status, 404);
});

test('POST into a namespace that does not exist answers 404 for the namespace', async () => {
  const h = await startServer();
  const r = await h.post('/api/v1/namespaces/ghost/configmaps', configMap('x'));
  assert.is(r.status, 404);
  assert.is(r.json.message, 'namespaces "ghost" not found');
});

test('GET of a missing object answers 404 NotFound naming the plural and the group', async () => {
  const h = await startServer();
  const core = await h.get(`${CM}/nope`);
  assert.is(core.status, 404);
  assert.is(core.json.message, 'configmaps "nope" not found');
  assert.equal(core.json.details, { name: 'nope', group: '', kind: 'configmaps' });
  const apps = await h.get('/apis/apps/v1/namespaces/default/deployments/nope');
  assert.is(apps.json.message, 'deployments.apps "nope" not found');
  assert.equal(apps.json.details, { name: 'nope', group: 'apps', kind: 'deployments' });
});

test('a list answers the kind followed by List, items without apiVersion and kind, and the collection resourceVersion', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  await h.post(CM, configMap('b'));
  const r = await h.get(CM);
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'ConfigMapList');
  assert.is(r.json.apiVersion, 'v1');
  assert.is(r.json.metadata.resourceVersion, String(h.revision()));
  assert.equal(r.json.items.map((i: any) => i.metadata.name), ['a', 'b']);
  for (const item of r.json.items) {
    assert.is(item.apiVersion, undefined);
    assert.is(item.kind, undefined);
  }
});

test('a namespaced type lists across every namespace at its cluster path', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  await h.post('/api/v1/namespaces/orch-system/configmaps', configMap('b'));
  const r = await h.get('/api/v1/configmaps');
  assert.is(r.status, 200);
  assert.equal(r.json.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`), ['default/a', 'orch-system/b']);
});

test('PUT replaces an object, answers 200 and moves its resourceVersion on', async () => {
  const h = await startServer();
  const created = (await h.post(CM, configMap('a', { k: 'v' }))).json;
  const r = await h.put(`${CM}/a`, { ...created, data: { k: 'w' } });
  assert.is(r.status, 200);
  assert.equal(r.json.data, { k: 'w' });
  assert.is(r.json.metadata.uid, created.metadata.uid);
  assert.ok(Number(r.json.metadata.resourceVersion) > Number(created.metadata.resourceVersion));
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: 'w' });
});

test('PUT without a resourceVersion is an unconditional update', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v' }));
  const r = await h.put(`${CM}/a`, configMap('a', { k: 'w' }));
  assert.is(r.status, 200);
  assert.equal(r.json.data, { k: 'w' });
});

test('PUT that changes nothing stores nothing and keeps the resourceVersion', async () => {
  const h = await startServer();
  const created = (await h.post(CM, configMap('a'))).json;
  const before = h.revision();
  const r = await h.put(`${CM}/a`, created);
  assert.is(r.status, 200);
  assert.is(r.json.metadata.resourceVersion, created.metadata.resourceVersion);
  assert.is(h.revision(), before);
});

test('PUT whose body names another object answers 400', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.put(`${CM}/a`, configMap('b'));
  assert.is(r.status, 400);
  assert.is(r.json.message, 'the name of the object (b) does not match the name on the URL (a)');
});

test('PUT on a missing lease creates it and answers 201', async () => {
  const h = await startServer();
  const r = await h.put(`${LEASES}/leader`, lease('leader'));
  assert.is(r.status, 201);
  assert.is(r.json.metadata.name, 'leader');
  assert.ok(r.json.metadata.uid);
  assert.is((await h.get(`${LEASES}/leader`)).status, 200);
  const again = await h.put(`${LEASES}/leader`, lease('leader', 'b'));
  assert.is(again.status, 200);
  assert.is(again.json.spec.holderIdentity, 'b');
});

test('PUT on a missing config map answers 404 and creates nothing', async () => {
  const h = await startServer();
  const before = h.revision();
  const r = await h.put(`${CM}/missing`, configMap('missing'));
  assert.is(r.status, 404);
  assert.is(r.json.reason, 'NotFound');
  assert.is(r.json.message, 'configmaps "missing" not found');
  assert.is(h.revision(), before);
});

test('a merge patch changes the fields it names and answers 200', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v', drop: 'x' }));
  const r = await h.patch(`${CM}/a`, { data: { k: 'w', drop: null } }, MERGE);
  assert.is(r.status, 200);
  assert.equal(r.json.data, { k: 'w' });
});

test('a JSON patch applies its operations in order', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v' }));
  const r = await h.patch(`${CM}/a`, [{ op: 'add', path: '/data/n', value: '1' }, { op: 'remove', path: '/data/k' }], JSON_PATCH);
  assert.is(r.status, 200);
  assert.equal(r.json.data, { n: '1' });
});

test('a strategic merge patch merges pod containers by name', async () => {
  const h = await startServer();
  await h.post('/api/v1/namespaces/default/pods', pod('p'));
  const r = await h.patch('/api/v1/namespaces/default/pods/p', { spec: { containers: [{ name: 'c', image: 'nginx:1.28' }] } }, STRATEGIC);
  assert.is(r.status, 200);
  assert.is(r.json.spec.containers.length, 1);
  assert.is(r.json.spec.containers[0].image, 'nginx:1.28');
  assert.is(r.json.spec.containers[0].imagePullPolicy, 'IfNotPresent');
});

test('a patch of a missing object answers 404', async () => {
  const h = await startServer();
  const r = await h.patch(`${CM}/missing`, { data: {} }, MERGE);
  assert.is(r.status, 404);
  assert.is(r.json.message, 'configmaps "missing" not found');
});

test('a patch in a media type that is not a patch type answers 415 listing the patch types', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.patch(`${CM}/a`, { data: {} }, 'application/json');
  assert.is(r.status, 415);
  assert.is(r.json.reason, 'UnsupportedMediaType');
  assert.match(r.json.message, 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml');
});

test('server-side apply creates with 201, updates with 200, and records the manager', async () => {
  const h = await startServer();
  const created = await h.patch(`${CM}/a?fieldManager=alice`, configMap('a', { k: 'v' }), APPLY);
  assert.is(created.status, 201);
  assert.equal(created.json.metadata.managedFields.map((m: any) => [m.manager, m.operation]), [['alice', 'Apply']]);
  const updated = await h.patch(`${CM}/a?fieldManager=alice`, configMap('a', { k: 'w' }), APPLY);
  assert.is(updated.status, 200);
  assert.equal(updated.json.data, { k: 'w' });
});

test('server-side apply by a second manager conflicts with 409 FieldManagerConflict causes, and force takes the field over', async () => {
  const h = await startServer();
  await h.patch(`${CM}/a?fieldManager=alice`, configMap('a', { k: 'v' }), APPLY);
  const r = await h.patch(`${CM}/a?fieldManager=bob`, configMap('a', { k: 'w' }), APPLY);
  assert.is(r.status, 409);
  assert.is(r.json.reason, 'Conflict');
  assert.is(r.json.message, 'Apply failed with 1 conflict: conflict with "alice": .data.k');
  assert.equal(r.json.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.k' }]);
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: 'v' });
  const forced = await h.patch(`${CM}/a?fieldManager=bob&force=true`, configMap('a', { k: 'w' }), APPLY);
  assert.is(forced.status, 200);
  assert.equal(forced.json.data, { k: 'w' });
  assert.equal(forced.json.metadata.managedFields.map((m: any) => m.manager), ['bob']);
});

test('an apply patch without fieldManager answers 422 Invalid on PatchOptions', async () => {
  const h = await startServer();
  const r = await h.patch(`${CM}/a`, configMap('a'), APPLY);
  assert.is(r.status, 422);
  assert.is(r.json.reason, 'Invalid');
  assert.is(r.json.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  assert.equal(r.json.details.group, 'meta.k8s.io');
  assert.equal(r.json.details.kind, 'PatchOptions');
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('force on a patch that is not an apply patch answers 422 Invalid on PatchOptions', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v' }));
  for (const [type, body] of [[MERGE, { data: { k: 'w' } }], [JSON_PATCH, []], [STRATEGIC, { data: { k: 'w' } }]] as const) {
    const r = await h.patch(`${CM}/a?force=true`, body, type);
    assert.is(r.status, 422, type);
    assert.is(r.json.message, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  }
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: 'v' });
});

test('the field manager of a write defaults to the User-Agent product name', async () => {
  const h = await startServer();
  const r = await h.post(CM, configMap('a'), { 'user-agent': 'kubectl/v1.32.4 (linux/amd64) kubernetes/abc' });
  assert.equal(r.json.metadata.managedFields.map((m: any) => m.manager), ['kubectl']);
  const named = await h.post(`${CM}?fieldManager=kubectl-create`, configMap('b'));
  assert.equal(named.json.metadata.managedFields.map((m: any) => m.manager), ['kubectl-create']);
});

test.run();
