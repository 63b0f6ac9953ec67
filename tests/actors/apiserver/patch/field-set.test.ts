import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FieldSet, pathString } from '../../../../actors/apiserver/patch/field-set.ts';
import { deepFreeze } from './deep-freeze.ts';

const stored = {
  'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
  'f:spec': {
    'f:containers': {
      'k:{"name":"c"}': {
        '.': {},
        'f:image': {},
        'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
      },
    },
  },
};

test('FieldsV1 reads and writes back unchanged', () => {
  assert.equal(FieldSet.fromFieldsV1(deepFreeze(structuredClone(stored))).toFieldsV1(), stored);
});

test('paths list members only, a node before its descendants, field names before keys', () => {
  const paths = FieldSet.fromFieldsV1(stored).paths().map(pathString);
  assert.equal(paths, [
    '.metadata.labels',
    '.metadata.labels.app',
    '.spec.containers[name="c"]',
    '.spec.containers[name="c"].image',
    '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"]',
    '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].containerPort',
  ]);
});

test('key elements written with other key order or spacing name the same item', () => {
  const other = FieldSet.fromFieldsV1({ 'f:spec': { 'f:ports': { 'k:{ "protocol": "TCP", "containerPort": 80 }': {} } } });
  assert.ok(other.has(['f:spec', 'f:ports', 'k:{"containerPort":80,"protocol":"TCP"}']));
});

test('set operations are member-wise; covers sees prefixes', () => {
  const a = FieldSet.of([['f:spec', 'f:replicas'], ['f:spec', 'f:paused']]);
  const b = FieldSet.of([['f:spec', 'f:replicas']]);
  assert.equal(a.difference(b).toFieldsV1(), { 'f:spec': { 'f:paused': {} } });
  assert.equal(a.intersection(b).toFieldsV1(), { 'f:spec': { 'f:replicas': {} } });
  assert.equal(b.union(FieldSet.of([['f:metadata', 'f:labels', 'f:x']])).toFieldsV1(), {
    'f:metadata': { 'f:labels': { 'f:x': {} } },
    'f:spec': { 'f:replicas': {} },
  });
  assert.ok(a.covers(['f:spec']));
  assert.not.ok(a.covers(['f:status']));
  assert.ok(FieldSet.of([]).isEmpty());
});

test('set items and atomic indices print as structured-merge-diff prints them', () => {
  assert.is(pathString(['f:metadata', 'f:finalizers', 'v:"example.com/x"']), '.metadata.finalizers[="example.com/x"]');
  assert.is(pathString(['f:spec', 'f:args', 'i:2']), '.spec.args[2]');
});

test.run();
