// Deletion in two phases (deletionTimestamp, then removal once no finalizer holds the object),
// graceful pod deletion, and where delete options come from.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, JSON_PATCH, MERGE, pod, startServer } from '../../../helpers/in-process-server.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const held = (name: string, finalizers = ['example.com/a', 'example.com/b']) => ({ ...configMap(name), metadata: { name, finalizers } });
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

test('deleting an object without finalizers removes it and answers a success Status naming it', async () => {
  const h = await startServer();
  const created = (await h.post(CM, configMap('a'))).json;
  const r = await h.del(`${CM}/a`);
  assert.is(r.status, 200);
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
    details: { name: 'a', group: '', kind: 'configmaps', uid: created.metadata.uid } });
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('deleting a grouped object names its group in the success Status', async () => {
  const h = await startServer();
  await h.post('/apis/apps/v1/namespaces/default/controllerrevisions', { metadata: { name: 'r' }, revision: 1 });
  const r = await h.del('/apis/apps/v1/namespaces/default/controllerrevisions/r');
  assert.is(r.status, 200);
  assert.is(r.json.details.group, 'apps');
  assert.is(r.json.details.kind, 'controllerrevisions');
});

test('deleting a missing object answers 404', async () => {
  const h = await startServer();
  const r = await h.del(`${CM}/nope`);
  assert.is(r.status, 404);
  assert.is(r.json.message, 'configmaps "nope" not found');
});

test('a delete of an object with finalizers sets deletionTimestamp, keeps the object and answers it', async () => {
  const h = await startServer();
  await h.post(CM, held('f'));
  h.clock.advance(3_000);
  const r = await h.del(`${CM}/f`);
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'ConfigMap');
  assert.is(r.json.metadata.deletionTimestamp, iso(h.clock.now()));
  assert.is(r.json.metadata.deletionGracePeriodSeconds, 0);
  const got = await h.get(`${CM}/f`);
  assert.is(got.status, 200);
  assert.is(got.json.metadata.deletionTimestamp, r.json.metadata.deletionTimestamp);
  assert.equal(got.json.metadata.finalizers, ['example.com/a', 'example.com/b']);
});

test('a second delete of a terminating object changes nothing', async () => {
  const h = await startServer();
  await h.post(CM, held('f'));
  const first = (await h.del(`${CM}/f`)).json;
  const before = h.revision();
  h.clock.advance(10_000);
  const again = await h.del(`${CM}/f`);
  assert.is(again.status, 200);
  assert.is(again.json.metadata.deletionTimestamp, first.metadata.deletionTimestamp);
  assert.is(h.revision(), before);
});

test('removing finalizers one by one keeps the object until the last one goes, then removes it', async () => {
  const h = await startServer();
  await h.post(CM, held('f'));
  await h.del(`${CM}/f`);
  const one = await h.patch(`${CM}/f`, { metadata: { finalizers: ['example.com/b'] } }, MERGE);
  assert.is(one.status, 200);
  assert.equal(one.json.metadata.finalizers, ['example.com/b']);
  assert.is((await h.get(`${CM}/f`)).status, 200);
  const last = await h.patch(`${CM}/f`, [{ op: 'remove', path: '/metadata/finalizers' }], JSON_PATCH);
  assert.is(last.status, 200);
  assert.is((await h.get(`${CM}/f`)).status, 404);
  assert.equal((await h.get(CM)).json.items, []);
});

test('removing the last finalizer with PUT removes the object too', async () => {
  const h = await startServer();
  await h.post(CM, held('f', ['example.com/a']));
  const terminating = (await h.del(`${CM}/f`)).json;
  const r = await h.put(`${CM}/f`, { ...terminating, metadata: { ...terminating.metadata, finalizers: [] } });
  assert.is(r.status, 200);
  assert.is((await h.get(`${CM}/f`)).status, 404);
});

