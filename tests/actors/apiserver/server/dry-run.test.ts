// Dry-run on create, update, patch, delete and deletecollection: every stage runs, the answer has
// the status code and shape of the real request, and the store's revision does not move.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APPLY, configMap, JSON_PATCH, MERGE, pod, startServer, STRATEGIC, type Harness, type Reply } from '../../../helpers/in-process-server.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';

/** The keys of a body, recursively for metadata, without the values generated per request. */
function shape(body: any): string[] {
  const meta = Object.keys(body.metadata ?? {}).filter((k) => k !== 'resourceVersion').sort();
  return [...Object.keys(body).sort(), ...meta.map((k) => `metadata.${k}`)];
}

/** Runs `request` dry first (the store must not move), then for real; both answers must agree in code and shape. */
async function compare(h: Harness, request: (dry: string) => Promise<Reply>): Promise<{ dry: Reply; real: Reply }> {
  const before = h.revision();
  const dry = await request('dryRun=All');
  assert.is(h.revision(), before, 'a dry run stores nothing');
  const real = await request('');
  assert.is(dry.status, real.status);
  assert.equal(shape(dry.json), shape(real.json));
  return { dry, real };
}

test('a dry-run create answers 201 with the would-be object and stores nothing', async () => {
  const h = await startServer();
  const before = h.revision();
  const r = await h.post(`${CM}?dryRun=All`, configMap('a', { k: 'v' }));
  assert.is(r.status, 201);
  assert.is(r.json.metadata.name, 'a');
  assert.ok(r.json.metadata.uid);
  assert.ok(r.json.metadata.creationTimestamp);
  assert.equal(r.json.data, { k: 'v' });
  assert.is(h.revision(), before);
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('a bare dryRun parameter means All', async () => {
  const h = await startServer();
  const before = h.revision();
  const r = await h.post(`${CM}?dryRun`, configMap('a'));
  assert.is(r.status, 201);
  assert.is(h.revision(), before);
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('a dry-run create has the code and shape of the real one, defaults and admission included', async () => {
  const h = await startServer();
  const { dry, real } = await compare(h, (q) => h.post(`${PODS}?${q}`, pod('p')));
  assert.is(dry.status, 201);
  assert.equal(dry.json.spec, real.json.spec, 'defaulting and mutating admission ran');
  assert.equal(dry.json.status, real.json.status);
});

test('a dry-run create with generateName answers a generated name and stores nothing', async () => {
  const h = await startServer();
  const r = await h.post(`${CM}?dryRun=All`, { metadata: { generateName: 'gen-' }, data: {} });
  assert.is(r.status, 201);
  assert.match(r.json.metadata.name, /^gen-.{5}$/);
  assert.equal((await h.get(CM)).json.items, []);
});

test('a dry-run create of a name that exists answers 409 AlreadyExists, as the real one would', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const before = h.revision();
  const r = await h.post(`${CM}?dryRun=All`, configMap('a'));
  assert.is(r.status, 409);
  assert.is(r.json.reason, 'AlreadyExists');
  assert.is(r.json.message, 'configmaps "a" already exists');
  assert.is(h.revision(), before);
});

test('a dry-run create runs validation: an invalid object answers 422', async () => {
  const h = await startServer();
  const r = await h.post(`${PODS}?dryRun=All`, { metadata: { name: 'p' }, spec: {} });
  assert.is(r.status, 422);
});

test('a dry-run create runs admission: a namespace that does not exist answers 404', async () => {
  const h = await startServer();
  const r = await h.post('/api/v1/namespaces/ghost/configmaps?dryRun=All', configMap('a'));
  assert.is(r.status, 404);
  assert.is(r.json.message, 'namespaces "ghost" not found');
});

test('an unsupported dryRun value answers 422 on the options kind', async () => {
  const h = await startServer();
  const r = await h.post(`${CM}?dryRun=Yes`, configMap('a'));
  assert.is(r.status, 422);
  assert.is(r.json.message, 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Yes"}: supported values: "All"');
  assert.is((await h.get(`${CM}/a`)).status, 404);
});

test('a dry-run update answers 200 with the updated object and leaves the stored one alone', async () => {
  const h = await startServer();
  const created = (await h.post(CM, configMap('a', { k: 'v' }))).json;
  const { dry } = await compare(h, (q) => h.put(`${CM}/a?${q}`, { ...created, data: { k: 'w' } }));
  assert.is(dry.status, 200);
  assert.equal(dry.json.data, { k: 'w' });
});

test('a dry-run update with a stale resourceVersion answers 409 like the real one', async () => {
  const h = await startServer();
  const created = (await h.post(CM, configMap('a', { k: 'v' }))).json;
  await h.put(`${CM}/a`, { ...created, data: { k: 'w' } });
  const r = await h.put(`${CM}/a?dryRun=All`, { ...created, data: { k: 'x' } });
  assert.is(r.status, 409);
  assert.is(r.json.reason, 'Conflict');
});

test('a dry-run PUT on a missing lease answers 201 and creates nothing', async () => {
  const h = await startServer();
  const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: {} };
  const path = '/apis/coordination.k8s.io/v1/namespaces/default/leases/l';
  const before = h.revision();
  const r = await h.put(`${path}?dryRun=All`, lease);
  assert.is(r.status, 201);
  assert.is(h.revision(), before);
  assert.is((await h.get(path)).status, 404);
});

test('dry-run patches of every type answer 200 with the patched object and change nothing', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v' }));
  const stored = (await h.get(`${CM}/a`)).json;
  const before = h.revision();
  const merge = await h.patch(`${CM}/a?dryRun=All`, { data: { k: 'm' } }, MERGE);
  const json = await h.patch(`${CM}/a?dryRun=All`, [{ op: 'replace', path: '/data/k', value: 'j' }], JSON_PATCH);
  const strategic = await h.patch(`${CM}/a?dryRun=All`, { data: { k: 's' } }, STRATEGIC);
  assert.equal([merge.status, json.status, strategic.status], [200, 200, 200]);
  assert.equal([merge.json.data.k, json.json.data.k, strategic.json.data.k], ['m', 'j', 's']);
  assert.is(h.revision(), before);
  assert.equal((await h.get(`${CM}/a`)).json, stored);
});

test('a dry-run patch has the code and shape of the real one', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v' }));
  await compare(h, (q) => h.patch(`${CM}/a?${q}`, { data: { k: 'w' } }, MERGE));
});

test('a dry-run apply answers 201 for a new object and 200 for an existing one, storing nothing', async () => {
  const h = await startServer();
  const before = h.revision();
  const create = await h.patch(`${CM}/a?fieldManager=m&dryRun=All`, configMap('a'), APPLY);
  assert.is(create.status, 201);
  assert.is(h.revision(), before);
  assert.is((await h.get(`${CM}/a`)).status, 404);
  await h.patch(`${CM}/a?fieldManager=m`, configMap('a', { k: 'v' }), APPLY);
  const after = h.revision();
  const update = await h.patch(`${CM}/a?fieldManager=m&dryRun=All`, configMap('a', { k: 'w' }), APPLY);
  assert.is(update.status, 200);
  assert.equal(update.json.data, { k: 'w' });
  assert.is(h.revision(), after);
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: 'v' });
});

