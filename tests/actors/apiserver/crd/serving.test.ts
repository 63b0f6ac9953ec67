// What serving a CRD version needs beside validation: Table columns, the server-side apply shape,
// the OpenAPI components, and the names and conditions the naming controller sets.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../../actors/api/types.ts';
import { compileVersion, computeNames, findAll, parseJsonPath, type CustomResourceDefinition } from '../../../../actors/apiserver/crd/index.ts';
import { applyPatch } from '../../../../actors/apiserver/patch/apply.ts';
import { cronTab } from './fixtures.ts';

const NOW = Date.parse('2026-01-03T00:00:00Z');
const cr = (spec: Record<string, unknown>, status?: Record<string, unknown>): KObject =>
  ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'one', creationTimestamp: '2026-01-01T00:00:00Z' }, spec, ...(status ? { status } : {}) }) as KObject;

test('without printer columns a custom resource prints Name and Age', () => {
  const p = compileVersion(cronTab(), 'v1').printer;
  assert.equal(p.columns.map((c) => [c.name, c.type, c.format]), [['Name', 'string', 'name'], ['Age', 'date', '']]);
  assert.equal(p.cells(cr({}), NOW), ['one', '2d']);
});

test('printer columns follow their JSONPath and type, with priority kept', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.additionalPrinterColumns = [
    { name: 'Image', type: 'string', jsonPath: '.spec.image' },
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 1 },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'Ports', type: 'string', jsonPath: '.spec.ports[*].name' },
    { name: 'Since', type: 'date', jsonPath: '.status.since' },
    { name: 'Ok', type: 'boolean', jsonPath: '.spec.image' },
  ];
  const p = compileVersion(crd, 'v1').printer;
  assert.equal(p.columns.map((c) => [c.name, c.priority]), [['Name', 0], ['Image', 0], ['Replicas', 1], ['Ready', 0], ['Ports', 0], ['Since', 0], ['Ok', 0]]);
  assert.is(p.columns[1]!.description, 'Custom resource definition column (in JSONPath format): .spec.image');
  const status = { conditions: [{ type: 'Synced', status: 'False' }, { type: 'Ready', status: 'True' }], since: 'not a time' };
  assert.equal(p.cells(cr({ image: 'nginx', replicas: 2.7, ports: [{ name: 'http' }, { name: 'https' }] }, status), NOW), ['one', 'nginx', 2, 'True', 'http', '<invalid>', null]);
  assert.equal(p.cells(cr({}), NOW), ['one', null, null, null, null, null, null], 'missing values are empty cells');
});

test('the JSONPath reader handles escapes, quotes, slices and recursion', () => {
  const doc = { metadata: { labels: { 'app.kubernetes.io/name': 'web' } }, items: [1, 2, 3, 4], a: { b: { c: 1 }, d: [{ c: 2 }] } };
  const read = (p: string) => {
    const parsed = parseJsonPath(p);
    if ('error' in parsed) throw new Error(parsed.error);
    return findAll(parsed, doc);
  };
  assert.equal(read('.metadata.labels.app\\.kubernetes\\.io/name'), ['web']);
  assert.equal(read(".metadata.labels['app.kubernetes.io/name']"), ['web']);
  assert.equal(read('.items[1:3]'), [2, 3]);
  assert.equal(read('.items[-1]'), [4]);
  assert.equal(read('..c'), [1, 2]);
  assert.ok('error' in parseJsonPath('.items[x]'));
});

test('server-side apply merges list-type map items by their keys and sets by value', () => {
  const v = compileVersion(cronTab(), 'v1');
  const opts = { manager: 'a', force: false, model: '', apiVersion: 'stable.example.com/v1', now: '2026-01-01T00:00:00Z', shape: v.shape, statusSubresource: true };
  const live = applyPatch(undefined, cr({ ports: [{ name: 'http', port: 80 }], tags: ['x'] }), opts);
  const merged = applyPatch(live, cr({ ports: [{ name: 'https', port: 443 }], tags: ['y'] }), { ...opts, manager: 'b' });
  assert.equal((merged as unknown as { spec: unknown }).spec, { ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }], tags: ['x', 'y'] });
  const fields = merged.metadata.managedFields?.find((m) => m.manager === 'b')?.fieldsV1 as Record<string, Record<string, Record<string, unknown>>>;
  assert.ok(fields['f:spec']!['f:ports']!['k:{"name":"https"}'], JSON.stringify(fields));
  assert.ok(fields['f:spec']!['f:tags']!['v:"y"'], JSON.stringify(fields));
});

test('the OpenAPI components carry the schema, type meta and group-version-kind', () => {
  const c = compileVersion(cronTab(), 'v1').openAPIComponents() as Record<string, Record<string, unknown>>;
  assert.equal(Object.keys(c), ['com.example.stable.v1.CronTab', 'com.example.stable.v1.CronTabList']);
  const kind = c['com.example.stable.v1.CronTab']!;
  assert.equal(kind['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
  const props = kind.properties as Record<string, Record<string, unknown>>;
  assert.equal(Object.keys(props), ['spec', 'status', 'apiVersion', 'kind', 'metadata']);
  assert.equal(props.metadata!.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
  const list = c['com.example.stable.v1.CronTabList']!;
  assert.equal((list.properties as Record<string, Record<string, unknown>>).items!.items, { $ref: '#/components/schemas/com.example.stable.v1.CronTab' });
});

const named = (name: string, plural: string, kind: string, shortNames: string[] = [], accepted = false): CustomResourceDefinition => {
  const crd = cronTab();
  crd.metadata.name = `${plural}.stable.example.com`;
  crd.spec.names = { plural, singular: plural.replace(/s$/, ''), kind, listKind: `${kind}List`, shortNames };
  if (accepted) crd.status = { acceptedNames: crd.spec.names, conditions: [] };
  return { ...crd, metadata: { ...crd.metadata, name } };
};

test('names another CRD of the group accepted are conflicts; fresh names are accepted and the CRD established', () => {
  const first = named('crontabs.stable.example.com', 'crontabs', 'CronTab', ['ct'], true);
  const fresh = named('jobs.stable.example.com', 'jobs', 'Job', ['jb']);
  const ok = computeNames(fresh, [first, fresh]);
  assert.equal(ok.namesAccepted, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
  assert.equal(ok.established, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  assert.equal(ok.acceptedNames.shortNames, ['jb']);
  const clash = named('other.stable.example.com', 'others', 'Other', ['ct']);
  const bad = computeNames(clash, [first, clash]);
  assert.equal(bad.namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'ShortNamesConflict', message: '"ct" is already in use' });
  assert.equal(bad.established, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
  // Kind and listKind both clash: the controller keeps the last conflict it found.
  const kindClash = computeNames(named('x.stable.example.com', 'xs', 'CronTab'), [first]);
  assert.equal(kindClash.namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'ListKindConflict', message: '"CronTabList" is already in use' });
  assert.is(kindClash.acceptedNames.kind, '', 'a conflicting kind is not accepted');
});

test.run();
