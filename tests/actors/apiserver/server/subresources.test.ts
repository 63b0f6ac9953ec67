// Subresources: status (which splits an object's writes), a pod's binding (its eviction:
// eviction.test.ts), and a namespace's finalize.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, MERGE, pod, startServer } from '../../../helpers/in-process-server.ts';

const PODS = '/api/v1/namespaces/default/pods';
const binding = (pod: string, node: string) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name: pod }, target: { apiVersion: 'v1', kind: 'Node', name: node } });

test('GET of the status subresource answers the whole object', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const r = await h.get(`${PODS}/p/status`);
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'Pod');
  assert.is(r.json.status.phase, 'Pending');
});

test('PUT on status changes the status only, whatever else the body says', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const current = (await h.get(`${PODS}/p`)).json;
  const r = await h.put(`${PODS}/p/status`, { ...current, metadata: { ...current.metadata, labels: { x: 'y' } },
    spec: { ...current.spec, containers: [{ name: 'c', image: 'other' }] }, status: { phase: 'Running', podIP: '10.0.0.5' } });
  assert.is(r.status, 200);
  assert.is(r.json.status.phase, 'Running');
  assert.is(r.json.status.podIP, '10.0.0.5');
  assert.is(r.json.spec.containers[0].image, 'nginx:1.27');
  assert.is(r.json.metadata.labels, undefined);
});

test('a write to the main resource ignores status', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const current = (await h.get(`${PODS}/p`)).json;
  const before = h.revision();
  const r = await h.put(`${PODS}/p`, { ...current, status: { phase: 'Failed' } });
  assert.is(r.status, 200);
  assert.is(r.json.status.phase, 'Pending');
  assert.is(h.revision(), before, 'nothing else changed, so nothing was written');
});

test('a merge patch on status changes the status only', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const r = await h.patch(`${PODS}/p/status`, { metadata: { labels: { x: 'y' } }, status: { phase: 'Succeeded' } }, MERGE);
  assert.is(r.status, 200);
  assert.is(r.json.status.phase, 'Succeeded');
  assert.is(r.json.metadata.labels, undefined);
});

test('status of a missing object answers 404, and a type without status has no such path', async () => {
  const h = await startServer();
  const missing = await h.put(`${PODS}/nope/status`, { ...pod('nope'), status: { phase: 'Running' } });
  assert.is(missing.status, 404);
  assert.is(missing.json.message, 'pods "nope" not found');
  await h.post('/api/v1/namespaces/default/configmaps', configMap('a'));
  const none = await h.get('/api/v1/namespaces/default/configmaps/a/status');
  assert.is(none.status, 404);
  assert.is(none.json.message, 'the server could not find the requested resource');
});

test('a verb the subresource does not serve answers 405', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const r = await h.del(`${PODS}/p/status`);
  assert.is(r.status, 405);
  assert.is(r.json.reason, 'MethodNotAllowed');
  assert.is((await h.get(`${PODS}/p/binding`)).status, 405);
  assert.is((await h.get(`${PODS}/p/eviction`)).status, 405);
});

test('a binding assigns the node, marks the pod scheduled and answers 201 Success', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const r = await h.post(`${PODS}/p/binding`, binding('p', 'n1'));
  assert.is(r.status, 201);
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  const bound = (await h.get(`${PODS}/p`)).json;
  assert.is(bound.spec.nodeName, 'n1');
  const scheduled = bound.status.conditions.find((c: any) => c.type === 'PodScheduled');
  assert.is(scheduled.status, 'True');
});

test('a second binding answers 409 Conflict naming the node already assigned', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  await h.post(`${PODS}/p/binding`, binding('p', 'n1'));
  const r = await h.post(`${PODS}/p/binding`, binding('p', 'n2'));
  assert.is(r.status, 409);
  assert.is(r.json.message, 'Operation cannot be fulfilled on pods "p": pod p is already assigned to node "n1"');
  assert.is((await h.get(`${PODS}/p`)).json.spec.nodeName, 'n1');
});

test('a binding goes straight to storage: no managed-fields entry, and a uid that is not the pod\'s answers 409', async () => {
  const h = await startServer();
  const created = (await h.post(PODS, pod('p'))).json;
  const stale = await h.post(`${PODS}/p/binding`, { ...binding('p', 'n1'), metadata: { name: 'p', uid: 'not-the-pod' } });
  assert.is(stale.status, 409);
  assert.match(stale.json.message, 'Precondition failed: UID in precondition: not-the-pod');
  assert.is((await h.post(`${PODS}/p/binding`, { ...binding('p', 'n1'), metadata: { name: 'p', uid: created.metadata.uid } })).status, 201);
  const bound = (await h.get(`${PODS}/p`)).json;
  assert.is(bound.spec.nodeName, 'n1');
  assert.equal(bound.metadata.managedFields, created.metadata.managedFields, 'as in the real server, binding records no field manager');
  assert.ok(Number(bound.metadata.resourceVersion) > Number(created.metadata.resourceVersion));
});

test('a binding without a target node answers 422, and one for a missing pod 404', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const noTarget = await h.post(`${PODS}/p/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: {} });
  assert.is(noTarget.status, 422);
  assert.is(noTarget.json.details.causes[0].field, 'target.name');
  const missing = await h.post(`${PODS}/nope/binding`, binding('nope', 'n1'));
  assert.is(missing.status, 404);
});

test('deleting a namespace makes it Terminating until finalize empties spec.finalizers, and refuses new content meanwhile', async () => {
  const h = await startServer();
  await h.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  const deleted = await h.del('/api/v1/namespaces/team');
  assert.is(deleted.status, 200);
  assert.is(deleted.json.status.phase, 'Terminating');
  assert.ok(deleted.json.metadata.deletionTimestamp);
  assert.equal(deleted.json.spec.finalizers, ['kubernetes']);
  const refused = await h.post('/api/v1/namespaces/team/configmaps', configMap('x'));
  assert.is(refused.status, 403);
  assert.is(refused.json.message, 'configmaps "x" is forbidden: unable to create new content in namespace team because it is being terminated');
  assert.equal(refused.json.details.causes, [{ reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' }]);
  const ns = (await h.get('/api/v1/namespaces/team')).json;
  const finalized = await h.put('/api/v1/namespaces/team/finalize', { ...ns, spec: { finalizers: [] } });
  assert.is(finalized.status, 200);
  assert.is((await h.get('/api/v1/namespaces/team')).status, 404);
});

test('finalize changes spec.finalizers only', async () => {
  const h = await startServer();
  await h.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  const ns = (await h.get('/api/v1/namespaces/team')).json;
  const r = await h.put('/api/v1/namespaces/team/finalize', { ...ns, metadata: { ...ns.metadata, labels: { x: 'y' } }, spec: { finalizers: ['example.com/keep'] } });
  assert.is(r.status, 200);
  assert.equal(r.json.spec.finalizers, ['example.com/keep']);
  assert.is(r.json.metadata.labels.x, undefined);
});

test('a namespace status can be read and written through its status subresource', async () => {
  const h = await startServer();
  const r = await h.get('/api/v1/namespaces/default/status');
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'Namespace');
  assert.is(r.json.status.phase, 'Active');
  const patched = await h.patch('/api/v1/namespaces/default/status', { status: { conditions: [{ type: 'Example', status: 'True' }] } }, MERGE);
  assert.is(patched.status, 200);
  assert.is(patched.json.status.conditions[0].type, 'Example');
});

test.run();