test('a dry-run delete answers the same success Status as the real one and keeps the object', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const before = h.revision();
  const dry = await h.del(`${CM}/a?dryRun=All`);
  assert.is(h.revision(), before);
  assert.is((await h.get(`${CM}/a`)).status, 200);
  const real = await h.del(`${CM}/a`);
  assert.is(dry.status, real.status);
  assert.equal(dry.json, real.json);
});

test('a dry-run delete of a pod answers the pod, like the real one', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const { dry } = await compare(h, (q) => h.del(`${PODS}/p?${q}`));
  assert.is(dry.json.kind, 'Pod');
});

test('a dry-run delete of a held object answers it with a deletionTimestamp but stores none', async () => {
  const h = await startServer();
  await h.post(CM, { ...configMap('f'), metadata: { name: 'f', finalizers: ['example.com/a'] } });
  const r = await h.del(`${CM}/f`, { dryRun: ['All'] });
  assert.is(r.status, 200);
  assert.ok(r.json.metadata.deletionTimestamp);
  assert.is((await h.get(`${CM}/f`)).json.metadata.deletionTimestamp, undefined);
});

test('a dry-run delete of a missing object answers 404', async () => {
  const h = await startServer();
  const r = await h.del(`${CM}/nope?dryRun=All`);
  assert.is(r.status, 404);
});

test('a dry-run deletecollection answers the list the real one would delete and deletes nothing', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', {}, { app: 'x' }));
  await h.post(CM, configMap('b', {}, { app: 'x' }));
  await h.post(CM, configMap('c', {}, { app: 'y' }));
  const before = h.revision();
  const dry = await h.del(`${CM}?labelSelector=app%3Dx&dryRun=All`);
  assert.is(h.revision(), before);
  assert.equal((await h.get(CM)).json.items.map((i: any) => i.metadata.name), ['a', 'b', 'c']);
  const real = await h.del(`${CM}?labelSelector=app%3Dx`);
  assert.is(dry.status, real.status);
  assert.is(dry.json.kind, 'ConfigMapList');
  assert.equal(dry.json.items.map((i: any) => i.metadata.name), real.json.items.map((i: any) => i.metadata.name));
});

test('a dry-run eviction answers 201 and leaves the pod', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p'));
  const before = h.revision();
  const r = await h.post(`${PODS}/p/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' }, deleteOptions: { dryRun: ['All'] } });
  assert.is(r.status, 201);
  assert.is(h.revision(), before);
  assert.is((await h.get(`${PODS}/p`)).status, 200);
});

test.run();
