// What a delete's propagation policy does on the API server (no garbage collector runs here):
// Orphan and Foreground keep the object terminating with the `orphan` or `foregroundDeletion`
// finalizer and answer it; Background (or no policy) removes it at once; a later delete may swap or
// drop those finalizers, except while a pod's grace period runs; events are never held this way.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, JSON_PATCH, MERGE, pod, startServer } from '../../../helpers/in-process-server.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const RS = '/apis/apps/v1/namespaces/default/replicasets';
const EVENTS = '/api/v1/namespaces/default/events';
const held = (name: string, finalizers: string[]) => ({ ...configMap(name), metadata: { name, finalizers } });
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const replicaSet = (name: string) => ({ metadata: { name }, spec: { replicas: 0, selector: { matchLabels: { app: name } },
  template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });

test('Orphan keeps the object with the orphan finalizer and answers 200 with it', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  h.clock.advance(2_000);
  const r = await h.del(`${CM}/a`, { propagationPolicy: 'Orphan' });
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'ConfigMap');
  assert.equal(r.json.metadata.finalizers, ['orphan']);
  assert.is(r.json.metadata.deletionTimestamp, iso(h.clock.now()));
  assert.is(r.json.metadata.deletionGracePeriodSeconds, 0);
  const got = (await h.get(`${CM}/a`)).json;
  assert.equal(got.metadata.finalizers, ['orphan']);
  assert.is(got.metadata.resourceVersion, r.json.metadata.resourceVersion);
});

test('Foreground keeps the object with the foregroundDeletion finalizer, after the finalizers it had', async () => {
  const h = await startServer();
  await h.post(CM, held('a', ['example.com/a']));
  const r = await h.del(`${CM}/a`, { propagationPolicy: 'Foreground' });
  assert.is(r.status, 200);
  assert.equal(r.json.metadata.finalizers, ['example.com/a', 'foregroundDeletion']);
  assert.ok(r.json.metadata.deletionTimestamp);
  assert.equal((await h.get(`${CM}/a`)).json.metadata.finalizers, ['example.com/a', 'foregroundDeletion']);
});

test('the query carries the policy when the body is empty', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.del(`${CM}/a?propagationPolicy=Foreground`);
  assert.equal(r.json.metadata.finalizers, ['foregroundDeletion']);
  await h.post(CM, configMap('b'));
  const o = await h.del(`${CM}/b?orphanDependents=true`);
  assert.equal(o.json.metadata.finalizers, ['orphan']);
});

test('Background removes the object at once and answers a success Status', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.del(`${CM}/a`, { propagationPolicy: 'Background' });
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'Status');
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('orphanDependents=true orphans; orphanDependents=false on a kept object answers 202 with it', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const orphan = await h.del(`${CM}/a`, { orphanDependents: true });
  assert.is(orphan.status, 200);
  assert.equal(orphan.json.metadata.finalizers, ['orphan']);
  await h.post(CM, held('b', ['example.com/a']));
  const cascade = await h.del(`${CM}/b`, { orphanDependents: false });
  assert.is(cascade.status, 202, 'not deleted at once, and the request asked for cascading deletion');
  assert.is(cascade.json.kind, 'ConfigMap');
  assert.equal(cascade.json.metadata.finalizers, ['example.com/a']);
});

test('orphanDependents=false on an object nothing holds removes it: 200 and a Status', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.del(`${CM}/a`, { orphanDependents: false });
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'Status');
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('Foreground answers 200, not 202: only orphanDependents=false asks for 202', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  assert.is((await h.del(`${CM}/a`, { propagationPolicy: 'Foreground' })).status, 200);
});

test('a later delete swaps one policy finalizer for the other and keeps the deletionTimestamp', async () => {
  const h = await startServer();
  await h.post(CM, held('a', ['example.com/a']));
  const first = (await h.del(`${CM}/a`, { propagationPolicy: 'Orphan' })).json;
  h.clock.advance(5_000);
  const fg = await h.del(`${CM}/a`, { propagationPolicy: 'Foreground' });
  assert.is(fg.status, 200);
  assert.equal(fg.json.metadata.finalizers, ['example.com/a', 'foregroundDeletion']);
  assert.is(fg.json.metadata.deletionTimestamp, first.metadata.deletionTimestamp);
  const back = await h.del(`${CM}/a`, { orphanDependents: true });
  assert.equal(back.json.metadata.finalizers, ['example.com/a', 'orphan']);
  assert.equal((await h.get(`${CM}/a`)).json.metadata.finalizers, ['example.com/a', 'orphan']);
});

test('a later delete without a policy keeps the finalizer an earlier one left, and writes nothing', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  await h.del(`${CM}/a`, { propagationPolicy: 'Orphan' });
  const before = h.revision();
  const again = await h.del(`${CM}/a`);
  assert.is(again.status, 200);
  assert.equal(again.json.metadata.finalizers, ['orphan']);
  assert.is(h.revision(), before);
});

test('a later Background delete takes the policy finalizer off: with none left the object goes at once', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  await h.del(`${CM}/a`, { propagationPolicy: 'Foreground' });
  const r = await h.del(`${CM}/a`, { propagationPolicy: 'Background' });
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'Status');
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('a later Background delete keeps the object while other finalizers hold it', async () => {
  const h = await startServer();
  await h.post(CM, held('a', ['example.com/a']));
  await h.del(`${CM}/a`, { propagationPolicy: 'Orphan' });
  const r = await h.del(`${CM}/a`, { propagationPolicy: 'Background' });
  assert.equal(r.json.metadata.finalizers, ['example.com/a']);
  assert.is((await h.get(`${CM}/a`)).status, 200);
});

