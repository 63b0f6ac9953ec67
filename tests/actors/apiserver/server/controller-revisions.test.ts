// ControllerRevision as seed 000 describes it: `revision` required, `data` immutable after
// creation whatever the request, deletable, listable across namespaces, deletecollection.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APPLY, controllerRevision, JSON_PATCH, MERGE, startServer, STRATEGIC, type Harness, type Reply } from '../../../helpers/in-process-server.ts';

const CRS = '/apis/apps/v1/namespaces/default/controllerrevisions';
const DATA = { spec: { template: { metadata: { labels: { app: 'web' } } } } };

function immutableData(r: Reply): void {
  assert.is(r.status, 422, r.text);
  assert.is(r.json.reason, 'Invalid');
  assert.is(r.json.details.kind, 'ControllerRevision');
  assert.is(r.json.details.group, 'apps');
  assert.is(r.json.details.name, 'r1');
  assert.is(r.json.details.causes.length, 1);
  assert.is(r.json.details.causes[0].field, 'data');
  assert.is(r.json.details.causes[0].reason, 'FieldValueInvalid');
  assert.match(r.json.details.causes[0].message, /: field is immutable$/);
  assert.match(r.json.message, /^ControllerRevision\.apps "r1" is invalid: data: Invalid value: .*: field is immutable$/);
}

async function withRevision(): Promise<{ h: Harness; created: any }> {
  const h = await startServer();
  const r = await h.post(CRS, controllerRevision('r1', 1, DATA));
  assert.is(r.status, 201);
  return { h, created: r.json };
}

async function unchanged(h: Harness, created: any, before: number): Promise<void> {
  assert.is(h.revision(), before, 'nothing was written');
  assert.equal((await h.get(`${CRS}/r1`)).json.data, created.data);
}

test('a controller revision is created with its revision and data', async () => {
  const { created } = await withRevision();
  assert.is(created.kind, 'ControllerRevision');
  assert.is(created.apiVersion, 'apps/v1');
  assert.is(created.revision, 1);
  assert.equal(created.data, DATA);
});

test('a controller revision without revision answers 422 Required', async () => {
  const h = await startServer();
  const r = await h.post(CRS, controllerRevision('r0', null));
  assert.is(r.status, 422);
  assert.is(r.json.message, 'ControllerRevision.apps "r0" is invalid: revision: Required value');
  assert.equal(r.json.details.causes, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'revision' }]);
  assert.is((await h.get(`${CRS}/r0`)).status, 404);
});

test('revision 0 is allowed and a negative revision answers 422', async () => {
  const h = await startServer();
  assert.is((await h.post(CRS, controllerRevision('zero', 0))).status, 201);
  const negative = await h.post(CRS, controllerRevision('neg', -1));
  assert.is(negative.status, 422);
  assert.equal(negative.json.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'revision' }]);
});

test('a revision that is not an integer answers 400', async () => {
  const h = await startServer();
  const r = await h.post(CRS, { ...controllerRevision('r'), revision: 'one' });
  assert.is(r.status, 400);
  assert.is(r.json.reason, 'BadRequest');
});

test('PUT that changes data answers 422 field is immutable', async () => {
  const { h, created } = await withRevision();
  const before = h.revision();
  immutableData(await h.put(`${CRS}/r1`, { ...created, data: { other: true } }));
  immutableData(await h.put(`${CRS}/r1`, { ...created, data: undefined }));
  await unchanged(h, created, before);
});

test('a merge patch that changes data answers 422 field is immutable', async () => {
  const { h, created } = await withRevision();
  const before = h.revision();
  immutableData(await h.patch(`${CRS}/r1`, { data: { spec: { replicas: 3 } } }, MERGE));
  immutableData(await h.patch(`${CRS}/r1`, { data: null }, MERGE));
  await unchanged(h, created, before);
});

test('a JSON patch that changes data answers 422 field is immutable', async () => {
  const { h, created } = await withRevision();
  const before = h.revision();
  immutableData(await h.patch(`${CRS}/r1`, [{ op: 'replace', path: '/data', value: { x: 1 } }], JSON_PATCH));
  immutableData(await h.patch(`${CRS}/r1`, [{ op: 'add', path: '/data/spec/extra', value: 1 }], JSON_PATCH));
  await unchanged(h, created, before);
});

test('a strategic merge patch that changes data answers 422 field is immutable', async () => {
  const { h, created } = await withRevision();
  const before = h.revision();
  immutableData(await h.patch(`${CRS}/r1`, { data: { spec: { template: { metadata: { labels: { app: 'db' } } } } } }, STRATEGIC));
  await unchanged(h, created, before);
});

test('a server-side apply that changes data answers 422 field is immutable, even forced', async () => {
  const { h, created } = await withRevision();
  const before = h.revision();
  const body = controllerRevision('r1', 1, { spec: { other: 1 } });
  immutableData(await h.patch(`${CRS}/r1?fieldManager=ctl`, body, APPLY));
  immutableData(await h.patch(`${CRS}/r1?fieldManager=ctl&force=true`, body, APPLY));
  await unchanged(h, created, before);
});

test('writes that leave data alone succeed: labels, and the revision number', async () => {
  const { h, created } = await withRevision();
  const labelled = await h.patch(`${CRS}/r1`, { metadata: { labels: { hash: 'abc' } } }, MERGE);
  assert.is(labelled.status, 200);
  const bumped = await h.put(`${CRS}/r1`, { ...labelled.json, revision: 2 });
  assert.is(bumped.status, 200);
  assert.is(bumped.json.revision, 2);
  assert.equal(bumped.json.data, created.data);
});

test('a controller revision can be deleted', async () => {
  const { h, created } = await withRevision();
  const r = await h.del(`${CRS}/r1`);
  assert.is(r.status, 200);
  assert.equal(r.json.details, { name: 'r1', group: 'apps', kind: 'controllerrevisions', uid: created.metadata.uid });
  assert.is((await h.get(`${CRS}/r1`)).status, 404);
});

test('controller revisions list in one namespace and across all namespaces', async () => {
  const h = await startServer();
  await h.post(CRS, controllerRevision('a', 1));
  await h.post('/apis/apps/v1/namespaces/orch-system/controllerrevisions', controllerRevision('b', 2));
  const one = (await h.get(CRS)).json;
  assert.is(one.kind, 'ControllerRevisionList');
  assert.equal(one.items.map((i: any) => i.metadata.name), ['a']);
  const all = (await h.get('/apis/apps/v1/controllerrevisions')).json;
  assert.equal(all.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}/${i.revision}`), ['default/a/1', 'orch-system/b/2']);
});

test('deletecollection of controller revisions honours label selectors', async () => {
  const h = await startServer();
  await h.post(CRS, controllerRevision('web-1', 1, DATA, { app: 'web' }));
  await h.post(CRS, controllerRevision('web-2', 2, DATA, { app: 'web' }));
  await h.post(CRS, controllerRevision('db-1', 1, DATA, { app: 'db' }));
  const r = await h.del(`${CRS}?labelSelector=app%3Dweb`);
  assert.is(r.status, 200);
  assert.equal(r.json.items.map((i: any) => i.metadata.name), ['web-1', 'web-2']);
  assert.equal((await h.get(CRS)).json.items.map((i: any) => i.metadata.name), ['db-1']);
  const inSet = await h.del(`${CRS}?labelSelector=${encodeURIComponent('app in (db)')}`);
  assert.equal(inSet.json.items.map((i: any) => i.metadata.name), ['db-1']);
  assert.equal((await h.get(CRS)).json.items, []);
});

test.run();
