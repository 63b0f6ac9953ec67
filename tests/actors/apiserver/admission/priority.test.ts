// The Priority admission plugin and the PriorityClass kind, against the in-process server: pods
// take their class's priority and preemption policy (or the global default's, or 0), unknown
// classes and stated priorities are refused with the real messages, and the two system classes
// exist from the start and stay.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type Reply } from '../../../helpers/in-process-server.ts';

const CLASSES = '/apis/scheduling.k8s.io/v1/priorityclasses';
const PODS = '/api/v1/namespaces/default/pods';

const priorityClass = (name: string, value: number, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });
const pod = (name: string, spec: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...spec } });

function forbidden(r: Reply): string {
  assert.is(r.status, 403, r.text);
  assert.is(r.json.reason, 'Forbidden');
  return r.json.message;
}

const causes = (r: Reply): string[] => {
  assert.is(r.status, 422, r.text);
  return r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
};

test('a pod naming an unknown PriorityClass is refused with the real message, and nothing is stored', async () => {
  const h = await startServer();
  const before = h.revision();
  const r = await h.post(PODS, pod('web', { priorityClassName: 'gold' }));
  assert.is(forbidden(r), 'pods "web" is forbidden: no PriorityClass with name gold was found');
  assert.equal([r.json.details.name, r.json.details.kind], ['web', 'pods']);
  assert.is(h.revision(), before);
  assert.is(forbidden(await h.post(PODS, pod('odd', { priorityClassName: 'constructor' }))),
    'pods "odd" is forbidden: no PriorityClass with name constructor was found', 'a class named like an Object.prototype member is just unknown');
});

test('a pod takes its class\'s priority and preemption policy', async () => {
  const h = await startServer();
  assert.is((await h.post(CLASSES, priorityClass('batch', 500, { preemptionPolicy: 'Never' }))).status, 201);
  const r = await h.post(PODS, pod('job', { priorityClassName: 'batch' }));
  assert.is(r.status, 201, r.text);
  assert.equal([r.json.spec.priorityClassName, r.json.spec.priority, r.json.spec.preemptionPolicy], ['batch', 500, 'Never']);
});

test('without a class a pod gets 0 and PreemptLowerPriority, or the global default class: its name, value and policy', async () => {
  const h = await startServer();
  const plain = await h.post(PODS, pod('plain'));
  assert.equal([plain.json.spec.priorityClassName, plain.json.spec.priority, plain.json.spec.preemptionPolicy], [undefined, 0, 'PreemptLowerPriority']);
  assert.is((await h.post(CLASSES, priorityClass('normal', 100, { globalDefault: true, preemptionPolicy: 'Never' }))).status, 201);
  const defaulted = await h.post(PODS, pod('defaulted'));
  assert.equal([defaulted.json.spec.priorityClassName, defaulted.json.spec.priority, defaulted.json.spec.preemptionPolicy], ['normal', 100, 'Never']);
});