test('removing the orphan finalizer, as the garbage collector does, removes the object', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  await h.del(`${CM}/a`, { propagationPolicy: 'Orphan' });
  const r = await h.patch(`${CM}/a`, [{ op: 'remove', path: '/metadata/finalizers' }], JSON_PATCH);
  assert.is(r.status, 200);
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('the policy finalizers may not be added back by an update once deletion began', async () => {
  const h = await startServer();
  await h.post(CM, held('a', ['example.com/a']));
  await h.del(`${CM}/a`);
  const r = await h.patch(`${CM}/a`, { metadata: { finalizers: ['example.com/a', 'orphan'] } }, MERGE);
  assert.is(r.status, 422);
});

test('a dry run shows the finalizer and stores nothing', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const before = h.revision();
  const r = await h.del(`${CM}/a`, { propagationPolicy: 'Orphan', dryRun: ['All'] });
  assert.is(r.status, 200);
  assert.equal(r.json.metadata.finalizers, ['orphan']);
  assert.is(h.revision(), before);
  const got = (await h.get(`${CM}/a`)).json;
  assert.is(got.metadata.finalizers, undefined);
  assert.is(got.metadata.deletionTimestamp, undefined);
});

test('a workload held for its dependents gets a new generation, as any object marked for deletion', async () => {
  const h = await startServer();
  const created = (await h.post(RS, replicaSet('web'))).json;
  const r = await h.del(`${RS}/web`, { propagationPolicy: 'Foreground' });
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'ReplicaSet');
  assert.equal(r.json.metadata.finalizers, ['foregroundDeletion']);
  assert.is(r.json.metadata.generation, created.metadata.generation + 1);
});

test('events are never garbage collected: Orphan and Foreground remove them at once', async () => {
  const h = await startServer();
  for (const policy of ['Orphan', 'Foreground']) {
    const name = `e-${policy.toLowerCase()}`;
    await h.post(EVENTS, { metadata: { name }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm' });
    const r = await h.del(`${EVENTS}/${name}`, { propagationPolicy: policy });
    assert.is(r.json.kind, 'Status', policy);
    assert.is((await h.get(`${EVENTS}/${name}`)).status, 404, policy);
  }
});

test('an unscheduled pod deleted with Orphan stays for the garbage collector, and the answer is the pod', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const r = await h.del(`${PODS}/p`, { propagationPolicy: 'Orphan' });
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'Pod');
  assert.equal(r.json.metadata.finalizers, ['orphan']);
  assert.is(r.json.metadata.deletionGracePeriodSeconds, 0);
  assert.is((await h.get(`${PODS}/p`)).status, 200);
});

test('while a pod\'s grace period runs a later delete leaves its finalizers; one that shortens the period may change them', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p', { nodeName: 'n1' }));
  const first = await h.del(`${PODS}/p`, { propagationPolicy: 'Orphan' });
  assert.equal(first.json.metadata.finalizers, ['orphan']);
  assert.is(first.json.metadata.deletionGracePeriodSeconds, 30);
  const pending = await h.del(`${PODS}/p`, { propagationPolicy: 'Foreground' });
  assert.equal(pending.json.metadata.finalizers, ['orphan'], 'the graceful deletion is under way');
  const shorter = await h.del(`${PODS}/p`, { propagationPolicy: 'Foreground', gracePeriodSeconds: 10 });
  assert.equal(shorter.json.metadata.finalizers, ['foregroundDeletion']);
  assert.is(shorter.json.metadata.deletionGracePeriodSeconds, 10);
  // The node agent's final delete (grace 0) leaves the pod to its finalizer.
  const last = await h.del(`${PODS}/p`, { gracePeriodSeconds: 0 });
  assert.equal(last.json.metadata.finalizers, ['foregroundDeletion']);
  assert.is((await h.get(`${PODS}/p`)).status, 200);
});

test('deletecollection applies the policy to each object and answers them', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', {}, { app: 'x' }));
  await h.post(CM, held('b', ['example.com/a']));
  await h.post(CM, configMap('c', {}, { app: 'y' }));
  const r = await h.del(CM, { propagationPolicy: 'Orphan' });
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'ConfigMapList');
  assert.equal(r.json.items.map((i: any) => i.metadata.finalizers), [['orphan'], ['example.com/a', 'orphan'], ['orphan']]);
  const left = (await h.get(CM)).json.items;
  assert.equal(left.map((i: any) => i.metadata.name), ['a', 'b', 'c']);
  assert.ok(left.every((i: any) => i.metadata.deletionTimestamp));
  const fg = await h.del(`${CM}?labelSelector=app%3Dx`, { propagationPolicy: 'Foreground' });
  assert.equal(fg.json.items.map((i: any) => [i.metadata.name, i.metadata.finalizers]), [['a', ['foregroundDeletion']]]);
  const bg = await h.del(`${CM}?propagationPolicy=Background`);
  assert.is(bg.status, 200);
  assert.equal((await h.get(CM)).json.items.map((i: any) => [i.metadata.name, i.metadata.finalizers]), [['b', ['example.com/a']]]);
});

test.run();