test('no new finalizer may be added once deletion began: 422 naming the new ones', async () => {
  const h = await startServer();
  await h.post(CM, held('f', ['example.com/a']));
  await h.del(`${CM}/f`);
  const r = await h.patch(`${CM}/f`, { metadata: { finalizers: ['example.com/a', 'example.com/new'] } }, MERGE);
  assert.is(r.status, 422);
  assert.is(r.json.reason, 'Invalid');
  assert.equal(r.json.details.causes, [{ reason: 'FieldValueForbidden', field: 'metadata.finalizers',
    message: 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}' }]);
  assert.equal((await h.get(`${CM}/f`)).json.metadata.finalizers, ['example.com/a']);
});

test('finalizers may be added freely before deletion', async () => {
  const h = await startServer();
  await h.post(CM, held('f', ['example.com/a']));
  const r = await h.patch(`${CM}/f`, { metadata: { finalizers: ['example.com/a', 'example.com/new'] } }, MERGE);
  assert.is(r.status, 200);
});

test('other fields of a terminating object can still change, and deletionTimestamp cannot be cleared', async () => {
  const h = await startServer();
  await h.post(CM, held('f', ['example.com/a']));
  const terminating = (await h.del(`${CM}/f`)).json;
  const r = await h.put(`${CM}/f`, { ...terminating, metadata: { ...terminating.metadata, deletionTimestamp: null, labels: { x: 'y' } }, data: { k: 'w' } });
  assert.is(r.status, 200);
  assert.equal(r.json.data, { k: 'w' });
  assert.is(r.json.metadata.deletionTimestamp, terminating.metadata.deletionTimestamp);
});

test('an unscheduled pod is deleted at once, and the answer is the pod', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const r = await h.del(`${PODS}/p`);
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'Pod');
  assert.is(r.json.metadata.name, 'p');
  assert.is((await h.get(`${PODS}/p`)).status, 404);
});

test('a pod bound to a node is deleted gracefully: 30 seconds by default, and it stays', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p', { nodeName: 'n1' }));
  const r = await h.del(`${PODS}/p`);
  assert.is(r.status, 200);
  assert.is(r.json.metadata.deletionGracePeriodSeconds, 30);
  assert.is(r.json.metadata.deletionTimestamp, iso(h.clock.now() + 30_000));
  h.clock.advance(60_000);
  assert.is((await h.get(`${PODS}/p`)).status, 200, 'the node agent removes it, not the clock');
});

test('a pod uses its terminationGracePeriodSeconds when the delete names none', async () => {
  const h = await startServer();
  const p = pod('p', { nodeName: 'n1' });
  await h.post(PODS, { ...p, spec: { ...p.spec, terminationGracePeriodSeconds: 7 } });
  const r = await h.del(`${PODS}/p`);
  assert.is(r.json.metadata.deletionGracePeriodSeconds, 7);
});

test('gracePeriodSeconds 0 removes a bound pod at once', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p', { nodeName: 'n1' }));
  const r = await h.del(`${PODS}/p`, { gracePeriodSeconds: 0 });
  assert.is(r.status, 200);
  assert.is((await h.get(`${PODS}/p`)).status, 404);
});

test('a later delete may only shorten the grace period, counted from the first request', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p', { nodeName: 'n1' }));
  const start = h.clock.now();
  await h.del(`${PODS}/p`);
  h.clock.advance(5_000);
  const shorter = await h.del(`${PODS}/p`, { gracePeriodSeconds: 10 });
  assert.is(shorter.json.metadata.deletionGracePeriodSeconds, 10);
  assert.is(shorter.json.metadata.deletionTimestamp, iso(start + 10_000));
  const longer = await h.del(`${PODS}/p`, { gracePeriodSeconds: 60 });
  assert.is(longer.json.metadata.deletionGracePeriodSeconds, 10);
  assert.is(longer.json.metadata.deletionTimestamp, iso(start + 10_000));
  await h.del(`${PODS}/p?gracePeriodSeconds=0`);
  assert.is((await h.get(`${PODS}/p`)).status, 404);
});

