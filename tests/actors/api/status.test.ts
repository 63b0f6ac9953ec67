import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { conflict, invalid, notFound, success } from '../../../actors/api/status.ts';

test('a missing core object is named by its plural and name, with code 404', () => {
  const e = notFound({ group: '', resource: 'pods', name: 'x' });
  assert.is(e.code, 404);
  assert.is(e.status.reason, 'NotFound');
  assert.is(e.status.message, 'pods "x" not found');
  assert.equal(e.status.details, { name: 'x', group: '', kind: 'pods' });
});

test('a conflict on a grouped resource names resource.group', () => {
  const e = conflict({ group: 'apps', resource: 'deployments', name: 'web' });
  assert.is(e.code, 409);
  assert.match(e.message, /^Operation cannot be fulfilled on deployments.apps "web": the object has been modified/);
});

test('an Invalid error names the Kind and lists every cause', () => {
  const e = invalid('', 'Pod', 'p', [{ reason: 'FieldValueRequired', field: 'spec.containers', message: 'Required value' },
    { reason: 'FieldValueRequired', field: 'metadata.namespace', message: 'Required value' }]);
  assert.is(e.code, 422);
  assert.is(e.status.message, 'Pod "p" is invalid: [spec.containers: Required value, metadata.namespace: Required value]');
  assert.is(e.status.details?.kind, 'Pod');
});

test('an Invalid error on a grouped kind names Kind.group in its message and the bare Kind in its details', () => {
  const e = invalid('apps', 'ControllerRevision', 'r1', [{ reason: 'FieldValueRequired', field: 'revision', message: 'Required value' }]);
  assert.is(e.status.message, 'ControllerRevision.apps "r1" is invalid: revision: Required value');
  assert.is(e.status.details?.kind, 'ControllerRevision');
  assert.is(e.status.details?.group, 'apps');
});

test('a success Status carries no code unless one is given', () => {
  assert.not.ok('code' in success());
  assert.is(success(undefined, 201).code, 201);
});

test.run();
