import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Json } from '../../../../actors/api/types.ts';
import { applyMergePatch } from '../../../../actors/apiserver/patch/merge-patch.ts';
import { deepFreeze } from './deep-freeze.ts';

// RFC 7386 Appendix A, every row: [original, patch, result].
const examples: [Json, Json, Json][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

examples.forEach(([original, patch, result], i) => {
  test(`RFC 7386 example ${i + 1} gives the RFC's result`, () => {
    assert.equal(applyMergePatch(deepFreeze(original), deepFreeze(patch)), result);
  });
});

test('labels patched the way kubectl label sends them merge into metadata', () => {
  const pod = deepFreeze({ metadata: { name: 'p', labels: { app: 'web', tier: 'front' } }, spec: { nodeName: 'n1' } });
  const out = applyMergePatch(pod, deepFreeze({ metadata: { labels: { tier: null, team: 'a' } } }));
  assert.equal(out, { metadata: { name: 'p', labels: { app: 'web', team: 'a' } }, spec: { nodeName: 'n1' } });
});

test('keys that name Object.prototype members are ordinary keys', () => {
  const out = applyMergePatch(deepFreeze({ constructor: 1 }), deepFreeze(JSON.parse('{"__proto__":{"x":1},"toString":2}') as Json));
  assert.equal(Object.keys(out as object).sort(), ['__proto__', 'constructor', 'toString']);
  assert.is(Object.getPrototypeOf(out), Object.prototype);
});

test.run();
