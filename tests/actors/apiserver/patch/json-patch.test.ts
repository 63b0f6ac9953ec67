import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { StatusError } from '../../../../actors/api/status.ts';
import type { Json } from '../../../../actors/api/types.ts';
import { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS } from '../../../../actors/apiserver/patch/json-patch.ts';
import { deepFreeze } from './deep-freeze.ts';

const apply = (target: Json, ops: Json) => applyJsonPatch(deepFreeze(target), deepFreeze(ops));

function failure(target: Json, ops: Json): StatusError {
  try {
    apply(target, ops);
  } catch (e) {
    return e as StatusError;
  }
  throw new Error('expected the patch to fail');
}

function assertNotApplicable(target: Json, ops: Json) {
  const e = failure(target, ops);
  assert.is(e.code, 422);
  assert.is(e.reason, 'Invalid');
  assert.is(e.status.message, 'the server rejected our request due to an error in our request');
  assert.equal(e.status.details, {});
}

// RFC 6902 Appendix A.
test('A.1 adding an object member', () => {
  assert.equal(apply({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }]), { baz: 'qux', foo: 'bar' });
});

test('A.2 adding an array element', () => {
  assert.equal(apply({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }]), { foo: ['bar', 'qux', 'baz'] });
});

test('A.3 removing an object member', () => {
  assert.equal(apply({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }]), { foo: 'bar' });
});

test('A.4 removing an array element', () => {
  assert.equal(apply({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }]), { foo: ['bar', 'baz'] });
});

test('A.5 replacing a value', () => {
  assert.equal(apply({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }]), { baz: 'boo', foo: 'bar' });
});

test('A.6 moving a value', () => {
  const doc = { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } };
  assert.equal(apply(doc, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }]), {
    foo: { bar: 'baz' },
    qux: { corge: 'grault', thud: 'fred' },
  });
});

test('A.7 moving an array element', () => {
  assert.equal(apply({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }]), {
    foo: ['all', 'cows', 'eat', 'grass'],
  });
});

test('A.8 a passing test leaves the document as it was', () => {
  const doc = { baz: 'qux', foo: ['a', 2, 'c'] };
  assert.equal(apply(doc, [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }]), doc);
});

test('A.9 a failing test answers 422 Invalid with the fixed apiserver message', () => {
  assertNotApplicable({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]);
});

test('A.10 adding a nested member object', () => {
  assert.equal(apply({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }]), { foo: 'bar', child: { grandchild: {} } });
});

test('A.11 unrecognised members of an operation are ignored', () => {
  assert.equal(apply({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }]), { foo: 'bar', baz: 'qux' });
});

test('A.12 adding under a missing parent answers 422', () => {
  assertNotApplicable({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]);
});

test('A.14 ~01 decodes to ~1, not to /', () => {
  const doc = { '/': 9, '~1': 10 };
  assert.equal(apply(doc, [{ op: 'test', path: '/~01', value: 10 }]), doc);
});

test('A.15 a string never tests equal to a number', () => {
  assertNotApplicable({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]);
});

test('A.16 - appends to an array', () => {
  assert.equal(apply({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }]), { foo: ['bar', ['abc', 'def']] });
});

test('~1 in a path addresses a key containing a slash (annotations)', () => {
  const pod = { metadata: { annotations: { 'example.com/owner': 'a' } } };
  assert.equal(apply(pod, [{ op: 'replace', path: '/metadata/annotations/example.com~1owner', value: 'b' }]), {
    metadata: { annotations: { 'example.com/owner': 'b' } },
  });
});

test('operations apply in order and a later failure discards the earlier ones', () => {
  const doc = deepFreeze({ a: 1 });
  assertNotApplicable(doc, [{ op: 'add', path: '/b', value: 2 }, { op: 'remove', path: '/missing' }]);
  assert.equal(doc, { a: 1 });
});

test('removing a missing key, an index out of range, or a copy from nowhere answers 422', () => {
  assertNotApplicable({ a: 1 }, [{ op: 'remove', path: '/b' }]);
  assertNotApplicable({ a: [1] }, [{ op: 'remove', path: '/a/1' }]);
  assertNotApplicable({ a: [1] }, [{ op: 'add', path: '/a/3', value: 2 }]);
  assertNotApplicable({ a: [1] }, [{ op: 'replace', path: '/a/1', value: 2 }]);
  assertNotApplicable({ a: 1 }, [{ op: 'copy', from: '/b', path: '/c' }]);
  assertNotApplicable({ a: 1 }, [{ op: 'move', from: '/b', path: '/c' }]);
});

test('an unknown op, or an op without path, cannot apply: 422 as json-patch v4 reports it at apply time', () => {
  assertNotApplicable({ a: 1 }, [{ op: 'frobnicate', path: '/a' }]);
  assertNotApplicable({ a: 1 }, [{ path: '/a' }]);
  assertNotApplicable({ a: 1 }, [{ op: 'add', value: 1 }]);
  assertNotApplicable({ a: 1 }, [{ op: 'move', path: '/b' }]);
  assertNotApplicable({ a: 1 }, [{ op: 'add', path: 'a', value: 1 }]);
  assertNotApplicable({ a: 1 }, [{ op: 'add', path: '', value: 1 }]);
});

test('a body that is not an array of objects answers 400 with Go\'s decoding message', () => {
  let e = failure({ a: 1 }, { op: 'add', path: '/a', value: 1 });
  assert.is(e.code, 400);
  assert.is(e.reason, 'BadRequest');
  assert.is(e.status.message, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  e = failure({ a: 1 }, ['add']);
  assert.is(e.code, 400);
  assert.is(e.status.message, 'json: cannot unmarshal string into Go value of type jsonpatch.Operation');
});

test('json-patch v4 quirks: replace of a missing key adds it, a missing value is null, negative indices count from the end', () => {
  assert.equal(apply({ metadata: {} }, [{ op: 'replace', path: '/metadata/labels', value: { a: 'b' } }]), { metadata: { labels: { a: 'b' } } });
  assert.equal(apply({ a: 1 }, [{ op: 'add', path: '/b' }]), { a: 1, b: null });
  assert.equal(apply({ a: [1, 2, 3] }, [{ op: 'remove', path: '/a/-1' }]), { a: [1, 2] });
});

test('a null body is an empty patch', () => {
  assert.equal(apply({ a: 1 }, null), { a: 1 });
});

test('more operations than the server allows answers 413', () => {
  const ops = Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/a', value: 1 }));
  const e = failure({ a: 1 }, ops);
  assert.is(e.code, 413);
  assert.is(e.reason, 'RequestEntityTooLarge');
});

test('the patched document is a copy: values taken from the patch or moved are not shared', () => {
  const value = deepFreeze({ nested: { x: 1 } });
  const ops = deepFreeze<Json>([
    { op: 'add', path: '/v', value },
    { op: 'copy', from: '/v', path: '/w' },
    { op: 'add', path: '/v/nested/y', value: 2 },
  ]);
  const out = applyJsonPatch(deepFreeze({ a: 1 }), ops) as { v: { nested: object }; w: { nested: object } };
  assert.equal(out.v, { nested: { x: 1, y: 2 } });
  assert.equal(out.w, { nested: { x: 1 } });
});

test.run();
