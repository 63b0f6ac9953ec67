// Label and field selectors on lists: every label selector form, the field selectors each kind
// supports (metadata.name, metadata.namespace, and spec.nodeName, status.phase for pods).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, pod, startServer, type Harness } from '../../../helpers/in-process-server.ts';

const PODS = '/api/v1/namespaces/default/pods';

/** Four pods: p1 web/front on n1, p2 web/back unscheduled, p3 db on n2 and Running, p4 unlabelled. */
async function fourPods(): Promise<Harness> {
  const h = await startServer();
  await h.post(PODS, pod('p1', { labels: { app: 'web', tier: 'front' }, nodeName: 'n1' }));
  await h.post(PODS, pod('p2', { labels: { app: 'web', tier: 'back' } }));
  await h.post(PODS, pod('p3', { labels: { app: 'db' }, nodeName: 'n2' }));
  await h.post(PODS, pod('p4'));
  await h.patch(`${PODS}/p3/status`, { status: { phase: 'Running' } }, 'application/merge-patch+json');
  return h;
}

async function names(h: Harness, query: string): Promise<string[]> {
  const r = await h.get(`${PODS}?${query}`);
  assert.is(r.status, 200, r.text);
  return r.json.items.map((i: any) => i.metadata.name);
}

const label = (s: string) => `labelSelector=${encodeURIComponent(s)}`;
const field = (s: string) => `fieldSelector=${encodeURIComponent(s)}`;

test('label selectors: equality in its three spellings, and inequality, which matches objects without the label', async () => {
  const h = await fourPods();
  assert.equal(await names(h, label('app=web')), ['p1', 'p2']);
  assert.equal(await names(h, label('app==web')), ['p1', 'p2']);
  assert.equal(await names(h, label('app!=web')), ['p3', 'p4']);
});

test('label selectors: set membership with in and notin', async () => {
  const h = await fourPods();
  assert.equal(await names(h, label('app in (web,db)')), ['p1', 'p2', 'p3']);
  assert.equal(await names(h, label('tier in (front)')), ['p1']);
  assert.equal(await names(h, label('app notin (web)')), ['p3', 'p4']);
});

test('label selectors: existence and absence of a key', async () => {
  const h = await fourPods();
  assert.equal(await names(h, label('tier')), ['p1', 'p2']);
  assert.equal(await names(h, label('!tier')), ['p3', 'p4']);
});

test('label selectors: comma-separated requirements must all hold', async () => {
  const h = await fourPods();
  assert.equal(await names(h, label('app=web,tier=back')), ['p2']);
  assert.equal(await names(h, label('app in (web,db),!tier')), ['p3']);
  assert.equal(await names(h, label('app=web,app=db')), []);
});

test('an empty label selector selects everything', async () => {
  const h = await fourPods();
  assert.equal(await names(h, 'labelSelector='), ['p1', 'p2', 'p3', 'p4']);
});

test('a label selector that does not parse answers 400 BadRequest', async () => {
  const h = await fourPods();
  for (const s of ['app in (web', 'Bad Key=1', '=web', 'app=not a value', 'in', 'notin', 'app in ()', 'app notin ( )', 'in=web']) {
    const r = await h.get(`${PODS}?${label(s)}`);
    assert.is(r.status, 400, s);
    assert.is(r.json.reason, 'BadRequest', s);
    assert.match(r.json.message, 'unable to parse requirement', s);
  }
});

test('field selectors on metadata.name and metadata.namespace, equal and not equal', async () => {
  const h = await fourPods();
  assert.equal(await names(h, field('metadata.name=p2')), ['p2']);
  assert.equal(await names(h, field('metadata.name==p2')), ['p2']);
  assert.equal(await names(h, field('metadata.name!=p2')), ['p1', 'p3', 'p4']);
  assert.equal(await names(h, field('metadata.namespace=default')), ['p1', 'p2', 'p3', 'p4']);
  assert.equal(await names(h, field('metadata.namespace=other')), []);
});

test('field selectors on a pod spec.nodeName: a node, and the empty value for unscheduled pods', async () => {
  const h = await fourPods();
  assert.equal(await names(h, field('spec.nodeName=n1')), ['p1']);
  assert.equal(await names(h, field('spec.nodeName=')), ['p2', 'p4']);
  assert.equal(await names(h, field('spec.nodeName!=')), ['p1', 'p3']);
});

test('field selectors on a pod status.phase', async () => {
  const h = await fourPods();
  assert.equal(await names(h, field('status.phase=Running')), ['p3']);
  assert.equal(await names(h, field('status.phase=Pending')), ['p1', 'p2', 'p4']);
  assert.equal(await names(h, field('status.phase!=Pending')), ['p3']);
});

test('field and label selectors combine, and several field terms must all hold', async () => {
  const h = await fourPods();
  assert.equal(await names(h, `${field('spec.nodeName!=')}&${label('app=web')}`), ['p1']);
  assert.equal(await names(h, field('spec.nodeName=n2,status.phase=Running')), ['p3']);
});

test('a field selector works across namespaces, as drain lists a node\'s pods', async () => {
  const h = await fourPods();
  await h.post('/api/v1/namespaces/orch-system/pods', pod('sys', { nodeName: 'n1' }));
  const r = await h.get(`/api/v1/pods?${field('spec.nodeName=n1')}&limit=500`);
  assert.equal(r.json.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`), ['default/p1', 'orch-system/sys']);
});

test('a field the kind does not support answers 400 naming it', async () => {
  const h = await fourPods();
  const r = await h.get(`${PODS}?${field('spec.foo=x')}`);
  assert.is(r.status, 400);
  assert.is(r.json.reason, 'BadRequest');
  assert.is(r.json.message, 'field label not supported: spec.foo');
  const cm = await h.get(`/api/v1/namespaces/default/configmaps?${field('spec.nodeName=n1')}`);
  assert.is(cm.status, 400);
});

test('a field selector without an operator answers 400', async () => {
  const h = await fourPods();
  const r = await h.get(`${PODS}?${field('garbage')}`);
  assert.is(r.status, 400);
  assert.is(r.json.message, "invalid selector: 'garbage'; can't understand 'garbage'");
});

test('selectors apply to deletecollection of config maps too', async () => {
  const h = await startServer();
  await h.post('/api/v1/namespaces/default/configmaps', configMap('a'));
  await h.post('/api/v1/namespaces/default/configmaps', configMap('b'));
  const r = await h.del(`/api/v1/namespaces/default/configmaps?${field('metadata.name=a')}`);
  assert.equal(r.json.items.map((i: any) => i.metadata.name), ['a']);
  assert.equal((await h.get('/api/v1/namespaces/default/configmaps')).json.items.map((i: any) => i.metadata.name), ['b']);
});

test.run();
