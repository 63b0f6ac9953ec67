import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { StatusError } from '../../../../actors/api/status.ts';
import type { Json } from '../../../../actors/api/types.ts';
import { applyStrategicMergePatch, supportsStrategicMerge } from '../../../../actors/apiserver/patch/strategic-merge-patch.ts';
import { deepFreeze } from './deep-freeze.ts';

const smp = (target: Json, patch: Json, model = 'V1Pod') => applyStrategicMergePatch(deepFreeze(target), deepFreeze(patch), model);

function failure(target: Json, patch: Json, model = 'V1Pod'): StatusError {
  try {
    smp(target, patch, model);
  } catch (e) {
    return e as StatusError;
  }
  throw new Error('expected the patch to fail');
}

const pod = (containers: Json[], metadata: Json = { name: 'p' }) => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers } });
const names = (obj: Json) => ((obj as { spec: { containers: { name: string }[] } }).spec.containers).map((c) => c.name);

test('cordon sets spec.unschedulable and uncordon (null) removes it', () => {
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: { podCIDR: '10.0.0.0/24' } };
  const cordoned = smp(node, { spec: { unschedulable: true } }, 'V1Node');
  assert.equal(cordoned, { ...node, spec: { podCIDR: '10.0.0.0/24', unschedulable: true } });
  assert.equal(smp(cordoned, { spec: { unschedulable: null } }, 'V1Node'), node);
});

test('a container is matched by name and only its image changes', () => {
  const live = pod([{ name: 'a', image: 'a:1', args: ['x'] }, { name: 'b', image: 'b:1' }]);
  assert.equal(smp(live, { spec: { containers: [{ name: 'b', image: 'b:2' }] } }), pod([{ name: 'a', image: 'a:1', args: ['x'] }, { name: 'b', image: 'b:2' }]));
});

test('client-side apply: annotation set, image changed, order kept by $setElementOrder', () => {
  const live = pod([{ name: 'c', image: 'nginx:1', imagePullPolicy: 'IfNotPresent' }], { name: 'p', annotations: { keep: 'me' } });
  const patch = {
    metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"spec":{}}' } },
    spec: { '$setElementOrder/containers': [{ name: 'c' }], containers: [{ image: 'nginx:2', name: 'c' }] },
  };
  assert.equal(
    smp(live, patch),
    pod([{ name: 'c', image: 'nginx:2', imagePullPolicy: 'IfNotPresent' }], {
      name: 'p',
      annotations: { keep: 'me', 'kubectl.kubernetes.io/last-applied-configuration': '{"spec":{}}' },
    }),
  );
});

test('$setElementOrder reorders the list, with or without a patch list for it', () => {
  const live = pod([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
  assert.equal(names(smp(live, { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }, { name: 'b' }] } })), ['c', 'a', 'b']);
  const added = smp(live, { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'd' }, { name: 'b' }, { name: 'c' }], containers: [{ name: 'd', image: 'd' }] } });
  assert.equal(names(added), ['a', 'd', 'b', 'c']);
});

test('without $setElementOrder, patched items follow the patch order and the others keep their place', () => {
  const live = pod([{ name: '1' }, { name: '2', image: 'b' }, { name: '3' }]);
  const out = smp(live, { spec: { containers: [{ name: '3', image: 'c' }, { name: '1', image: 'a' }] } });
  assert.equal(out, pod([{ name: '2', image: 'b' }, { name: '3', image: 'c' }, { name: '1', image: 'a' }]));
});

test('$setElementOrder naming an item out of order with the patch list is refused', () => {
  const e = failure(pod([{ name: 'a' }, { name: 'b' }]), {
    spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'b' }, { name: 'a' }] },
  });
  assert.is(e.code, 500);
  assert.is(e.status.reason, undefined);
  assert.match(e.status.message ?? '', /^The order in patch list:\n/);
});

test('$patch: delete removes the container with that name', () => {
  const live = pod([{ name: 'a' }, { name: 'b' }]);
  assert.equal(smp(live, { spec: { containers: [{ name: 'a', $patch: 'delete' }] } }), pod([{ name: 'b' }]));
});

test('$patch: replace on a list replaces it with the other items', () => {
  const live = pod([{ name: 'a' }, { name: 'b' }]);
  assert.equal(smp(live, { spec: { containers: [{ $patch: 'replace' }, { name: 'z', image: 'z' }] } }), pod([{ name: 'z', image: 'z' }]));
});

