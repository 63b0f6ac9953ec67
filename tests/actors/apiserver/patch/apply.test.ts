import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { StatusError } from '../../../../actors/api/status.ts';
import type { KObject, ManagedFieldsEntry } from '../../../../actors/api/types.ts';
import { applyPatch, recordUpdate, type ApplyOptions } from '../../../../actors/apiserver/patch/apply.ts';
import { deepFreeze } from './deep-freeze.ts';

const T0 = '2024-05-01T10:00:00Z';
const T1 = '2024-05-01T11:00:00Z';

const apply = (live: KObject | undefined, applied: KObject, opts: Partial<ApplyOptions> = {}) =>
  applyPatch(live && deepFreeze(live), deepFreeze(applied), { manager: 'kubectl', force: false, model: 'V1Pod', apiVersion: 'v1', now: T0, ...opts });

const update = (oldObj: KObject | undefined, newObj: KObject, manager: string, now = T0) =>
  recordUpdate(oldObj && deepFreeze(oldObj), deepFreeze(newObj), { manager, model: 'V1Pod', apiVersion: 'v1', now });

function pod(labels: Record<string, string>, containers: object[]): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', labels }, spec: { containers } };
}

function deployment(spec: object): KObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec };
}

const entry = (obj: KObject, manager: string): ManagedFieldsEntry | undefined => obj.metadata.managedFields?.find((m) => m.manager === manager);

function conflictOf(run: () => unknown): StatusError {
  try {
    run();
  } catch (e) {
    return e as StatusError;
  }
  throw new Error('expected a conflict');
}

const without = (obj: KObject): object => ({ ...obj, metadata: { ...obj.metadata, managedFields: undefined } });

test('creating through apply stores the configuration and one Apply entry owning what it set', () => {
  const out = apply(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }]));
  assert.equal(without(out), without(pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }])));
  assert.equal(out.metadata.managedFields, [
    {
      manager: 'kubectl',
      operation: 'Apply',
      apiVersion: 'v1',
      time: T0,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
      },
    },
  ]);
});

test('re-applying a changed value updates the object and the entry time', () => {
  const first = apply(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }]));
  const second = apply(first, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:2' }]), { now: T1 });
  assert.equal((second.spec as { containers: object[] }).containers, [{ name: 'c', image: 'nginx:2' }]);
  assert.is(second.metadata.managedFields?.length, 1);
  assert.is(entry(second, 'kubectl')?.time, T1);
});

test('re-applying the same configuration keeps the entry time', () => {
  const first = apply(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }]));
  const again = apply(first, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }]), { now: T1 });
  assert.equal(again, first);
});

test('fields dropped from the applied configuration are removed from the object', () => {
  const first = apply(undefined, pod({ app: 'web', tier: 'front' }, [{ name: 'a', image: 'a' }, { name: 'b', image: 'b', args: ['x'] }]));
  const second = apply(first, pod({ app: 'web' }, [{ name: 'b', image: 'b' }]));
  assert.equal(second.metadata.labels, { app: 'web' });
  assert.equal((second.spec as { containers: object[] }).containers, [{ name: 'b', image: 'b' }]);
  assert.equal(entry(second, 'kubectl')?.fieldsV1, {
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': { 'f:containers': { 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
  });
});

test('dropping every label removes the labels map itself', () => {
  const first = apply(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'i' }]));
  const applied = pod({}, [{ name: 'c', image: 'i' }]);
  delete applied.metadata.labels;
  assert.not.ok('labels' in apply(first, applied).metadata);
});

test('a dropped field that another manager also owns stays', () => {
  const first = apply(undefined, pod({ app: 'web', tier: 'front' }, [{ name: 'c', image: 'i' }]));
  const shared = apply(first, pod({ tier: 'front' }, [{ name: 'c', image: 'i' }]), { manager: 'other' });
  const labelled = update(shared, { ...shared, metadata: { ...shared.metadata, labels: { ...shared.metadata.labels, team: 'x' } } }, 'kubectl-label');
  const out = apply(labelled, pod({ app: 'web' }, [{ name: 'c', image: 'i' }]));
  assert.equal(out.metadata.labels, { app: 'web', tier: 'front', team: 'x' });
});

