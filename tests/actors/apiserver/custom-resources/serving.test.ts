// CustomResourceDefinitions as the API server serves them: established with their conditions and
// accepted names, their types in discovery and served with every verb, several versions over one
// storage, status split from the main resource, names another definition holds refused, and a
// deleted definition taking its objects with it before it goes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type Harness, MERGE } from '../../../helpers/in-process-server.ts';
import { openWatch, settle } from '../../../helpers/watch-stream.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const AGG = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const OPEN = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function definition(plural = 'widgets', kind = 'Widget', versions: object[] = [version('v1', true)]) {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.example.com` },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural, kind, shortNames: ['wd'], categories: ['all'] }, versions } };
}

function version(name: string, storage: boolean, extra: object = {}) {
  return { name, served: true, storage, schema: { openAPIV3Schema: OPEN }, ...extra };
}

const widget = (apiVersion: string, name: string, spec: object = { size: 1 }) => ({ apiVersion, kind: 'Widget', metadata: { name }, spec });
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

/** Creates `crd` and lets its machine serve it. */
async function define(h: Harness, crd: object): Promise<void> {
  const r = await h.post(CRDS, crd);
  assert.is(r.status, 201, r.text);
  await settle();
}

const condition = (crd: any, type: string) => crd.status.conditions.find((c: { type: string }) => c.type === type);

test('a definition is established: its conditions, accepted and stored versions, and its type in discovery', async () => {
  const h = await startServer();
  await define(h, definition());
  const crd = (await h.get(`${CRDS}/widgets.example.com`)).json;
  assert.equal(condition(crd, 'NamesAccepted'), { type: 'NamesAccepted', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'NoConflicts', message: 'no conflicts found' });
  assert.equal(condition(crd, 'Established').reason, 'InitialNamesAccepted');
  assert.equal(crd.status.acceptedNames, { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] });
  assert.equal(crd.status.storedVersions, ['v1']);
  assert.equal(crd.spec.conversion, { strategy: 'None' });
  const apis = (await h.get('/apis', { accept: AGG })).json;
  const group = apis.items.find((g: any) => g.metadata.name === 'example.com');
  assert.equal(group.versions[0].resources[0], { resource: 'widgets', responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' }, scope: 'Namespaced',
    singularResource: 'widget', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['wd'], categories: ['all'] });
});

test('custom objects take every verb, and count generations on what is not metadata', async () => {
  const h = await startServer();
  await define(h, definition());
  const created = await h.post(WIDGETS, widget('example.com/v1', 'w1'));
  assert.is(created.status, 201);
  assert.is(created.json.metadata.generation, 1);
  const patched = await h.patch(`${WIDGETS}/w1`, { spec: { size: 2 } }, MERGE);
  assert.is(patched.json.metadata.generation, 2);
  const labelled = await h.patch(`${WIDGETS}/w1`, { metadata: { labels: { a: 'b' } } }, MERGE);
  assert.is(labelled.json.metadata.generation, 2);
  assert.equal((await h.get(WIDGETS)).json.items.map((o: any) => o.metadata.name), ['w1']);
  assert.is((await h.del(`${WIDGETS}/w1`)).status, 200);
  assert.is((await h.get(`${WIDGETS}/w1`)).status, 404);
});

test('a definition served at two versions stores at one and answers at the version asked', async () => {
  const h = await startServer();
  await define(h, definition('widgets', 'Widget', [version('v1beta1', false), version('v1', true)]));
  const created = await h.post('/apis/example.com/v1beta1/namespaces/default/widgets', widget('example.com/v1beta1', 'w1'));
  assert.is(created.status, 201);
  assert.is(created.json.apiVersion, 'example.com/v1beta1');
  assert.is((await h.get(`${WIDGETS}/w1`)).json.apiVersion, 'example.com/v1');
  assert.is((await h.server.store.get('/registry/example.com/widgets/default/w1'))!.apiVersion, 'example.com/v1');
  const preferred = (await h.get('/apis/example.com')).json.preferredVersion;
  assert.equal(preferred, { groupVersion: 'example.com/v1', version: 'v1' });
});

test('with a status subresource, the main resource keeps status and status writes keep the rest', async () => {
  const h = await startServer();
  await define(h, definition('widgets', 'Widget', [version('v1', true, { subresources: { status: {} } })]));
  const created = await h.post(WIDGETS, { ...widget('example.com/v1', 'w1'), status: { ready: true } });
  assert.is(created.json.status, undefined);
  const status = await h.patch(`${WIDGETS}/w1/status`, { spec: { size: 9 }, status: { ready: true } }, MERGE);
  assert.is(status.status, 200);
  assert.equal(status.json.spec, { size: 1 });
  assert.equal(status.json.status, { ready: true });
  assert.is(status.json.metadata.generation, 1);
  const main = await h.patch(`${WIDGETS}/w1`, { status: { ready: false } }, MERGE);
  assert.equal(main.json.status, { ready: true });
});

test('names another definition of the group holds are not accepted (the last conflict found is the reason), and the type is not served', async () => {
  const h = await startServer();
  await define(h, definition());
  const clash = definition('gadgets', 'Widget');
  Object.assign(clash.spec.names, { singular: 'gadget', shortNames: [] });
  await define(h, clash);
  const crd = (await h.get(`${CRDS}/gadgets.example.com`)).json;
  assert.equal(condition(crd, 'NamesAccepted'), { type: 'NamesAccepted', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ListKindConflict', message: '"WidgetList" is already in use' });
  assert.equal(condition(crd, 'Established'), { type: 'Established', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'NotAccepted', message: 'not all names are accepted' });
  assert.is((await h.get('/apis/example.com/v1/namespaces/default/gadgets')).status, 404);
});

test('a deleted definition refuses creates, deletes its objects, and goes once the last is gone', async () => {
  const h = await startServer();
  await define(h, definition());
  await h.post(WIDGETS, { ...widget('example.com/v1', 'held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } });
  const deleting = await h.del(`${CRDS}/widgets.example.com`);
  assert.is(deleting.status, 200);
  assert.equal(deleting.json.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
  await settle();
  const refused = await h.post(WIDGETS, widget('example.com/v1', 'late'));
  assert.is(refused.status, 405);
  assert.is(refused.json.message, 'create not allowed while custom resource definition is terminating');
  const crd = (await h.get(`${CRDS}/widgets.example.com`)).json;
  assert.equal(condition(crd, 'Terminating').reason, 'InstanceDeletionInProgress');
  assert.ok((await h.get(`${WIDGETS}/held`)).json.metadata.deletionTimestamp);
  await h.patch(`${WIDGETS}/held`, { metadata: { finalizers: null } }, MERGE);
  h.clock.advance(5_000);
  await settle();
  assert.is((await h.get(`${CRDS}/widgets.example.com`)).status, 404);
  assert.is((await h.get(WIDGETS)).status, 404);
});

test('a watch of custom objects delivers their changes at the version it watches', async () => {
  const h = await startServer();
  await define(h, definition('widgets', 'Widget', [version('v1beta1', false), version('v1', true)]));
  const w = await openWatch(h.server, '/apis/example.com/v1beta1/namespaces/default/widgets?watch=true&resourceVersion=0');
  await h.post(WIDGETS, widget('example.com/v1', 'w1'));
  const events = await w.until(1);
  assert.is(events[0]!.type, 'ADDED');
  assert.is((events[0]!.object as any).apiVersion, 'example.com/v1beta1');
  w.close();
});

test.run();