test('$patch on a map: replace swaps the map, delete empties it', () => {
  const live = { metadata: { name: 'p', labels: { a: '1', b: '2' } } };
  assert.equal(smp(live, { metadata: { labels: { $patch: 'replace', c: '3' } } }), { metadata: { name: 'p', labels: { c: '3' } } });
  assert.equal(smp(live, { metadata: { labels: { $patch: 'delete' } } }), { metadata: { name: 'p', labels: {} } });
});

test('null deletes a label; a null for a missing key is ignored', () => {
  const live = { metadata: { name: 'p', labels: { app: 'web', tier: 'front' } } };
  assert.equal(smp(live, { metadata: { labels: { tier: null, nothing: null } } }), { metadata: { name: 'p', labels: { app: 'web' } } });
});

test('finalizers (a merge list of strings) are a union, patch values first', () => {
  const live = { metadata: { name: 'p', finalizers: ['x', 'y'] } };
  assert.equal(smp(live, { metadata: { finalizers: ['z', 'x'] } }), { metadata: { name: 'p', finalizers: ['z', 'x', 'y'] } });
});

test('$deleteFromPrimitiveList removes values from a merge list of strings', () => {
  const live = { metadata: { name: 'p', finalizers: ['x', 'y', 'z'] } };
  assert.equal(smp(live, { metadata: { '$deleteFromPrimitiveList/finalizers': ['x', 'z'] } }), { metadata: { name: 'p', finalizers: ['y'] } });
});

test('lists without merge strategy are replaced (tolerations, args)', () => {
  const live = { spec: { tolerations: [{ key: 'a' }], containers: [{ name: 'c', args: ['1', '2'] }] } };
  const out = smp(live, { spec: { tolerations: [{ key: 'b' }], containers: [{ name: 'c', args: ['3'] }] } });
  assert.equal(out, { spec: { tolerations: [{ key: 'b' }], containers: [{ name: 'c', args: ['3'] }] } });
});

test('a list new to the object is stored without nulls, and without any item carrying $patch, as removeDirectives drops them', () => {
  const out = smp({ spec: {} }, { spec: { containers: [{ name: 'n', image: 'i', env: null }, { name: 'm', $patch: 'replace' }, { name: 'x', $patch: 'delete' }] } });
  assert.equal(out, { spec: { containers: [{ name: 'n', image: 'i' }] } });
});

test('a map new to the object that carries $patch is dropped whole; other $ keys stay for decoding to report', () => {
  const out = smp({ spec: {} }, { spec: { nodeSelector: { $patch: 'replace', disk: 'ssd' }, affinity: { $foo: 'x', nodeAffinity: null } } });
  assert.equal(out, { spec: { affinity: { $foo: 'x' } } });
});

test('$retainKeys clears the keys it does not list', () => {
  const deployment = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
  const out = smp(deployment, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, 'V1Deployment');
  assert.equal(out, { spec: { strategy: { type: 'Recreate' } } });
  const e = failure(deployment, { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } }, 'V1Deployment');
  assert.is(e.code, 400);
  assert.is(e.status.message, 'invalid patch format of retainKeys');
});

test('a list item without its merge key is a 500 without a reason, as the real server answers an unclassified patch error, Go-formatted message', () => {
  const e = failure(pod([{ name: 'a' }]), { spec: { containers: [{ image: 'nginx:2' }] } });
  assert.is(e.code, 500);
  assert.is(e.status.reason, undefined);
  assert.is(e.status.message, 'map: map[image:nginx:2] does not contain declared merge key: name');
});

test('$patch: merge on a map is an unknown patch type', () => {
  const e = failure({ metadata: {} }, { metadata: { $patch: 'merge', a: 'b' } });
  assert.is(e.status.message, 'unknown patch type: merge in map: map[$patch:merge a:b]');
});

test('a patch that is not a JSON object answers 400; null is an empty patch', () => {
  const e = failure({ a: 1 }, [1]);
  assert.is(e.code, 400);
  assert.is(e.status.message, 'json: cannot unmarshal array into Go value of type map[string]interface {}');
  assert.equal(smp({ a: 1 }, null), { a: 1 });
});

test('strategic merge is supported for built-in models only', () => {
  assert.ok(supportsStrategicMerge('V1Pod'));
  assert.ok(supportsStrategicMerge('V1Deployment'));
  assert.not.ok(supportsStrategicMerge('WidgetsExampleComV1Widget'));
});

test.run();