test('every propagationPolicy is accepted, from the body and from the query', async () => {
  const h = await startServer();
  for (const policy of ['Orphan', 'Background', 'Foreground']) {
    await h.post(CM, configMap(`body-${policy.toLowerCase()}`));
    const body = await h.del(`${CM}/body-${policy.toLowerCase()}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy });
    assert.is(body.status, 200, policy);
    await h.post(CM, configMap(`query-${policy.toLowerCase()}`));
    const query = await h.del(`${CM}/query-${policy.toLowerCase()}?propagationPolicy=${policy}`);
    assert.is(query.status, 200, policy);
  }
  // Orphan and Foreground keep the object for the garbage collector (deletion-propagation.test.ts).
  assert.equal((await h.get(CM)).json.items.map((i: any) => i.metadata.name), ['body-foreground', 'body-orphan', 'query-foreground', 'query-orphan']);
});

test('an unknown propagationPolicy answers 422 Invalid on DeleteOptions and deletes nothing', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  for (const r of [await h.del(`${CM}/a`, { propagationPolicy: 'Sideways' }), await h.del(`${CM}/a?propagationPolicy=Sideways`)]) {
    assert.is(r.status, 422);
    assert.is(r.json.reason, 'Invalid');
    assert.is(r.json.details.kind, 'DeleteOptions');
    assert.is(r.json.details.group, 'meta.k8s.io');
    assert.equal(r.json.details.causes, [{ reason: 'FieldValueNotSupported', field: 'propagationPolicy',
      message: 'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"' }]);
  }
  assert.is((await h.get(`${CM}/a`)).status, 200);
});

test('orphanDependents together with propagationPolicy answers 422', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.del(`${CM}/a`, { orphanDependents: true, propagationPolicy: 'Orphan' });
  assert.is(r.status, 422);
  assert.is(r.json.details.causes[0].field, 'propagationPolicy');
  assert.is((await h.get(`${CM}/a`)).status, 200);
});

test('delete options come from the body: dryRun in the body keeps the object', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const before = h.revision();
  const r = await h.del(`${CM}/a`, { dryRun: ['All'] });
  assert.is(r.status, 200);
  assert.is(r.json.status, 'Success');
  assert.is((await h.get(`${CM}/a`)).status, 200);
  assert.is(h.revision(), before);
});

test('delete options come from the query when the body is empty: dryRun=All keeps the object', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.del(`${CM}/a?dryRun=All`);
  assert.is(r.status, 200);
  assert.is((await h.get(`${CM}/a`)).status, 200);
});

test('a non-empty body wins over the query: the query dryRun is ignored and the object goes', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.del(`${CM}/a?dryRun=All`, { propagationPolicy: 'Background' });
  assert.is(r.status, 200);
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('a body dryRun wins over an invalid query dryRun, which is not even read', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.del(`${CM}/a?dryRun=Bogus`, { dryRun: ['All'] });
  assert.is(r.status, 200);
  assert.is((await h.get(`${CM}/a`)).status, 200);
});

test('gracePeriodSeconds in the query is honoured when the body is empty', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p', { nodeName: 'n1' }));
  const r = await h.del(`${PODS}/p?gracePeriodSeconds=5`);
  assert.is(r.json.metadata.deletionGracePeriodSeconds, 5);
});

test('a body that is not JSON answers 400 and deletes nothing', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.del(`${CM}/a`, 'not json');
  assert.is(r.status, 400);
  assert.is(r.json.reason, 'BadRequest');
  assert.is((await h.get(`${CM}/a`)).status, 200);
});

test('a uid precondition that does not match answers 409 and deletes nothing', async () => {
  const h = await startServer();
  const created = (await h.post(CM, configMap('a'))).json;
  const r = await h.del(`${CM}/a`, { preconditions: { uid: 'other' } });
  assert.is(r.status, 409);
  assert.is(r.json.message, `Operation cannot be fulfilled on configmaps "a": Precondition failed: UID in precondition: other, UID in object meta: ${created.metadata.uid}`);
  assert.is((await h.get(`${CM}/a`)).status, 200);
  const stale = await h.del(`${CM}/a`, { preconditions: { resourceVersion: '1' } });
  assert.is(stale.status, 409);
  const ok = await h.del(`${CM}/a`, { preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion } });
  assert.is(ok.status, 200);
});

test('deletecollection deletes what the label selector matches and answers the list of deleted objects', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', {}, { app: 'x' }));
  await h.post(CM, configMap('b', {}, { app: 'x' }));
  await h.post(CM, configMap('c', {}, { app: 'y' }));
  const r = await h.del(`${CM}?labelSelector=app%3Dx`);
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'ConfigMapList');
  assert.equal(r.json.items.map((i: any) => i.metadata.name), ['a', 'b']);
  assert.equal((await h.get(CM)).json.items.map((i: any) => i.metadata.name), ['c']);
});

test('deletecollection leaves objects with finalizers terminating', async () => {
  const h = await startServer();
  await h.post(CM, held('f'));
  await h.post(CM, configMap('g'));
  const r = await h.del(CM);
  assert.is(r.status, 200);
  const left = (await h.get(CM)).json.items;
  assert.equal(left.map((i: any) => i.metadata.name), ['f']);
  assert.ok(left[0].metadata.deletionTimestamp);
});

test.run();
