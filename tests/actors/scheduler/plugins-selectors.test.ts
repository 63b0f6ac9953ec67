// Structured label selectors as pod affinity and topology spread carry them, and node selector
// requirements with Gt and Lt: the protocol's semantics and its errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileLabelSelector, compileNodeSelectorRequirements, InvalidSelectorError } from '../../../actors/scheduler/label-selector.ts';

const web = { app: 'web', tier: 'front' };
const db = { app: 'db' };

test('a missing selector selects nothing and an empty one everything', () => {
  const nothing = compileLabelSelector(undefined);
  const everything = compileLabelSelector({});
  assert.equal([nothing.matches(web), nothing.nothing, nothing.everything], [false, true, false]);
  assert.equal([everything.matches({}), everything.nothing, everything.everything], [true, false, true]);
  assert.ok(compileLabelSelector(null).nothing);
});

test('matchLabels and matchExpressions are ANDed', () => {
  const s = compileLabelSelector({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }] });
  assert.equal([s.matches(web), s.matches({ app: 'web' }), s.matches(db)], [true, false, false]);
  const notIn = compileLabelSelector({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] });
  assert.equal([notIn.matches(web), notIn.matches(db)], [false, true], 'NotIn matches a missing key');
  const exists = compileLabelSelector({ matchExpressions: [{ key: 'tier', operator: 'Exists' }] });
  const absent = compileLabelSelector({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] });
  assert.equal([exists.matches(web), exists.matches(db), absent.matches(web), absent.matches(db)], [true, false, false, true]);
});

test('inherited object members are not labels', () => {
  const s = compileLabelSelector({ matchExpressions: [{ key: 'constructor', operator: 'Exists' }] });
  assert.is(s.matches({}), false);
});

test('extra labels narrow the selector, and equal selectors have equal texts', () => {
  const base = { matchLabels: { app: 'web' } };
  const narrowed = compileLabelSelector(base, { rev: '2' });
  assert.equal([narrowed.matches({ app: 'web', rev: '2' }), narrowed.matches({ app: 'web', rev: '1' })], [true, false]);
  const a = compileLabelSelector({ matchLabels: { b: '1', a: '2' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }] });
  const b = compileLabelSelector({ matchExpressions: [{ key: 'c', operator: 'In', values: ['x', 'y'] }, { key: 'a', operator: 'In', values: ['2'] }], matchLabels: { b: '1' } });
  assert.is(a.text, b.text);
  assert.is.not(a.text, narrowed.text);
});

test('malformed requirements throw InvalidSelectorError', () => {
  const bad = [
    { key: 'a', operator: 'In', values: [] },
    { key: 'a', operator: 'Exists', values: ['x'] },
    { key: 'a', operator: 'Gt', values: ['1'] },
    { key: 'a', operator: 'Like', values: ['x'] },
  ];
  for (const r of bad) assert.throws(() => compileLabelSelector({ matchExpressions: [r] }), (e: unknown) => e instanceof InvalidSelectorError, r.operator);
});

test('node selector requirements compare integers with Gt and Lt', () => {
  const gt = compileNodeSelectorRequirements([{ key: 'cores', operator: 'Gt', values: ['4'] }]);
  const lt = compileNodeSelectorRequirements([{ key: 'cores', operator: 'Lt', values: ['4'] }]);
  assert.equal(['8', '4', '-1', 'x', undefined].map((v) => gt.matches(v === undefined ? {} : { cores: v })), [true, false, false, false, false]);
  assert.equal(['8', '3', '-1', 'x'].map((v) => lt.matches({ cores: v })), [false, true, true, false]);
  assert.throws(() => compileNodeSelectorRequirements([{ key: 'cores', operator: 'Gt', values: ['1', '2'] }]), (e: unknown) => e instanceof InvalidSelectorError);
  assert.throws(() => compileNodeSelectorRequirements([{ key: 'cores', operator: 'Lt', values: ['four'] }]), (e: unknown) => e instanceof InvalidSelectorError);
});

test.run();
