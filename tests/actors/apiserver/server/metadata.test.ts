// Object metadata as seed 000 sets it: generateName, the server-set uid, creationTimestamp and
// resourceVersion, names unique per scope and reusable, and optimistic concurrency on updates.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, MERGE, startServer } from '../../../helpers/in-process-server.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const NODES = '/api/v1/nodes';
const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
const deployment = (name: string, image = 'nginx:1.27') => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } } },
});

test('generateName gives a name of the prefix and five random characters, different on each create', async () => {
  const h = await startServer();
  const a = await h.post(CM, { metadata: { generateName: 'web-' }, data: {} });
  const b = await h.post(CM, { metadata: { generateName: 'web-' }, data: {} });
  assert.is(a.status, 201);
  assert.is(b.status, 201);
  assert.match(a.json.metadata.name, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.match(b.json.metadata.name, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.is.not(a.json.metadata.name, b.json.metadata.name);
  assert.is(a.json.metadata.generateName, 'web-');
  assert.is((await h.get(`${CM}/${a.json.metadata.name}`)).status, 200);
});

test('a generated name already taken is generated again, as the real store retries it', async () => {
  // Servers of the same seed draw the same names: the first one's first name is the second one's too.
  const first = (await (await startServer()).post(CM, { metadata: { generateName: 'web-' }, data: {} })).json.metadata.name;
  const h = await startServer();
  assert.is((await h.post(CM, { metadata: { name: first }, data: {} })).status, 201);
  const r = await h.post(CM, { metadata: { generateName: 'web-' }, data: {} });
  assert.is(r.status, 201, JSON.stringify(r.json));
  assert.match(r.json.metadata.name, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.is.not(r.json.metadata.name, first);
});

test('a given name wins over generateName', async () => {
  const h = await startServer();
  const r = await h.post(CM, { metadata: { name: 'fixed', generateName: 'web-' }, data: {} });
  assert.is(r.json.metadata.name, 'fixed');
});

test('an object with neither name nor generateName answers 422 naming metadata.name', async () => {
  const h = await startServer();
  const r = await h.post(CM, { data: {} });
  assert.is(r.status, 422);
  assert.is(r.json.message, 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  assert.equal(r.json.details.causes, [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]);
});

test('a name that is not a DNS subdomain answers 422 Invalid', async () => {
  const h = await startServer();
  const r = await h.post(CM, configMap('Bad_Name'));
  assert.is(r.status, 422);
  assert.is(r.json.details.causes[0].field, 'metadata.name');
  assert.match(r.json.message, /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
});

test('uid and creationTimestamp are set by the server, whatever the client sends', async () => {
  const h = await startServer();
  const r = await h.post(CM, { ...configMap('a'), metadata: { name: 'a', uid: 'client-uid', creationTimestamp: '2000-01-01T00:00:00Z' } });
  assert.is(r.status, 201);
  assert.match(r.json.metadata.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.is.not(r.json.metadata.uid, 'client-uid');
  assert.is(r.json.metadata.creationTimestamp, new Date(h.clock.now()).toISOString().replace('.000Z', 'Z'));
});

test('creationTimestamp is the server time of the create and an update keeps it and the uid', async () => {
  const h = await startServer();
  const first = (await h.post(CM, configMap('a'))).json;
  h.clock.advance(90_000);
  const second = (await h.post(CM, configMap('b'))).json;
  assert.is(Date.parse(second.metadata.creationTimestamp) - Date.parse(first.metadata.creationTimestamp), 90_000);
  const updated = (await h.put(`${CM}/a`, { ...configMap('a', { k: 'w' }), metadata: { name: 'a', creationTimestamp: '2000-01-01T00:00:00Z' } })).json;
  assert.is(updated.metadata.creationTimestamp, first.metadata.creationTimestamp);
  assert.is(updated.metadata.uid, first.metadata.uid);
});

test('every write sets resourceVersion to the new store revision, strictly increasing', async () => {
  const h = await startServer();
  const seen: number[] = [];
  const created = (await h.post(CM, configMap('a'))).json;
  seen.push(Number(created.metadata.resourceVersion));
  assert.is(created.metadata.resourceVersion, String(h.revision()));
  const updated = (await h.patch(`${CM}/a`, { data: { k: '2' } }, MERGE)).json;
  seen.push(Number(updated.metadata.resourceVersion));
  const other = (await h.post(CM, configMap('b'))).json;
  seen.push(Number(other.metadata.resourceVersion));
  assert.equal(seen, [seen[0], seen[0] + 1, seen[0] + 2]);
  assert.is((await h.get(`${CM}/a`)).json.metadata.resourceVersion, updated.metadata.resourceVersion);
});

test('a create carrying a resourceVersion is refused and stores nothing', async () => {
  const h = await startServer();
  const before = h.revision();
  const r = await h.post(CM, { ...configMap('a'), metadata: { name: 'a', resourceVersion: '5' } });
  assert.is(r.status, 400);
  assert.is(r.json.message, 'resourceVersion should not be set on objects to be created');
  assert.is(h.revision(), before);
});

test('a second object of the same name in the same namespace answers 409 AlreadyExists', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'first' }));
  const r = await h.post(CM, configMap('a', { k: 'second' }));
  assert.is(r.status, 409);
  assert.is(r.json.reason, 'AlreadyExists');
  assert.is(r.json.message, 'configmaps "a" already exists');
  assert.equal(r.json.details, { name: 'a', group: '', kind: 'configmaps' });
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: 'first' });
});