test('two appliers setting different values conflict: 409 with the apimachinery message and causes', () => {
  const a = apply(undefined, deployment({ replicas: 3 }), { manager: 'a', model: 'V1Deployment', apiVersion: 'apps/v1' });
  const e = conflictOf(() => apply(a, deployment({ replicas: 5 }), { manager: 'b', model: 'V1Deployment', apiVersion: 'apps/v1' }));
  assert.is(e.code, 409);
  assert.is(e.reason, 'Conflict');
  assert.is(e.status.message, 'Apply failed with 1 conflict: conflict with "a": .spec.replicas');
  assert.equal(e.status.details, { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.replicas' }] });
});

test('several conflicts are grouped by manager, in manager order', () => {
  let live = apply(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }]), { manager: 'zeta' });
  live = update(live, { ...live, metadata: { ...live.metadata, labels: { app: 'web', tier: 'x' } } }, 'alpha');
  const e = conflictOf(() => apply(live, pod({ app: 'api', tier: 'y' }, [{ name: 'c', image: 'nginx:2' }])));
  assert.is(
    e.status.message,
    'Apply failed with 3 conflicts: conflicts with "alpha" using v1:\n- .metadata.labels.tier\nconflicts with "zeta":\n- .metadata.labels.app\n- .spec.containers[name="c"].image',
  );
  assert.equal(e.status.details?.causes?.map((c) => c.field), ['.metadata.labels.tier', '.metadata.labels.app', '.spec.containers[name="c"].image']);
});

test('applying the value another manager set is not a conflict: both own the field', () => {
  const a = apply(undefined, deployment({ replicas: 3 }), { manager: 'a', model: 'V1Deployment', apiVersion: 'apps/v1' });
  const b = apply(a, deployment({ replicas: 3 }), { manager: 'b', model: 'V1Deployment', apiVersion: 'apps/v1' });
  assert.equal(entry(b, 'a')?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  assert.equal(entry(b, 'b')?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
});

test('force takes the conflicting field from the other manager', () => {
  const opts = { model: 'V1Deployment', apiVersion: 'apps/v1' };
  const a = apply(undefined, deployment({ replicas: 3, paused: false }), { manager: 'a', ...opts });
  const b = apply(a, deployment({ replicas: 5 }), { manager: 'b', force: true, ...opts });
  assert.is((b.spec as { replicas: number }).replicas, 5);
  assert.equal(entry(b, 'a')?.fieldsV1, { 'f:spec': { 'f:paused': {} } });
  assert.equal(entry(b, 'b')?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
});

test('a field taken entirely leaves the old manager without an entry', () => {
  const opts = { model: 'V1Deployment', apiVersion: 'apps/v1' };
  const a = apply(undefined, deployment({ replicas: 3 }), { manager: 'a', ...opts });
  const b = apply(a, deployment({ replicas: 5 }), { manager: 'b', force: true, ...opts });
  assert.equal(b.metadata.managedFields?.map((m) => m.manager), ['b']);
});

test('kubectl create then apply of a different label value conflicts with kubectl-create', () => {
  const created = update(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }]), 'kubectl-create');
  assert.equal(entry(created, 'kubectl-create'), {
    manager: 'kubectl-create',
    operation: 'Update',
    apiVersion: 'v1',
    time: T0,
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
    },
  });
  const e = conflictOf(() => apply(created, pod({ app: 'api' }, [{ name: 'c', image: 'nginx:1' }])));
  assert.is(e.status.message, 'Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .metadata.labels.app');
  assert.equal(e.status.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-create" using v1', field: '.metadata.labels.app' }]);
});

test('kubectl create then apply of the same values succeeds and shares ownership', () => {
  const created = update(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }]), 'kubectl-create');
  const applied = apply(created, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }]), { now: T1 });
  assert.equal(applied.metadata.managedFields?.map((m) => [m.manager, m.operation]), [['kubectl', 'Apply'], ['kubectl-create', 'Update']]);
});

