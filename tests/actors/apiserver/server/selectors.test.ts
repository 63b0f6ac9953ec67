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

test('a label selector the real parser refuses answers 400 BadRequest with its message', async () => {
  const h = await fourPods();
  const cases: [string, string][] = [
    ['app in (web', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['Bad Key=1', "unable to parse requirement: found 'Key', expected: in, notin, =, ==, !=, gt, lt"],
    ['=web', "found '=', expected: !, identifier, or 'end of string'"],
    ['app=not a value', "found 'a', expected: ',' or 'end of string'"],
    ['app,', "found '', expected: identifier after ','"],
    ['replicas>two', 'unable to parse requirement: values[0]: Invalid value: "two": for \'Gt\', \'Lt\' operators, the value must be an integer'],
  ];
  for (const [s, message] of cases) {
    for (const path of [PODS, `${PODS}?watch=1&`]) {
      const r = await h.get(`${path}${path.endsWith('&') ? '' : '?'}${label(s)}`);
      assert.is(r.status, 400, s);
      assert.is(r.json.reason, 'BadRequest', s);
      assert.is(r.json.message, message, s);
    }
  }
  const del = await h.del(`${PODS}?${label('-x')}`);
  assert.is(del.status, 400);
  assert.match(del.json.message, /^unable to parse requirement: <nil>: Invalid value: "-x": name part must consist of/);
  assert.equal(await names(h, ''), ['p1', 'p2', 'p3', 'p4'], 'a refused deletecollection deletes nothing');
});

test('in and notin are label keys where a key stands, and () is the set of the empty value, as the real parser reads them', async () => {
  const h = await fourPods();
  await h.post(PODS, pod('p5', { labels: { in: 'web', tier: '' } }));
  assert.equal(await names(h, label('in')), ['p5']);
  assert.equal(await names(h, label('in=web')), ['p5']);
  assert.equal(await names(h, label('tier in ()')), ['p5']);
  assert.equal(await names(h, label('tier notin ( )')), ['p1', 'p2', 'p3', 'p4'], 'notin matches pods without the label too');
});

test('label selectors compare integers with > and <', async () => {
  const h = await startServer();
  for (const [name, n] of [['a', '1'], ['b', '5'], ['c', 'x']]) await h.post(PODS, pod(name, { labels: { n } }));
  assert.equal(await names(h, label('n>1')), ['b']);
  assert.equal(await names(h, label('n<5')), ['a']);
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

test('a field selector without an operator answers 400 naming the whole selector and the term', async () => {
  const h = await fourPods();
  const r = await h.get(`${PODS}?${field('garbage')}`);
  assert.is(r.status, 400);
  assert.is(r.json.message, "invalid selector: 'garbage'; can't understand 'garbage'");
  const two = await h.get(`${PODS}?${field('metadata.name=p1,bad')}`);
  assert.is(two.json.message, "invalid selector: 'metadata.name=p1,bad'; can't understand 'bad'");
});

test('field selector values: escapes as the real parser reads them, bare = refused, blanks kept, empty terms skipped', async () => {
  const h = await fourPods();
  assert.equal(await names(h, field('metadata.name=p1,,')), ['p1']);
  assert.equal(await names(h, field('metadata.name= p1')), [], 'the value is " p1"');
  const spaced = await h.get(`${PODS}?${field(' metadata.name=p1')}`);
  assert.is(spaced.json.message, 'field label not supported:  metadata.name');
  const bareEquals = await h.get(`${PODS}?${field('metadata.name==p1=x')}`);
  assert.is(bareEquals.status, 400);
  assert.is(bareEquals.json.message, 'invalid field selector: unescaped character in value: 61');
  const badEscape = await h.get(`${PODS}?${field('metadata.name=p\\1')}`);
  assert.is(badEscape.json.message, 'invalid field selector: invalid escape sequence: \\1');
  const trailing = await h.get(`${PODS}?${field('metadata.name=p1\\')}`);
  assert.is(trailing.json.message, 'invalid field selector: invalid escape sequence: \\');
  assert.equal(await names(h, field('metadata.name=p\\,1')), [], 'an escaped comma is part of the value "p,1"');
});

test('field selectors on events: the involved object, as kubectl describe asks, and source, the source component else the reporting one', async () => {
  const h = await startServer();
  const EVENTS = '/api/v1/namespaces/default/events';
  const event = (name: string, involvedObject: object, more: object) => ({ metadata: { name }, involvedObject, reason: 'R', message: 'm', type: 'Normal', ...more });
  await h.post(EVENTS, event('e1', { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1' }, { source: { component: 'kubelet', host: 'n1' }, reportingComponent: 'kubelet' }));
  await h.post(EVENTS, event('e2', { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u2' }, { source: {}, reportingComponent: 'default-scheduler', eventTime: '2026-01-01T00:00:00.000000Z', action: 'Binding', reportingInstance: 's' }));
  await h.post(EVENTS, event('e3', { kind: 'Node', name: 'n1', uid: 'n1' }, { source: { component: 'kubelet' } }));
  const names = async (selector: string, path = EVENTS) => {
    const r = await h.get(`${path}?${field(selector)}`);
    assert.is(r.status, 200, r.text);
    return r.json.items.map((i: any) => i.metadata.name);
  };
  assert.equal(await names('involvedObject.name=web,involvedObject.namespace=default,involvedObject.uid=u1'), ['e1']);
  assert.equal(await names('involvedObject.name=n1,involvedObject.namespace=,involvedObject.uid=n1', '/api/v1/events'), ['e3'], 'a node\'s events have no namespace in their reference');
  assert.equal(await names('involvedObject.kind=Pod'), ['e1', 'e2']);
  assert.equal(await names('source=default-scheduler'), ['e2']);
  assert.equal(await names('source=kubelet'), ['e1', 'e3']);
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