test('names are unique per namespace: the same name lives in two namespaces and in two kinds', async () => {
  const h = await startServer();
  assert.is((await h.post(CM, configMap('same'))).status, 201);
  assert.is((await h.post('/api/v1/namespaces/orch-system/configmaps', configMap('same'))).status, 201);
  assert.is((await h.post('/api/v1/namespaces/default/secrets', { metadata: { name: 'same' } })).status, 201);
});

test('cluster-scoped names are unique across the whole cluster', async () => {
  const h = await startServer();
  assert.is((await h.post(NODES, node('n1'))).status, 201);
  const r = await h.post(NODES, node('n1'));
  assert.is(r.status, 409);
  assert.is(r.json.message, 'nodes "n1" already exists');
});

test('a cluster-scoped type has no namespaced path', async () => {
  const h = await startServer();
  const r = await h.get('/api/v1/namespaces/default/nodes');
  assert.is(r.status, 404);
  assert.is(r.json.message, 'the server could not find the requested resource');
});

test('a name can be reused after its object is deleted, and the new object has a new uid', async () => {
  const h = await startServer();
  const old = (await h.post(CM, configMap('a'))).json;
  assert.is((await h.del(`${CM}/a`)).status, 200);
  const again = await h.post(CM, configMap('a'));
  assert.is(again.status, 201);
  assert.is.not(again.json.metadata.uid, old.metadata.uid);
});

test('an update carrying a stale resourceVersion answers 409 Conflict and stores nothing', async () => {
  const h = await startServer();
  const v1 = (await h.post(CM, configMap('a', { k: '1' }))).json;
  await h.put(`${CM}/a`, { ...v1, data: { k: '2' } });
  const before = h.revision();
  const r = await h.put(`${CM}/a`, { ...v1, data: { k: '3' } });
  assert.is(r.status, 409);
  assert.is(r.json.reason, 'Conflict');
  assert.is(r.json.message, 'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again');
  assert.equal(r.json.details, { name: 'a', group: '', kind: 'configmaps' });
  assert.is(h.revision(), before);
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: '2' });
});

test('a patch that sets a stale resourceVersion answers 409 Conflict', async () => {
  const h = await startServer();
  const v1 = (await h.post(CM, configMap('a', { k: '1' }))).json;
  await h.patch(`${CM}/a`, { data: { k: '2' } }, MERGE);
  const r = await h.patch(`${CM}/a`, { metadata: { resourceVersion: v1.metadata.resourceVersion }, data: { k: '3' } }, MERGE);
  assert.is(r.status, 409);
  assert.is(r.json.reason, 'Conflict');
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: '2' });
});

test('an update carrying the current resourceVersion succeeds', async () => {
  const h = await startServer();
  const v1 = (await h.post(CM, configMap('a', { k: '1' }))).json;
  const r = await h.put(`${CM}/a`, { ...v1, data: { k: '2' } });
  assert.is(r.status, 200);
});

test('an update naming another uid answers 409 with the precondition message', async () => {
  const h = await startServer();
  const v1 = (await h.post(CM, configMap('a'))).json;
  const r = await h.put(`${CM}/a`, { ...v1, metadata: { ...v1.metadata, uid: 'other-uid' } });
  assert.is(r.status, 409);
  assert.is(r.json.message, `Operation cannot be fulfilled on configmaps "a": Precondition failed: UID in precondition: other-uid, UID in object meta: ${v1.metadata.uid}`);
});

test('a deletionTimestamp sent on create is dropped', async () => {
  const h = await startServer();
  const r = await h.post(CM, { ...configMap('a'), metadata: { name: 'a', deletionTimestamp: '2030-01-01T00:00:00Z', deletionGracePeriodSeconds: 5 } });
  assert.is(r.status, 201);
  assert.is(r.json.metadata.deletionTimestamp, undefined);
  assert.is(r.json.metadata.deletionGracePeriodSeconds, undefined);
});

test('generation starts at 1 and grows only when the spec changes', async () => {
  const h = await startServer();
  const path = '/apis/apps/v1/namespaces/default/deployments';
  const created = (await h.post(path, deployment('web'))).json;
  assert.is(created.metadata.generation, 1);
  const labelled = (await h.patch(`${path}/web`, { metadata: { labels: { x: 'y' } } }, MERGE)).json;
  assert.is(labelled.metadata.generation, 1);
  const changed = (await h.patch(`${path}/web`, { spec: { replicas: 3 } }, MERGE)).json;
  assert.is(changed.metadata.generation, 2);
});

test('invalid labels answer 422 naming the label field', async () => {
  const h = await startServer();
  const r = await h.post(CM, configMap('a', {}, { 'bad key!': 'v' }));
  assert.is(r.status, 422);
  assert.is(r.json.reason, 'Invalid');
  assert.ok(r.json.details.causes.every((c: any) => c.field === 'metadata.labels'), JSON.stringify(r.json.details.causes));
});

test.run();
