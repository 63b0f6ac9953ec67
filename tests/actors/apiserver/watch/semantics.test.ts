// The watch rows of seed 000 and the rules of issue 3, through server.handle() on a manual clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, MERGE } from '../../../helpers/in-process-server.ts';
import { openWatch, settle } from '../../../helpers/watch-stream.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { a: '1' } });
const summary = (events: { type: string; object: any }[]) => events.map((e) => `${e.type} ${e.object.metadata?.name ?? e.object.reason} ${e.object.metadata?.resourceVersion ?? e.object.code}`);

test('without a resourceVersion a watch sends the current objects as ADDED, then later changes', async () => {
  const h = await startServer();
  await h.post(CM, cm('a'));
  const w = await openWatch(h.server, `${CM}?watch=true`);
  assert.is(w.status, 200);
  await h.post(CM, cm('b'));
  const events = await w.until(2);
  assert.equal(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED a', 'ADDED b']);
  assert.is(events[1].object.kind, 'ConfigMap');
  w.close();
});

test('resourceVersion=0 also starts with the current state', async () => {
  const h = await startServer();
  await h.post(CM, cm('a'));
  const w = await openWatch(h.server, `${CM}?watch=1&resourceVersion=0`);
  assert.equal((await w.until(1)).map((e) => e.type), ['ADDED']);
  w.close();
});

test('a watch from a version sends only the changes after it, with no synthetic events', async () => {
  const h = await startServer();
  const a = (await h.post(CM, cm('a'))).json;
  await h.patch(`${CM}/a`, { data: { a: '2' } }, MERGE);
  await h.del(`${CM}/a`);
  const w = await openWatch(h.server, `${CM}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
  const events = await w.until(2);
  assert.equal(events.map((e) => e.type), ['MODIFIED', 'DELETED']);
  // DELETED carries the last state with the deletion's own resourceVersion.
  assert.is(events[1].object.data.a, '2');
  assert.is(Number(events[1].object.metadata.resourceVersion), Number(events[0].object.metadata.resourceVersion) + 1);
  w.close();
});

test('every Go boolean spelling of watch starts a watch', async () => {
  const h = await startServer();
  for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True']) {
    const w = await openWatch(h.server, `${CM}?watch=${v}`);
    assert.ok(!w.ended, `watch=${v} should stream`);
    w.close();
  }
  const list = await h.get(`${CM}?watch=false`);
  assert.is(list.json.kind, 'ConfigMapList');
});

test('a version older than the window gets one ERROR 410 Expired event, then the stream ends', async () => {
  const h = await startServer();
  await h.post(CM, cm('a'));
  await h.post(CM, cm('b'));
  h.server.store.compact(h.server.store.revision);
  const w = await openWatch(h.server, `${CM}?watch=true&resourceVersion=1`);
  await w.until(1);
  assert.ok(w.ended);
  assert.is(w.events.length, 1);
  assert.is(w.events[0].type, 'ERROR');
  assert.equal({ code: w.events[0].object.code, reason: w.events[0].object.reason, kind: w.events[0].object.kind }, { code: 410, reason: 'Expired', kind: 'Status' });
  assert.match(w.events[0].object.message, /^too old resource version: 1 \(\d+\)$/);
});

test('with --etcd-compaction-interval=5s a watched version is compacted within two intervals', async () => {
  const h = await startServer({ etcdCompactionIntervalMs: 5_000 });
  const a = (await h.post(CM, cm('a'))).json;
  await h.post(CM, cm('b'));
  const from = a.metadata.resourceVersion;
  h.clock.advance(5_000);
  const inWindow = await openWatch(h.server, `${CM}?watch=true&resourceVersion=${from}`);
  assert.equal((await inWindow.until(1)).map((e) => e.type), ['ADDED']);
  inWindow.close();
  h.clock.advance(5_000);
  const late = await openWatch(h.server, `${CM}?watch=true&resourceVersion=${from}`);
  await late.until(1);
  assert.is(late.events[0].type, 'ERROR');
  assert.is(late.events[0].object.code, 410);
  assert.ok(late.ended);
});

test('a version newer than the newest waits for the store to reach it', async () => {
  const h = await startServer();
  const future = h.revision() + 2;
  const w = await openWatch(h.server, `${CM}?watch=true&resourceVersion=${future}`);
  await h.post(CM, cm('a'));
  await h.post(CM, cm('b'));
  await h.post(CM, cm('c'));
  const events = await w.until(1);
  assert.equal(summary(events), [`ADDED c ${future + 1}`]);
  w.close();
});

test('with a label selector an object that starts matching is ADDED and one that stops is DELETED', async () => {
  const h = await startServer();
  await h.post(CM, cm('x', { tier: 'back' }));
  const w = await openWatch(h.server, `${CM}?watch=true&labelSelector=tier%3Dfront`);
  await h.patch(`${CM}/x`, { metadata: { labels: { tier: 'front' } } }, MERGE);
  await h.patch(`${CM}/x`, { data: { a: '9' } }, MERGE);
  await h.patch(`${CM}/x`, { metadata: { labels: { tier: 'back' } } }, MERGE);
  await h.post(CM, cm('other', { tier: 'back' }));
  await w.until(3);
  await settle();
  assert.equal(w.events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
  // DELETED carries the state that last matched, stamped with the change's version.
  const deleted = w.events[2].object;
  assert.is(deleted.metadata.labels.tier, 'front');
  assert.is(Number(deleted.metadata.resourceVersion), h.revision() - 1);
  w.close();
});

test('the initial state does not count against the capacity of a slow watcher', async () => {
  const h = await startServer({ watcherCapacity: 5 });
  for (let i = 0; i < 10; i++) await h.post(CM, cm(`c${i}`));
  const w = await openWatch(h.server, `${CM}?watch=true`);
  w.block();
  await settle();
  assert.not.ok(w.ended);
  w.drain();
  await settle();
  assert.is(w.events.length, 10);
  assert.ok(w.events.every((e) => e.type === 'ADDED'));
  w.close();
});

test('a watch on spec.nodeName sees only the pods bound to that node', async () => {
  const h = await startServer();
  const pod = (name: string, node: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: node, containers: [{ name: 'c', image: 'i' }] } });
  const w = await openWatch(h.server, '/api/v1/pods?watch=true&fieldSelector=spec.nodeName%3Dn1');
  await h.post('/api/v1/namespaces/default/pods', pod('on-n1', 'n1'));
  await h.post('/api/v1/namespaces/default/pods', pod('on-n2', 'n2'));
  await settle();
  assert.equal(w.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED on-n1']);
  assert.ok(h.server.hub.subjects.includes('orch.w.core.pods.n.n1'), 'the node watcher subscribes to its node subject only');
  w.close();
  await settle();
  assert.not.ok(h.server.hub.subjects.includes('orch.w.core.pods.n.n1'), 'the subject is released when its last watcher goes');
});

test('an idle watch that allows bookmarks gets one at least once a minute, carrying only a resourceVersion', async () => {
  const h = await startServer();
  const w = await openWatch(h.server, `${CM}?watch=true&allowWatchBookmarks=true&resourceVersion=${h.revision()}`);
  await h.post('/api/v1/namespaces', { metadata: { name: 'elsewhere' } });
  await settle();
  h.clock.advance(60_000);
  await settle();
  assert.is(w.events.length, 1);
  assert.is(w.events[0].type, 'BOOKMARK');
  assert.equal(w.events[0].object, { metadata: { resourceVersion: String(h.revision()) } });
  w.close();
});

test('bookmarks are sent only when asked for', async () => {
  const h = await startServer();
  const w = await openWatch(h.server, `${CM}?watch=true&resourceVersion=${h.revision()}`);
  h.clock.advance(120_000);
  await settle();
  assert.is(w.events.length, 0);
  w.close();
});

test('timeoutSeconds ends the stream cleanly', async () => {
  const h = await startServer();
  const w = await openWatch(h.server, `${CM}?watch=true&timeoutSeconds=5`);
  h.clock.advance(4_999);
  await settle();
  assert.not.ok(w.ended);
  h.clock.advance(1);
  await settle();
  assert.ok(w.ended);
});

test('without timeoutSeconds a watch lives between one and two times --min-request-timeout', async () => {
  const h = await startServer({ minRequestTimeoutSeconds: 10 });
  const w = await openWatch(h.server, `${CM}?watch=true`);
  h.clock.advance(9_999);
  await settle();
  assert.not.ok(w.ended);
  h.clock.advance(10_001);
  await settle();
  assert.ok(w.ended);
});

test('a watcher that falls behind its connection is cut off with ERROR 410, never waited on', async () => {
  const h = await startServer({ watcherCapacity: 5 });
  const w = await openWatch(h.server, `${CM}?watch=true&resourceVersion=${h.revision()}`);
  w.block();
  await h.post(CM, cm('first'));
  await settle();
  for (let i = 0; i < 10; i++) await h.post(CM, cm(`c${i}`));
  await settle();
  assert.ok(w.ended);
  const last = w.events[w.events.length - 1];
  assert.is(last.type, 'ERROR');
  assert.is(last.object.code, 410);
  assert.ok(w.events.length <= 7);
});

test('a Table watch sends one-row Tables with the column definitions on the first event only', async () => {
  const h = await startServer();
  const w = await openWatch(h.server, `${CM}?watch=true&resourceVersion=${h.revision()}`, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
  await h.post(CM, cm('a'));
  await h.post(CM, cm('b'));
  const events = await w.until(2);
  assert.is(events[0].object.kind, 'Table');
  assert.ok(Array.isArray(events[0].object.columnDefinitions));
  assert.is(events[1].object.columnDefinitions, null);
  assert.is(events[1].object.rows[0].cells[0], 'b');
  w.close();
});

test('a watch of one object by name sees only that object', async () => {
  const h = await startServer();
  const w = await openWatch(h.server, `${CM}?watch=true&fieldSelector=metadata.name%3Done&resourceVersion=0`);
  await h.post(CM, cm('one'));
  await h.post(CM, cm('two'));
  await settle();
  assert.equal(w.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED one']);
  w.close();
});

test.run();
