import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { contextJson } from '../../../sim/inspector/context-json.ts';

test('plain data stays as it is; Maps become objects, Sets arrays, non-finite numbers text', () => {
  assert.equal(contextJson({ a: 1, b: 'x', c: [true, null], d: undefined, e: new Map([['k', 2]]), f: new Set([3]), g: Infinity }),
    { a: 1, b: 'x', c: [true, null], e: { k: 2 }, f: [3], g: 'Infinity' });
});

test('functions and services show by name; a class with data shows its data', () => {
  class Stream { next() { return 0; } }
  class Point { constructor(readonly x: number) {} }
  const random = { next: () => 0, fork: () => random };
  assert.equal(contextJson({ now: function now() { return 1; }, random, stream: new Stream(), p: new Point(2) }),
    { now: '[function now]', random: '[service: next, fork]', stream: '[Stream]', p: { x: 2 } });
});

test('cycles, deep nesting and long arrays are cut short, saying so', () => {
  const loop: Record<string, unknown> = {};
  loop.self = loop;
  assert.equal(contextJson(loop), { self: '[cycle]' });
  assert.equal(contextJson({ a: { b: { c: { d: { e: { f: { g: 1 } } } } } } }), { a: { b: { c: { d: { e: { f: '[…]' } } } } } });
  const long = contextJson(Array.from({ length: 205 }, (_, i) => i)) as unknown[];
  assert.is(long.length, 201);
  assert.is(long[200], '[5 more]');
});

test('a shared object seen twice (not a cycle) is shown twice', () => {
  const shared = { n: 1 };
  assert.equal(contextJson({ a: shared, b: shared }), { a: { n: 1 }, b: { n: 1 } });
});

test.run();
