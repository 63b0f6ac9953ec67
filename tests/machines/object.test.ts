import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor } from 'xstate';
import { objectMachine } from '../../machines/object.ts';

const live = (finalizers: string[] = []) => createActor(objectMachine, { input: { finalizers } }).start();

test('Live, DELETE accepted with finalizers pending: Terminating (seed 000, row 1)', () => {
  const a = live(['orch.io/a', 'orch.io/b']);
  a.send({ type: 'DELETE' });
  assert.is(a.getSnapshot().value, 'Terminating');
  assert.equal(a.getSnapshot().context.finalizers, ['orch.io/a', 'orch.io/b']);
});

test('Terminating, last finalizer removed: Removed and final (seed 000, row 2)', () => {
  const a = live(['orch.io/a', 'orch.io/b']);
  a.send({ type: 'DELETE' });
  a.send({ type: 'FINALIZERS_CHANGED', finalizers: ['orch.io/b'] });
  assert.is(a.getSnapshot().value, 'Terminating');
  a.send({ type: 'FINALIZERS_CHANGED', finalizers: [] });
  assert.is(a.getSnapshot().value, 'Removed');
  assert.is(a.getSnapshot().status, 'done');
});

test('finalizers may be removed in any order and reordered while Terminating', () => {
  const a = live(['x', 'y', 'z']);
  a.send({ type: 'DELETE' });
  a.send({ type: 'FINALIZERS_CHANGED', finalizers: ['z', 'x'] });
  assert.equal(a.getSnapshot().context.finalizers, ['z', 'x']);
  a.send({ type: 'FINALIZERS_CHANGED', finalizers: ['x'] });
  a.send({ type: 'FINALIZERS_CHANGED', finalizers: [] });
  assert.is(a.getSnapshot().value, 'Removed');
});

test('a delete of an object without finalizers removes it at once', () => {
  const a = live();
  a.send({ type: 'DELETE' });
  assert.is(a.getSnapshot().value, 'Removed');
});

test('a Live object takes any finalizer change and stays Live', () => {
  const a = live();
  a.send({ type: 'FINALIZERS_CHANGED', finalizers: ['orch.io/a'] });
  assert.is(a.getSnapshot().value, 'Live');
  assert.equal(a.getSnapshot().context.finalizers, ['orch.io/a']);
  a.send({ type: 'DELETE' });
  assert.is(a.getSnapshot().value, 'Terminating');
});

test('adding a finalizer while Terminating is rejected: no transition, context unchanged, can() false', () => {
  const a = live(['orch.io/a']);
  a.send({ type: 'DELETE' });
  const before = a.getSnapshot();
  const adding = { type: 'FINALIZERS_CHANGED', finalizers: ['orch.io/a', 'orch.io/new'] } as const;
  assert.not.ok(before.can(adding));
  a.send(adding);
  assert.is(a.getSnapshot().value, 'Terminating');
  assert.is(a.getSnapshot().context, before.context);
  // Swapping one finalizer for another adds one too.
  assert.not.ok(a.getSnapshot().can({ type: 'FINALIZERS_CHANGED', finalizers: ['orch.io/other'] }));
});

test('a second DELETE while Terminating is ignored', () => {
  const a = live(['orch.io/a']);
  a.send({ type: 'DELETE' });
  assert.not.ok(a.getSnapshot().can({ type: 'DELETE' }));
  a.send({ type: 'DELETE' });
  assert.is(a.getSnapshot().value, 'Terminating');
});

test('Removed ignores every event', () => {
  const a = live();
  a.send({ type: 'DELETE' });
  a.send({ type: 'FINALIZERS_CHANGED', finalizers: ['orch.io/a'] });
  a.send({ type: 'DELETE' });
  assert.is(a.getSnapshot().value, 'Removed');
  assert.equal(a.getSnapshot().context.finalizers, []);
});

test.run();
