// events.k8s.io/v1 Events are the core v1 Events under the events API's names: one written either
// way is read both ways, listed and watched by the events API's field names, and refused when it
// does not say when and by whom it happened.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../../helpers/in-process-server.ts';
import { openWatch } from '../../../helpers/watch-stream.ts';

const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';
const CORE = '/api/v1/namespaces/default/events';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const event = (name: string) => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name, namespace: 'default' },
  eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'example.com/ctl', reportingInstance: 'ctl-1', action: 'Sync',
  reason: 'Synced', type: 'Normal', note: 'all good', regarding: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1' },
});

test('an event written through the events API is a core event, read back under either name', async () => {
  const h = await startServer();
  const created = await h.post(V1, event('e1'));
  assert.is(created.status, 201, created.text);
  assert.is(created.json.apiVersion, 'events.k8s.io/v1');
  assert.is(created.json.note, 'all good');
  const core = await h.get(`${CORE}/e1`);
  assert.is(core.json.apiVersion, 'v1');
  assert.is(core.json.message, 'all good');
  assert.equal(core.json.involvedObject, { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1' });
  assert.is(core.json.reportingComponent, 'example.com/ctl');
  assert.is(core.json.note, undefined);
  const back = await h.get(`${V1}/e1`);
  assert.equal(back.json.regarding, { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1' });
  assert.is(back.json.message, undefined);
});

test('a core event reads through the events API with its deprecated fields', async () => {
  const h = await startServer();
  await h.post(CORE, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'c1' }, involvedObject: { kind: 'Node', name: 'n1' }, reason: 'NodeReady',
    message: 'ready', type: 'Normal', source: { component: 'kubelet', host: 'n1' }, count: 3, firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:01:00Z' });
  const v1 = (await h.get(`${V1}/c1`)).json;
  assert.equal([v1.note, v1.deprecatedCount, v1.deprecatedSource, v1.deprecatedFirstTimestamp, v1.regarding.name],
    ['ready', 3, { component: 'kubelet', host: 'n1' }, '2026-01-01T00:00:00Z', 'n1']);
});

test('lists select by the events API\'s field names and print as core events do', async () => {
  const h = await startServer();
  await h.post(V1, event('e1'));
  await h.post(V1, { ...event('e2'), regarding: { kind: 'Pod', namespace: 'default', name: 'db' } });
  const list = await h.get(`${V1}?fieldSelector=regarding.name%3Ddb`);
  assert.is(list.json.kind, 'EventList');
  assert.is(list.json.apiVersion, 'events.k8s.io/v1');
  assert.equal(list.json.items.map((e: { metadata: { name: string } }) => e.metadata.name), ['e2']);
  const table = await h.get(V1, { accept: TABLE });
  assert.equal(table.json.rows.map((r: { cells: unknown[] }) => r.cells.slice(1, 4)), [['Normal', 'Synced', 'pod/web'], ['Normal', 'Synced', 'pod/db']]);
});

test('a watch of the events API sends its events under its names', async () => {
  const h = await startServer();
  const w = await openWatch(h.server, `${V1}?watch=true&resourceVersion=0`);
  await h.post(CORE, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'c1' }, involvedObject: { kind: 'Pod', name: 'web' }, reason: 'R', message: 'm', type: 'Normal' });
  const [added] = await w.until(1);
  assert.is((added!.object as { apiVersion: string }).apiVersion, 'events.k8s.io/v1');
  assert.is((added!.object as { note: string }).note, 'm');
  w.close();
});

test('an event the events API would not take is Invalid', async () => {
  const h = await startServer();
  const { reportingController: _r, action: _a, ...bare } = event('bad');
  const r = await h.post(V1, { ...bare, type: 'Odd' });
  assert.is(r.status, 422);
  assert.equal(r.json.details.causes.map((c: { field: string }) => c.field), ['reportingController', 'action', 'type']);
  assert.is(r.json.details.group, 'events.k8s.io');
});

test.run();