test('an update takes the fields it changes from the other managers', () => {
  const applied = apply(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }]));
  const set = update(applied, { ...applied, spec: { containers: [{ name: 'c', image: 'nginx:9' }] } }, 'kubectl-set', T1);
  assert.equal(entry(set, 'kubectl-set')?.fieldsV1, { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { 'f:image': {} } } } });
  assert.equal(entry(set, 'kubectl')?.fieldsV1, {
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {} } } },
  });
  const e = conflictOf(() => apply(set, pod({ app: 'web' }, [{ name: 'c', image: 'nginx:1' }])));
  assert.is(e.status.message, 'Apply failed with 1 conflict: conflict with "kubectl-set" using v1: .spec.containers[name="c"].image');
});

test('an update that changes nothing leaves managedFields as they were', () => {
  const created = update(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'i' }]), 'kubectl-create');
  assert.equal(update(created, created, 'kubectl-edit', T1), created);
});

test('status is not owned through the main resource, spec not through status', () => {
  const created = update(undefined, { ...pod({}, [{ name: 'c', image: 'i' }]), status: { phase: 'Pending' } }, 'kubectl-create');
  assert.not.ok('f:status' in (entry(created, 'kubectl-create')?.fieldsV1 ?? {}));
  const running = recordUpdate(deepFreeze(created), deepFreeze({ ...created, status: { phase: 'Running' } }), {
    manager: 'kubelet',
    model: 'V1Pod',
    apiVersion: 'v1',
    now: T1,
    subresource: 'status',
  });
  assert.equal(entry(running, 'kubelet'), {
    manager: 'kubelet',
    operation: 'Update',
    apiVersion: 'v1',
    time: T1,
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:status': { 'f:phase': {} } },
    subresource: 'status',
  });
});

test('managedFields: [] in a write clears the record', () => {
  const created = update(undefined, pod({ app: 'web' }, [{ name: 'c', image: 'i' }]), 'kubectl-create');
  const cleared = update(created, { ...created, metadata: { ...created.metadata, managedFields: [] } }, 'kubectl-edit');
  assert.not.ok('managedFields' in cleared.metadata);
});

test('an applied object carrying managedFields answers 400', () => {
  const applied = { ...pod({}, []), metadata: { name: 'p', managedFields: [] } };
  const e = conflictOf(() => apply(undefined, applied));
  assert.is(e.code, 400);
  assert.is(e.status.message, 'metadata.managedFields must be nil');
});

test('an applied object of another version or kind answers 400', () => {
  const e = conflictOf(() => apply(undefined, pod({}, []), { apiVersion: 'apps/v1', model: 'V1Deployment' }));
  assert.is(e.code, 400);
  assert.is(e.status.message, 'invalid object type: /v1, Kind=Pod');
  const k = conflictOf(() => apply(undefined, pod({}, []), { kind: 'Service' }));
  assert.is(k.status.message, 'invalid object type: /v1, Kind=Pod');
});

test('custom kinds without a model are applied untyped: maps merge, lists are replaced whole', () => {
  const widget = (spec: object): KObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', labels: { a: 'b' } }, spec });
  const opts = { model: 'ExampleComV1Widget', apiVersion: 'example.com/v1' };
  const first = apply(undefined, widget({ size: 1, tags: ['a'], nested: { x: 1 } }), opts);
  // Untyped map entries are members themselves (structured-merge-diff's deduced schema); metadata stays ObjectMeta.
  assert.equal(entry(first, 'kubectl')?.fieldsV1, {
    'f:metadata': { 'f:labels': { 'f:a': {} } },
    'f:spec': { '.': {}, 'f:nested': { '.': {}, 'f:x': {} }, 'f:size': {}, 'f:tags': {} },
  });
  const second = apply(first, widget({ tags: ['b'], nested: { y: 2 } }), opts);
  assert.equal(second.spec, { tags: ['b'], nested: { y: 2 } });
});

test.run();