test('a pod stating a priority or policy other than its class computes is refused; the same values are accepted', async () => {
  const h = await startServer();
  await h.post(CLASSES, priorityClass('high', 1000));
  assert.is(forbidden(await h.post(PODS, pod('a', { priorityClassName: 'high', priority: 7 }))),
    'pods "a" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
  assert.is(forbidden(await h.post(PODS, pod('b', { priority: 7 }))),
    'pods "b" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name');
  assert.is(forbidden(await h.post(PODS, pod('c', { priorityClassName: 'high', preemptionPolicy: 'Never' }))),
    'pods "c" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name');
  assert.is((await h.post(PODS, pod('d', { priorityClassName: 'high', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' }))).status, 201);
});

test('an update that leaves the priority out keeps it; one that changes it is invalid', async () => {
  const h = await startServer();
  await h.post(CLASSES, priorityClass('high', 1000));
  const created = (await h.post(PODS, pod('p', { priorityClassName: 'high' }))).json;
  const { priority: _p, preemptionPolicy: _pp, ...spec } = created.spec;
  const kept = await h.put(`${PODS}/p`, { ...created, metadata: { ...created.metadata, labels: { a: 'b' } }, spec });
  assert.is(kept.status, 200, kept.text);
  assert.equal([kept.json.spec.priority, kept.json.spec.preemptionPolicy, kept.json.metadata.labels], [1000, 'PreemptLowerPriority', { a: 'b' }]);
  const changed = await h.put(`${PODS}/p`, { ...kept.json, spec: { ...kept.json.spec, priority: 5 } });
  assert.is(changed.status, 422, changed.text);
});

test('the system classes exist from the start, serve pods in any namespace, and cannot be deleted', async () => {
  const h = await startServer();
  const list = (await h.get(CLASSES)).json.items.map((c: any) => [c.metadata.name, c.value, c.preemptionPolicy, c.globalDefault]);
  assert.equal(list, [['system-cluster-critical', 2000000000, 'PreemptLowerPriority', undefined], ['system-node-critical', 2000001000, 'PreemptLowerPriority', undefined]]);
  const critical = await h.post(PODS, pod('agent', { priorityClassName: 'system-node-critical' }));
  assert.is(critical.json.spec.priority, 2000001000);
  const del = await h.del(`${CLASSES}/system-node-critical`);
  assert.is(forbidden(del), 'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted');
  assert.equal(del.json.details, { name: 'system-node-critical', group: 'scheduling.k8s.io', kind: 'priorityclasses' });
  assert.is((await h.get(`${CLASSES}/system-node-critical`)).status, 200);
});

test('PriorityClass rules: user values up to one billion, system- names reserved, one global default, value and policy immutable', async () => {
  const h = await startServer();
  assert.equal(causes(await h.post(CLASSES, priorityClass('huge', 1_000_000_001))),
    ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']);
  assert.equal(causes(await h.post(CLASSES, priorityClass('system-mine', 5))),
    ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"]);
  assert.equal(causes(await h.post(CLASSES, priorityClass('odd', 5, { preemptionPolicy: 'Sometimes' }))),
    ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']);
  const first = await h.post(CLASSES, priorityClass('first', 10, { globalDefault: true }));
  assert.equal([first.status, first.json.preemptionPolicy], [201, 'PreemptLowerPriority']);
  assert.is(forbidden(await h.post(CLASSES, priorityClass('second', 20, { globalDefault: true }))),
    'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist');
  const relabel = await h.put(`${CLASSES}/first`, { ...first.json, description: 'still the default' });
  assert.is(relabel.status, 200, 'the default itself may be updated');
  assert.equal(causes(await h.put(`${CLASSES}/first`, { ...relabel.json, value: 11, preemptionPolicy: 'Never' })),
    ['value: Forbidden: may not be changed in an update.', 'preemptionPolicy: Invalid value: "Never": field is immutable']);
});

test('kubectl get priorityclasses prints NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY', async () => {
  const h = await startServer();
  await h.post(CLASSES, priorityClass('high', 1000, { globalDefault: true, preemptionPolicy: 'Never' }));
  const t = (await h.get(`${CLASSES}/high`, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).json;
  assert.equal(t.columnDefinitions.map((c: any) => [c.name, c.type]),
    [['Name', 'string'], ['Value', 'integer'], ['Global-Default', 'boolean'], ['Age', 'string'], ['PreemptionPolicy', 'string']]);
  assert.equal(t.rows[0].cells, ['high', 1000, true, '0s', 'Never']);
});

test('with the Priority plugin disabled, pods get no priority at all', async () => {
  const h = await startServer({ disableAdmissionPlugins: ['Priority'] });
  const r = await h.post(PODS, pod('p', { priorityClassName: 'unknown' }));
  assert.is(r.status, 201, r.text);
  assert.equal([r.json.spec.priority, r.json.spec.preemptionPolicy], [undefined, undefined]);
});

test.run();
