// A request body handed over in process must be exactly what its JSON text would parse to, and
// anything the text route treats otherwise must be refused, so the caller encodes it as text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonCopy } from '../../../actors/api/json-copy.ts';

const roundTrip = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
const bare = Object.assign(Object.create(null) as object, { a: 1, b: 'x' });

const SAME_AS_TEXT: [string, unknown][] = [
  ['a pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] } }],
  ['undefined members dropped', { a: undefined, b: 1, c: { d: undefined } }],
  ['undefined, function and symbol items as null', [undefined, () => 1, Symbol('s'), 2]],
  ['function and symbol members dropped', { f: () => 1, s: Symbol('s'), n: 0 }],
  ['non-finite numbers as null', { nan: NaN, inf: Infinity, neg: -Infinity, list: [NaN] }],
  ['minus zero as zero', { z: -0 }],
  ['holes as null', sparse],
  ['integer-like keys in enumeration order', { b: 1, 2: 'two', a: 3, 1: 'one' }],
  ['a null-prototype object', bare],
  ['a lone surrogate', { s: '\ud800x' }],
  ['scalars', ['text', 12.5, true, false, null]],
  ['a string', 'just text'],
];

for (const [name, value] of SAME_AS_TEXT) {
  test(`jsonCopy: ${name} copies as JSON.parse(JSON.stringify(v))`, () => {
    const copy = jsonCopy(value);
    assert.equal(copy, roundTrip(value));
    assert.is(JSON.stringify(copy), JSON.stringify(value));
    if (name === 'minus zero as zero') assert.ok(Object.is((copy as { z: number }).z, 0));
  });
}

class Box {
  constructor(readonly x = 1) {}
}
const cycle: Record<string, unknown> = { a: 1 };
cycle.self = cycle;
let deep: unknown = 'leaf';
for (let i = 0; i < 1_000; i++) deep = { d: deep };

const REFUSED: [string, unknown][] = [
  ['a Date (toJSON)', { when: new Date(0) }],
  ['an object with its own toJSON', { toJSON: () => 'x' }],
  ['a class instance', { box: new Box() }],
  ['a Map', { m: new Map([[1, 2]]) }],
  ['a bigint', { n: 1n }],
  ['a typed array', { bytes: new Uint8Array(2) }],
  ['an own __proto__ key', JSON.parse('{"__proto__": {"polluted": true}}')],
  ['a cycle', cycle],
  ['nesting past the limit', deep],
  ['a top-level function', () => 1],
  ['undefined', undefined],
];

for (const [name, value] of REFUSED) {
  test(`jsonCopy: refuses ${name}`, () => {
    assert.is(jsonCopy(value), undefined);
  });
}

test('jsonCopy: the copy shares nothing with the original', () => {
  const original = { metadata: { labels: { a: 'b' } }, spec: { list: [{ x: 1 }] } };
  const copy = jsonCopy(original) as typeof original;
  copy.metadata.labels.a = 'changed';
  copy.spec.list[0]!.x = 2;
  copy.spec.list.push({ x: 3 });
  assert.equal(original, { metadata: { labels: { a: 'b' } }, spec: { list: [{ x: 1 }] } });
});

test('jsonCopy: maxDepth counts levels of objects and arrays', () => {
  const three = { a: [{ b: 1 }] };
  assert.equal(jsonCopy(three, 3), three);
  assert.is(jsonCopy(three, 2), undefined);
  assert.is(jsonCopy('scalar', 0), 'scalar');
});

test.run();
