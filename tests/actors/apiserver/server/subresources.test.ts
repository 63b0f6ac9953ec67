// Subresources: status (which splits an object's writes), a pod's binding and eviction (with
// PodDisruptionBudgets), and a namespace's finalize.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, headerValues, MERGE, pod, startServer, type Harness } from '../../../helpers/in-process-server.ts';

const PODS = '/api/v1/namespaces/default/pods';
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const binding = (pod: string, node: string) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name: pod }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
const eviction = (name: string, deleteOptions: object = {}) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' }, deleteOptions });

async function runningPod(h: Harness, name: string, labels: Record<string, string> = { app: 'web' }) {
  await h.post(PODS, pod(name, { labels, nodeName: 'n1' }));
  const current = (await h.get(`${PODS}/${name}`)).json;
  await h.put(`${PODS}/${name}/status`, { ...current, status: { ...current.status, phase: 'Running' } });
}

/** A budget over app=web whose status the disruption controller has computed. */
async function budget(h: Harness, disruptionsAllowed: number, healthy = { desiredHealthy: 1, currentHealthy: 1 }) {
  const created = (await h.post(PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } })).json;
  const r = await h.put(`${PDBS}/web/status`, { ...created, status: { observedGeneration: created.metadata.generation, disruptionsAllowed,
    expectedPods: 2, ...healthy } });
  assert.is(r.status, 200);
}

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

test('an eviction without a budget deletes the pod and answers 201 Success', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  const r = await h.post(`${PODS}/p/eviction`, eviction('p'));
  assert.is(r.status, 201);
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  const after = await h.get(`${PODS}/p`);
  assert.is(after.status, 200, 'a pod on a node terminates gracefully');
  assert.ok(after.json.metadata.deletionTimestamp);
});

test('an eviction honours the grace period of its delete options', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await h.post(`${PODS}/p/eviction`, eviction('p', { gracePeriodSeconds: 0 }));
  assert.is((await h.get(`${PODS}/p`)).status, 404);
});

test('an eviction of a missing pod answers 404', async () => {
  const h = await startServer();
  const r = await h.post(`${PODS}/nope/eviction`, eviction('nope'));
  assert.is(r.status, 404);
  assert.is(r.json.message, 'pods "nope" not found');
});

test('an eviction that would violate the budget answers 429 with a DisruptionBudget cause and Retry-After', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await budget(h, 0, { desiredHealthy: 2, currentHealthy: 1 });
  const r = await h.post(`${PODS}/p/eviction`, eviction('p'));
  assert.is(r.status, 429);
  assert.is(r.json.code, 429);
  assert.is(r.json.reason, 'TooManyRequests');
  assert.is(r.json.message, "Cannot evict pod as it would violate the pod's disruption budget.");
  assert.equal(r.json.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 1 currently' }]);
  assert.is(r.json.details.retryAfterSeconds, 10);
  assert.equal(headerValues(r, 'retry-after'), ['10']);
  assert.is((await h.get(`${PODS}/p`)).json.metadata.deletionTimestamp, undefined);
});

test('an eviction against a budget the controller has not processed yet answers 429', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await h.post(PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
  const r = await h.post(`${PODS}/p/eviction`, eviction('p'));
  assert.is(r.status, 429);
  assert.equal(r.json.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' }]);
});

test('an eviction the budget allows spends one disruption and records the pod', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await runningPod(h, 'q');
  await budget(h, 1);
  assert.is((await h.post(`${PODS}/p/eviction`, eviction('p'))).status, 201);
  const pdb = (await h.get(`${PDBS}/web`)).json;
  assert.is(pdb.status.disruptionsAllowed, 0);
  assert.ok(pdb.status.disruptedPods.p);
  const second = await h.post(`${PODS}/q/eviction`, eviction('q'));
  assert.is(second.status, 429);
});

test('a pod the budget does not select, or one not running, is evicted despite the budget', async () => {
  const h = await startServer();
  await budget(h, 0);
  await runningPod(h, 'other', { app: 'db' });
  assert.is((await h.post(`${PODS}/other/eviction`, eviction('other'))).status, 201);
  await h.post(PODS, pod('pending', { labels: { app: 'web' } }));
  assert.is((await h.post(`${PODS}/pending/eviction`, eviction('pending'))).status, 201);
  assert.is((await h.get(`${PODS}/pending`)).status, 404);
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
